/** Products and prices on `effect/sql`, scoped by account; lists page by a keyset cursor. */
import { Price, Product, Products } from "@billing/core"
import { Effect, Layer, Option, Schema, Struct } from "effect"
import { SqlClient } from "effect/sql"
import { beforeCursor } from "./Keyset.ts"
import { accountIdsOf, CentsColumn, decodeRows, withoutSeq, withSeq } from "./Rows.ts"
import { containsPattern, orDie } from "./Statements.ts"

/** A product row, without its prices (they are rows of their own); `seq` is the cursor. */
const decodeProducts = decodeRows(withSeq(Struct.omit(Product.fields, ["prices"])))
/** A price row: the entity with its centavos as `bigint`. */
const decodePrices = decodeRows(Schema.Struct({ ...Price.fields, amount: CentsColumn }))

export const ProductsStorageLive = Layer.effect(Products, Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const productColumns = sql`id, seq::text AS seq, account_id AS "accountId", name, description, type, status, nf_config_id AS "nfConfigId",
    archived_at AS "archivedAt", created_at AS "createdAt", updated_at AS "updatedAt"`
  const priceColumns = sql`id, product_id AS "productId", position, title, amount_cents AS amount, recurrence_type AS "recurrenceType",
    recurrence_interval AS "recurrenceInterval", trial_days AS "trialDays", statement_descriptor AS "statementDescriptor",
    is_active AS "isActive", created_at AS "createdAt", updated_at AS "updatedAt"`
  // Products of the rows with their prices, in the rows' order.
  const withPrices = (rows: ReadonlyArray<unknown>) =>
    Effect.gen(function*() {
      const products = withoutSeq(yield* decodeProducts(rows))
      const prices = yield* pricesOf(products.map((p) => p.id))
      return products.map((p): Product => ({ ...p, prices: prices.get(p.id) ?? [] }))
    })
  const pricesOf = (ids: ReadonlyArray<string>) =>
    ids.length === 0
      ? Effect.succeed(new Map<string, Array<Price>>())
      : orDie(sql`SELECT ${priceColumns} FROM prices WHERE product_id IN ${sql.in([...ids])} ORDER BY position`).pipe(
        Effect.flatMap(decodePrices),
        Effect.map((prices) => {
          const byProduct = new Map<string, Array<Price>>()
          for (const price of prices) byProduct.set(price.productId, [...(byProduct.get(price.productId) ?? []), price])
          return byProduct
        })
      )

  return Products.of({
    save: (p) =>
      Effect.gen(function*() {
        yield* orDie(sql`INSERT INTO products (id, account_id, name, description, type, status, nf_config_id, archived_at, created_at, updated_at)
          VALUES (${p.id}, ${p.accountId}, ${p.name}, ${p.description}, ${p.type}, ${p.status}, ${p.nfConfigId}, ${p.archivedAt}, ${p.createdAt}, ${p.updatedAt})
          ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, description = EXCLUDED.description, type = EXCLUDED.type,
            status = EXCLUDED.status, nf_config_id = EXCLUDED.nf_config_id, archived_at = EXCLUDED.archived_at, updated_at = EXCLUDED.updated_at
          WHERE products.account_id = EXCLUDED.account_id`)
        for (const price of p.prices) {
          yield* orDie(sql`INSERT INTO prices (id, product_id, account_id, position, title, amount_cents, recurrence_type, recurrence_interval,
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
      orDie(sql`SELECT ${productColumns} FROM products WHERE account_id = ${accountId} AND id = ${id}`).pipe(
        Effect.flatMap(withPrices),
        Effect.map((products) => Option.fromNullishOr(products[0]))
      ),
    list: (accountId, q) =>
      Effect.gen(function*() {
        const filters = sql`account_id = ${accountId}
          ${q.status === null ? sql`` : sql`AND status = ${q.status}`}
          ${q.search === null ? sql`` : sql`AND name ILIKE ${containsPattern(q.search)}`}`
        const cursor = beforeCursor(sql, q.after)
        const [count] = yield* orDie(sql<{ n: string }>`SELECT count(*)::text AS n FROM products WHERE ${filters}`)
        const rows = yield* orDie(sql<{ seq: string }>`SELECT ${productColumns} FROM products WHERE ${filters} ${cursor} ORDER BY seq DESC LIMIT ${q.limit + 1}`)
        const page = rows.slice(0, q.limit)
        return {
          items: yield* withPrices(page),
          total: Number(count?.n ?? 0),
          lastKey: rows.length > q.limit ? page[page.length - 1]!.seq : null
        }
      }),
    remove: (accountId, id) => orDie(sql`DELETE FROM products WHERE account_id = ${accountId} AND id = ${id}`),
    findByPrice: (accountId, priceId) =>
      orDie(sql`SELECT ${productColumns} FROM products
        WHERE account_id = ${accountId} AND id = (SELECT product_id FROM prices WHERE id = ${priceId} AND account_id = ${accountId})`).pipe(
        Effect.flatMap(withPrices),
        Effect.map((products) => Option.fromNullishOr(products[0]))
      ),
    accountsOfPrices: (priceIds) =>
      priceIds.length === 0
        ? Effect.succeed([])
        : orDie(sql`SELECT DISTINCT account_id AS "accountId" FROM prices WHERE id IN ${sql.in([...priceIds])} LIMIT 2`).pipe(Effect.flatMap(accountIdsOf))
  })
}))
