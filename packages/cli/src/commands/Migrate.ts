/** `billing migrate`: applies pending migrations (`serve` and `worker` do it too). */
import { Database } from "@billing/adapters-postgres"
import { Console, Effect } from "effect"
import { Command } from "effect/cli"
import { configFromEnv, DatabaseLive } from "../Engine.ts"
import { ProgressToStderr } from "./Shared.ts"

/** `billing migrate`: prints what it applied, or "no pending migrations". */
export const migrate = Command.make("migrate", {}, Effect.fn("Cli.migrate")(function*() {
  const ran = yield* Database.migrate
  yield* Console.log(ran.length === 0 ? "no pending migrations" : ran.map(([id, name]) => `applied ${id}_${name}`).join("\n"))
}, Effect.provide(DatabaseLive(configFromEnv(process.env, { holder: "billing migrate" }))), Effect.provide(ProgressToStderr))).pipe(
  Command.withDescription("Apply pending database migrations")
)
