import { CheckoutCustomer, CheckoutItems, CheckoutLink, CheckoutLinks } from "@billing/core"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { beforeCursor } from "./Keyset.ts"
import { decodeRows, jsonColumn, withoutSeq, withSeq } from "./Rows.ts"
import { orDie } from "./Statements.ts"

/** A checkout row: the entity with its JSON blocks as text; `seq` is the cursor. */
const decodeLinks = decodeRows(withSeq({
  ...CheckoutLink.fields,
  items: jsonColumn(CheckoutItems),
  allowedPaymentMethods: Schema.fromJsonString(CheckoutLink.fields.allowedPaymentMethods),
  customer: jsonColumn(CheckoutCustomer),
  settings: Schema.fromJsonString(CheckoutLink.fields.settings)
}))

/** Checkout links and sessions on `effect/sql`. */
export const CheckoutLinksStorageLive = Layer.effect(CheckoutLinks, Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const columns = sql`id, seq::text AS seq, account_id AS "accountId", kind, price_id AS "priceId", product_id AS "productId", items,
    allowed_payment_methods AS "allowedPaymentMethods", customer, settings, status, created_at AS "createdAt", updated_at AS "updatedAt"`
  const json = (v: unknown) => (v === null ? null : JSON.stringify(v))
  return CheckoutLinks.of({
    save: (l) =>
      orDie(sql`INSERT INTO checkout_links (id, account_id, kind, price_id, product_id, items, allowed_payment_methods, customer, settings, status, created_at, updated_at)
        VALUES (${l.id}, ${l.accountId}, ${l.kind}, ${l.priceId}, ${l.productId}, ${json(l.items)}, ${JSON.stringify(l.allowedPaymentMethods)},
          ${json(l.customer)}, ${JSON.stringify(l.settings)}, ${l.status}, ${l.createdAt}, ${l.updatedAt})
        ON CONFLICT (id) DO UPDATE SET price_id = EXCLUDED.price_id, allowed_payment_methods = EXCLUDED.allowed_payment_methods,
          settings = EXCLUDED.settings, status = EXCLUDED.status, updated_at = EXCLUDED.updated_at
        WHERE checkout_links.account_id = EXCLUDED.account_id`),
    find: (accountId, kind, id) =>
      orDie(sql`SELECT ${columns} FROM checkout_links WHERE account_id = ${accountId} AND kind = ${kind} AND id = ${id}`).pipe(
        Effect.flatMap(decodeLinks),
        Effect.map((rows) => Option.fromNullishOr(withoutSeq(rows)[0]))
      ),
    findForPayment: (kind, id) =>
      orDie(sql`SELECT ${columns} FROM checkout_links WHERE kind = ${kind} AND id = ${id}`).pipe(
        Effect.flatMap(decodeLinks),
        Effect.map((rows) => Option.fromNullishOr(withoutSeq(rows)[0]))
      ),
    setSessionStatus: (id, from, to, at) =>
      orDie(sql`UPDATE checkout_links SET status = ${to}, updated_at = ${at}
        WHERE id = ${id} AND kind = 'session' AND status = ${from} RETURNING id`).pipe(Effect.map((rows) => rows.length > 0)),
    list: (accountId, kind, q) =>
      Effect.gen(function*() {
        const [count] = yield* orDie(sql<{ n: string }>`SELECT count(*)::text AS n FROM checkout_links WHERE account_id = ${accountId} AND kind = ${kind}`)
        const cursor = beforeCursor(sql, q.after)
        const rows = yield* orDie(sql`SELECT ${columns} FROM checkout_links WHERE account_id = ${accountId} AND kind = ${kind} ${cursor}
          ORDER BY seq DESC LIMIT ${q.limit + 1}`).pipe(Effect.flatMap(decodeLinks))
        const page = rows.slice(0, q.limit)
        return { items: withoutSeq(page), total: Number(count?.n ?? 0), lastKey: rows.length > q.limit ? page[page.length - 1]!.seq : null }
      })
  })
}))
