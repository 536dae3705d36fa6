import { PaymentMethods } from "@billing/core"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"

/** Tokenized cards on `effect/sql`. */
export const PaymentMethodsStorageLive = Layer.effect(PaymentMethods, Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const run = <A>(effect: Effect.Effect<A, unknown>) => Effect.orDie(effect)
  return PaymentMethods.of({
    insert: (m) =>
      run(sql`INSERT INTO payment_methods (id, account_id, acquirer_token, brand, first_six, last_four, exp_month, exp_year, holder_name, created_at)
        VALUES (${m.id}, ${m.accountId}, ${m.acquirerToken}, ${m.brand}, ${m.firstSix}, ${m.lastFour}, ${m.expMonth}, ${m.expYear}, ${m.holderName}, ${m.createdAt})`),
    find: (accountId, id) =>
      run(sql<{ id: string; account_id: string; acquirer_token: string; brand: string; first_six: string; last_four: string; exp_month: number; exp_year: number; holder_name: string; created_at: Date }>`
        SELECT id, account_id, acquirer_token, brand, first_six, last_four, exp_month, exp_year, holder_name, created_at
        FROM payment_methods WHERE account_id = ${accountId} AND id = ${id}`).pipe(
        Effect.map((rows) =>
          Option.map(Option.fromNullishOr(rows[0]), (r) => ({
            id: r.id,
            accountId: r.account_id,
            acquirerToken: r.acquirer_token,
            brand: r.brand,
            firstSix: r.first_six,
            lastFour: r.last_four,
            expMonth: Number(r.exp_month),
            expYear: Number(r.exp_year),
            holderName: r.holder_name,
            createdAt: new Date(r.created_at)
          }))
        )
      )
  })
}))
