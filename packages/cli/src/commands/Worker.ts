/** `billing worker`: the scheduler loops only; run as many as you like against one PostgreSQL. */
import { WorkerLive } from "@billing/worker"
import { Console, Effect, Layer } from "effect"
import { Command } from "effect/cli"
import { configFromEnv, describeDatabase, EngineLive, ProviderJobsLive } from "../Engine.ts"
import { ClaimLeaseFromEnv, ProgressToStderr, providersFromEnv } from "./Shared.ts"

/** `billing worker`. */
export const worker = Command.make("worker", {}, Effect.fn("Cli.worker")(function*() {
  const providers = yield* providersFromEnv
  // On an embedded folder a worker joins a running `serve`; alone, it shares the folder in turn.
  const config = configFromEnv(process.env, { holder: "billing worker", share: true })
  yield* Console.log(`billing worker running on ${describeDatabase(config)}`)
  const jobs = Layer.merge(WorkerLive(), ProviderJobsLive(providers))
  return yield* Layer.launch(jobs.pipe(Layer.provide(EngineLive(config, { providers })), Layer.provide([ProgressToStderr, ClaimLeaseFromEnv])))
})).pipe(
  Command.withDescription("Run the scheduler loops only: outbox, webhook delivery, sandbox payments, expiry, notifications, the billing run")
)
