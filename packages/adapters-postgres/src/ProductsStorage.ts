/** Products and prices on `effect/sql`, scoped by account; lists page by a keyset cursor. */
import { cents, type Price, type Product, Products } from "@billing/core"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { beforeCursor } from "./Keyset.ts"

interface ProductRow {
  readonly id: string
  readonly seq: string
  readonly account_id: string
  readonly name: string
  readonly description: string | null
  readonly type: Product["type"]
  readonly status: Product["status"]
  readonly nf_config_id: string | null
  readonly archived_at: Date | null
  readonly created_at: Date
  readonly updated_at: Date
}

interface PriceRow {
  readonly id: string
  readonly product_id: string
  readonly position: number
  readonly title: string
  readonly amount_cents: string
  readonly recurrence_type: Price["recurrenceType"]
  readonly recurrence_interval: number
  readonly trial_days: number
  readonly statement_descriptor: string | null
  readonly is_active: boolean
  readonly created_at: Date
  readonly updated_at: Date
}

const toPrice = (r: PriceRow): Price => ({
  id: r.id,
  productId: r.product_id,
  position: Number(r.position),
  title: r.title,
  amount: cents(Number(r.amount_cents)),
  recurrenceType: r.recurrence_type,
  recurrenceInterval: Number(r.recurrence_interval),
  trialDays: Number(r.trial_days),
  statementDescriptor: r.statement_descriptor,
  isActive: r.is_active,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at)
})

const toProduct = (r: ProductRow, prices: ReadonlyArray<Price>): Product => ({
  id: r.id,
  accountId: r.account_id,
  name: r.name,
  description: r.description,
  type: r.type,
  status: r.status,
  nfConfigId: r.nf_config_id,
  prices,
  archivedAt: r.archived_at === null ? null : new Date(r.archived_at),
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at)
})

export const ProductsStorageLive = Layer.effect(Products, Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const run = <A>(effect: Effect.Effect<A, unknown>) => Effect.orDie(effect)
  const productColumns = sql`id, seq::text AS seq, account_id, name, description, type, status, nf_config_id, archived_at, created_at, updated_at`
  const priceColumns = sql`id, product_id, position, title, amount_cents::text AS amount_cents, recurrence_type, recurrence_interval,
    trial_days, statement_descriptor, is_active, created_at, updated_at`
  const pricesOf = (ids: ReadonlyArray<string>) =>
    ids.length === 0
      ? Effect.succeed(new Map<string, Array<Price>>())
      : run(sql<PriceRow>`SELECT ${priceColumns} FROM prices WHERE product_id IN ${sql.in([...ids])} ORDER BY position`).pipe(
        Effect.map((rows) => {
          const byProduct = new Map<string, Array<Price>>()
          for (const row of rows) byProduct.set(row.product_id, [...(byProduct.get(row.product_id) ?? []), toPrice(row)])
          return byProduct
        })
      )

  return Products.of({
    save: (p) =>
      Effect.gen(function*() {
        yield* run(sql`INSERT INTO products (id, account_id, name, description, type, status, nf_config_id, archived_at, created_at, updated_at)
          VALUES (${p.id}, ${p.accountId}, ${p.name}, ${p.description}, ${p.type}, ${p.status}, ${p.nfConfigId}, ${p.archivedAt}, ${p.createdAt}, ${p.updatedAt})
          ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, description = EXCLUDED.description, type = EXCLUDED.type,
            status = EXCLUDED.status, nf_config_id = EXCLUDED.nf_config_id, archived_at = EXCLUDED.archived_at, updated_at = EXCLUDED.updated_at
          WHERE products.account_id = EXCLUDED.account_id`)
        for (const price of p.prices) {
          yield* run(sql`INSERT INTO prices (id, product_id, account_id, position, title, amount_cents, recurrence_type, recurrence_interval,
              trial_days, statement_descriptor, is_active, created_at, updated_at)
            VALUES (${price.id}, ${p.id}, ${p.accountId}, ${price.position}, ${price.title}, ${price.amount}, ${price.recurrenceType},
              ${price.recurrenceInterval}, ${price.trialDays}, ${price.statementDescriptor}, ${price.isActive}, ${price.createdAt}, ${price.updatedAt})
            ON CONFLICT (id) DO UPDATE SET title = EXCLUDED.title, amount_cents = EXCLUDED.amount_cents, recurrence_type = EXCLUDED.recurrence_type,
              recurrence_interval = EXCLUDED.recurrence_interval, trial_days = EXCLUDED.trial_days,
              statement_descriptor = EXCLUDED.statement_descriptor, is_active = EXCLUDED.is_active, updated_at = EXCLUDED.updated_at
            WHERE prices.account_id = EXCLUDED.account_id`)
        }
      }),
    find: (accountId, id) =>
      Effect.gen(function*() {
        const rows = yield* run(sql<ProductRow>`SELECT ${productColumns} FROM products WHERE account_id = ${accountId} AND id = ${id}`)
        const row = rows[0]
        if (row === undefined) return Option.none()
        const prices = yield* pricesOf([row.id])
        return Option.some(toProduct(row, prices.get(row.id) ?? []))
      }),
    list: (accountId, q) =>
      Effect.gen(function*() {
        const filters = sql`account_id = ${accountId}
          ${q.status === null ? sql`` : sql`AND status = ${q.status}`}
          ${q.search === null ? sql`` : sql`AND name ILIKE ${`%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`}`
        const cursor = beforeCursor(sql, q.after)
        const [count] = yield* run(sql<{ n: string }>`SELECT count(*)::text AS n FROM products WHERE ${filters}`)
        const rows = yield* run(sql<ProductRow>`SELECT ${productColumns} FROM products WHERE ${filters} ${cursor} ORDER BY seq DESC LIMIT ${q.limit + 1}`)
        const page = rows.slice(0, q.limit)
        const prices = yield* pricesOf(page.map((r) => r.id))
        return {
          items: page.map((r) => toProduct(r, prices.get(r.id) ?? [])),
          total: Number(count?.n ?? 0),
          lastKey: rows.length > q.limit ? page[page.length - 1]!.seq : null
        }
      }),
    remove: (accountId, id) => run(sql`DELETE FROM products WHERE account_id = ${accountId} AND id = ${id}`),
    findByPrice: (accountId, priceId) =>
      Effect.gen(function*() {
        const rows = yield* run(sql<ProductRow>`SELECT ${productColumns} FROM products
          WHERE account_id = ${accountId} AND id = (SELECT product_id FROM prices WHERE id = ${priceId} AND account_id = ${accountId})`)
        const row = rows[0]
        if (row === undefined) return Option.none()
        const prices = yield* pricesOf([row.id])
        return Option.some(toProduct(row, prices.get(row.id) ?? []))
      })
  })
}))
