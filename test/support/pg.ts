import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"

/** Runs one administrative statement (CREATE/DROP DATABASE) outside any transaction. */
export default (url: string, statement: string): Promise<void> =>
  Effect.runPromise(
    Effect.scoped(Effect.gen(function*() {
      const client = yield* PgClient.makeClient({ url: Redacted.make(url) })
      yield* client.unsafe(statement)
    })).pipe(Effect.provide(Reactivity.layer), Effect.asVoid)
  )
