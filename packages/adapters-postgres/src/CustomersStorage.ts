/** Customers on `effect/sql`: one live customer per document and account, soft deletion, keyset pages. */
import { type AccountId, Customer, CustomerAddress, Customers } from "@billing/core"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { beforeCursor } from "./Keyset.ts"
import { decodeRows, jsonColumn, withoutSeq, withSeq } from "./Rows.ts"
import { containsPattern, orDie } from "./Statements.ts"

/** A customer row: the entity with its address as JSON text; `seq` is the cursor. */
const decodeCustomers = decodeRows(withSeq({ ...Customer.fields, address: jsonColumn(CustomerAddress) }))


export const CustomersStorageLive = Layer.effect(Customers, Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const columns = sql`id, seq::text AS seq, account_id AS "accountId", name, document, email, phone, status, address,
    deleted_at AS "deletedAt", created_at AS "createdAt", updated_at AS "updatedAt"`
  const firstCustomer = (rows: ReadonlyArray<unknown>) => Effect.map(decodeCustomers(rows), (customers) => Option.fromNullishOr(withoutSeq(customers)[0]))
  const findByDocument = (accountId: AccountId, document: string) =>
    orDie(sql`SELECT ${columns} FROM customers WHERE account_id = ${accountId} AND document = ${document} AND deleted_at IS NULL`).pipe(
      Effect.flatMap(firstCustomer)
    )

  return Customers.of({
    insertIfAbsent: (c) =>
      Effect.gen(function*() {
        // The partial unique index decides between concurrent creations of one document.
        const inserted = yield* orDie(sql`INSERT INTO customers (id, account_id, name, document, email, phone, status, address, created_at, updated_at)
          VALUES (${c.id}, ${c.accountId}, ${c.name}, ${c.document}, ${c.email}, ${c.phone}, ${c.status},
            ${c.address === null ? null : JSON.stringify(c.address)}, ${c.createdAt}, ${c.updatedAt})
          ON CONFLICT (account_id, document) WHERE deleted_at IS NULL DO NOTHING
          RETURNING ${columns}`)
        const created = yield* firstCustomer(inserted)
        if (Option.isSome(created)) return { customer: created.value, created: true }
        const existing = yield* findByDocument(c.accountId, c.document)
        if (Option.isNone(existing)) return yield* Effect.die(new Error("customer conflict without a live customer"))
        return { customer: existing.value, created: false }
      }),
    update: (c) =>
      orDie(sql`UPDATE customers SET name = ${c.name}, email = ${c.email}, phone = ${c.phone},
          address = ${c.address === null ? null : JSON.stringify(c.address)}, status = ${c.status}, updated_at = ${c.updatedAt}
        WHERE account_id = ${c.accountId} AND id = ${c.id} AND deleted_at IS NULL`),
    find: (accountId, id) =>
      orDie(sql`SELECT ${columns} FROM customers WHERE account_id = ${accountId} AND id = ${id} AND deleted_at IS NULL`).pipe(
        Effect.flatMap(firstCustomer)
      ),
    findByDocument,
    list: (accountId, q) =>
      Effect.gen(function*() {
        const pattern = q.search === null ? null : containsPattern(q.search)
        const rows = yield* orDie(sql`SELECT ${columns} FROM customers
          WHERE account_id = ${accountId} AND deleted_at IS NULL
            ${beforeCursor(sql, q.after)}
            ${pattern === null ? sql`` : sql`AND (name ILIKE ${pattern} OR email ILIKE ${pattern} OR document ILIKE ${pattern})`}
            ${q.document === null ? sql`` : sql`AND document = ${q.document}`}
            ${q.status === null ? sql`` : sql`AND status = ${q.status}`}
            ${q.from === null ? sql`` : sql`AND created_at >= ${q.from}`}
            ${q.to === null ? sql`` : sql`AND created_at <= ${q.to}`}
          ORDER BY seq DESC LIMIT ${q.limit + 1}`).pipe(Effect.flatMap(decodeCustomers))
        const page = rows.slice(0, q.limit)
        return { items: withoutSeq(page), lastKey: rows.length > q.limit ? page[page.length - 1]!.seq : null }
      }),
    markDeleted: (accountId, id, at) =>
      orDie(sql`UPDATE customers SET deleted_at = ${at}, updated_at = ${at} WHERE account_id = ${accountId} AND id = ${id} AND deleted_at IS NULL`)
  })
}))
