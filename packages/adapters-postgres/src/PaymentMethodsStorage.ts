import { PaymentMethod, PaymentMethods } from "@billing/core"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { decodeRows } from "./Rows.ts"
import { orDie } from "./Statements.ts"

const decodeMethods = decodeRows(PaymentMethod)

/** Tokenized cards on `effect/sql`. */
export const PaymentMethodsStorageLive = Layer.effect(PaymentMethods, Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const columns = sql`id, account_id AS "accountId", acquirer_token AS "acquirerToken", brand, first_six AS "firstSix", last_four AS "lastFour",
    exp_month AS "expMonth", exp_year AS "expYear", holder_name AS "holderName", created_at AS "createdAt"`
  return PaymentMethods.of({
    insert: (m) =>
      orDie(sql`INSERT INTO payment_methods (id, account_id, acquirer_token, brand, first_six, last_four, exp_month, exp_year, holder_name, created_at)
        VALUES (${m.id}, ${m.accountId}, ${m.acquirerToken}, ${m.brand}, ${m.firstSix}, ${m.lastFour}, ${m.expMonth}, ${m.expYear}, ${m.holderName}, ${m.createdAt})`),
    find: (accountId, id) =>
      orDie(sql`SELECT ${columns} FROM payment_methods WHERE account_id = ${accountId} AND id = ${id}`).pipe(
        Effect.flatMap(decodeMethods),
        Effect.map((rows) => Option.fromNullishOr(rows[0]))
      ),
    findMany: (ids) =>
      ids.length === 0 ? Effect.succeed([]) : orDie(sql`SELECT ${columns} FROM payment_methods WHERE id IN ${sql.in([...ids])}`).pipe(
        Effect.flatMap(decodeMethods)
      ),
    updateToken: (accountId, id, acquirerToken) =>
      orDie(sql`UPDATE payment_methods SET acquirer_token = ${acquirerToken} WHERE account_id = ${accountId} AND id = ${id}`)
  })
}))
