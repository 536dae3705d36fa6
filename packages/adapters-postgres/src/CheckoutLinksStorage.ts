import { type CheckoutLink, CheckoutLinks } from "@billing/core"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { beforeCursor } from "./Keyset.ts"

interface LinkRow {
  readonly id: string
  readonly seq: string
  readonly account_id: string
  readonly kind: CheckoutLink["kind"]
  readonly price_id: string | null
  readonly product_id: string | null
  readonly items: string | null
  readonly allowed_payment_methods: string
  readonly customer: string | null
  readonly settings: string
  readonly status: string
  readonly created_at: Date
  readonly updated_at: Date
}

const toLink = (r: LinkRow): CheckoutLink => ({
  id: r.id,
  accountId: r.account_id,
  kind: r.kind,
  priceId: r.price_id,
  productId: r.product_id,
  items: r.items === null ? null : JSON.parse(r.items),
  allowedPaymentMethods: JSON.parse(r.allowed_payment_methods),
  customer: r.customer === null ? null : JSON.parse(r.customer),
  settings: JSON.parse(r.settings),
  status: r.status,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at)
})

/** Checkout links and sessions on `effect/sql`. */
export const CheckoutLinksStorageLive = Layer.effect(CheckoutLinks, Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const run = <A>(effect: Effect.Effect<A, unknown>) => Effect.orDie(effect)
  const columns = sql`id, seq::text AS seq, account_id, kind, price_id, product_id, items, allowed_payment_methods, customer, settings, status, created_at, updated_at`
  const json = (v: unknown) => (v === null ? null : JSON.stringify(v))
  return CheckoutLinks.of({
    save: (l) =>
      run(sql`INSERT INTO checkout_links (id, account_id, kind, price_id, product_id, items, allowed_payment_methods, customer, settings, status, created_at, updated_at)
        VALUES (${l.id}, ${l.accountId}, ${l.kind}, ${l.priceId}, ${l.productId}, ${json(l.items)}, ${JSON.stringify(l.allowedPaymentMethods)},
          ${json(l.customer)}, ${JSON.stringify(l.settings)}, ${l.status}, ${l.createdAt}, ${l.updatedAt})
        ON CONFLICT (id) DO UPDATE SET price_id = EXCLUDED.price_id, allowed_payment_methods = EXCLUDED.allowed_payment_methods,
          settings = EXCLUDED.settings, status = EXCLUDED.status, updated_at = EXCLUDED.updated_at
        WHERE checkout_links.account_id = EXCLUDED.account_id`),
    find: (accountId, kind, id) =>
      run(sql<LinkRow>`SELECT ${columns} FROM checkout_links WHERE account_id = ${accountId} AND kind = ${kind} AND id = ${id}`).pipe(
        Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toLink))
      ),
    list: (accountId, kind, q) =>
      Effect.gen(function*() {
        const [count] = yield* run(sql<{ n: string }>`SELECT count(*)::text AS n FROM checkout_links WHERE account_id = ${accountId} AND kind = ${kind}`)
        const cursor = beforeCursor(sql, q.after)
        const rows = yield* run(sql<LinkRow>`SELECT ${columns} FROM checkout_links WHERE account_id = ${accountId} AND kind = ${kind} ${cursor}
          ORDER BY seq DESC LIMIT ${q.limit + 1}`)
        const page = rows.slice(0, q.limit)
        return { items: page.map(toLink), total: Number(count?.n ?? 0), lastKey: rows.length > q.limit ? page[page.length - 1]!.seq : null }
      })
  })
}))
