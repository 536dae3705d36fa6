/** Transactions on `effect/sql`: nested calls join the outer one; a failed commit is a defect. */
import { Transactor } from "@billing/core"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"

export const TransactorStorageLive = Layer.effect(Transactor, Effect.map(SqlClient.SqlClient, (sql) =>
  Transactor.of({
    withTransaction: (effect) => sql.withTransaction(effect).pipe(Effect.catchTag("SqlError", Effect.die))
  })))
