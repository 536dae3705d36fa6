/**
 * The two storage shortcuts of the hot path, on PostgreSQL: charges inserted
 * on their own go through group commit (and those inside a transaction do
 * not), and reference data (accounts, fee schedules) is read through a
 * 30-second cache that transactions bypass.
 */
import { AccountId, type Charge, ChargeId, Charges, Accounts, cents, FeeSchedules, Transactor } from "@billing/core"
import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startEngine, type TestEngine } from "./support/Engine.ts"

type Account = Awaited<ReturnType<TestEngine["createAccount"]>>

const pixCharge = (id: string, accountId: AccountId): Charge => {
  const at = new Date()
  return {
    id: ChargeId.make(id),
    accountId,
    masterAccountId: accountId,
    paymentType: "PIX",
    status: "PENDING",
    amount: cents(1000),
    fee: cents(0),
    feeFixed: cents(0),
    feePercentHundredths: 0,
    net: cents(1000),
    txid: `B${id.replace(/\W/g, "").slice(-24).toUpperCase()}`,
    emv: null,
    psp: null,
    externalTxid: null,
    description: null,
    metadata: { test: id },
    customer: null,
    split: null,
    dueDate: null,
    expiresAt: new Date(at.getTime() + 3_600_000),
    paidAt: null,
    endToEndId: null,
    payer: null,
    canceledAt: null,
    archivedAt: null,
    attempts: 0,
    externalId: null,
    customerId: null,
    card: null,
    boleto: null,
    address: null,
    notifications: null,
    failureReason: null,
    subscriptionId: null,
    cycleNumber: null,
    createdAt: at,
    updatedAt: at
  }
}

describe("storage on postgres: group commit and reference cache", () => {
  let engine: TestEngine
  let account: Account

  const sql = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) => engine.run(Effect.flatMap(SqlClient.SqlClient, f))
  const stored = (ids: ReadonlyArray<string>) =>
    sql((s) => s<{ id: string }>`SELECT id FROM charges WHERE id IN ${s.in(ids)}`).then((rows) => rows.map((r) => r.id).sort())
  const insert = (charge: Charge) => engine.run(Effect.flatMap(Charges, (charges) => charges.insert(charge)))

  beforeAll(async () => {
    engine = await startEngine("postgres")
    account = await engine.createAccount({ name: "Loja Lote" })
  })
  afterAll(() => engine?.dispose())

  it("stores every one of 40 concurrent charges, and a duplicate id fails only its own insert", async () => {
    await insert(pixCharge("cha_existing", account.accountId))
    const ids = Array.from({ length: 40 }, (_, i) => (i === 17 ? "cha_existing" : `cha_batch_${i}`))
    const outcomes = await Promise.allSettled(ids.map((id) => insert(pixCharge(id, account.accountId))))
    expect(outcomes.map((o) => o.status).filter((s) => s === "rejected")).toHaveLength(1)
    expect(outcomes[17]!.status).toBe("rejected")
    const fresh = ids.filter((id) => id !== "cha_existing")
    expect(await stored(fresh)).toEqual([...fresh].sort())
  })

  it("keeps an insert made inside a transaction in that transaction: rolled back with it", async () => {
    const charge = pixCharge("cha_rolled_back", account.accountId)
    const exit = await engine.run(Effect.exit(Effect.gen(function*() {
      const transactor = yield* Transactor
      const charges = yield* Charges
      yield* transactor.withTransaction(Effect.andThen(charges.insert(charge), Effect.fail("abort")))
    })))
    expect(exit._tag).toBe("Failure")
    expect(await stored([charge.id])).toEqual([])
  })

  it("serves an account from the cache for 30 s after an out-of-band change, while transactions read the database", async () => {
    const other = await engine.createAccount({ name: "Nome Antigo" })
    const names = await engine.run(Effect.gen(function*() {
      const accounts = yield* Accounts
      const sql = yield* SqlClient.SqlClient
      const transactor = yield* Transactor
      const name = Effect.map(accounts.findById(other.accountId), (a) => Option.getOrThrow(a).name)
      const first = yield* name
      yield* sql`UPDATE accounts SET name = 'Nome Novo' WHERE id = ${other.accountId}`
      const cached = yield* name
      const inTransaction = yield* transactor.withTransaction(name)
      yield* TestClock.adjust("29 seconds")
      const justBefore = yield* name
      yield* TestClock.adjust("2 seconds")
      const after = yield* name
      return { first, cached, inTransaction, justBefore, after }
    }).pipe(Effect.provide(TestClock.layer())))
    expect(names).toEqual({ first: "Nome Antigo", cached: "Nome Antigo", inTransaction: "Nome Novo", justBefore: "Nome Antigo", after: "Nome Novo" })
  })

  it("does not remember that an account was missing", async () => {
    const found = await engine.run(Effect.gen(function*() {
      const accounts = yield* Accounts
      const sql = yield* SqlClient.SqlClient
      const before = yield* accounts.findById(AccountId.make("acc_not_yet"))
      const [row] = yield* sql<Record<string, unknown>>`SELECT * FROM accounts WHERE id = ${account.accountId}`
      yield* sql`INSERT INTO accounts ${sql.insert({ ...row!, id: "acc_not_yet", number: "999999001" })}`
      const after = yield* accounts.findById(AccountId.make("acc_not_yet"))
      return { before: Option.isSome(before), after: Option.isSome(after) }
    }))
    expect(found).toEqual({ before: false, after: true })
  })

  it("remembers that an account has no fee schedule of its own, until the TTL runs out", async () => {
    const fees = await engine.run(Effect.gen(function*() {
      const schedules = yield* FeeSchedules
      const sql = yield* SqlClient.SqlClient
      const find = Effect.map(schedules.find(account.accountId, "pix"), Option.getOrUndefined)
      const before = yield* find
      yield* sql`INSERT INTO account_fees (account_id, payment_method, fixed_cents, percent_hundredths) VALUES (${account.accountId}, 'pix', 50, 99)`
      const cached = yield* find
      yield* TestClock.adjust("31 seconds")
      const after = yield* find
      return { before, cached, after }
    }).pipe(Effect.provide(TestClock.layer())))
    expect(fees).toEqual({ before: undefined, cached: undefined, after: { fixed: 50, percentHundredths: 99 } })
  })

  it("looks a seller up by master and number through the cache: a hit is remembered, a miss is not", async () => {
    const master = await engine.createAccount({ name: "Marketplace" })
    const seen = await engine.run(Effect.gen(function*() {
      const accounts = yield* Accounts
      const sql = yield* SqlClient.SqlClient
      const seller = (number: string) => Effect.map(accounts.findSubAccount(master.accountId, number), Option.getOrUndefined)
      const missing = yield* seller("777000001")
      const [row] = yield* sql<Record<string, unknown>>`SELECT * FROM accounts WHERE id = ${master.accountId}`
      yield* sql`INSERT INTO accounts ${sql.insert({ ...row!, id: "acc_seller_later", number: "777000001", parent_id: master.accountId, name: "Vendedor" })}`
      const created = yield* seller("777000001")
      yield* sql`UPDATE accounts SET name = 'Vendedor Renomeado' WHERE id = 'acc_seller_later'`
      const cached = yield* seller("777000001")
      yield* TestClock.adjust("31 seconds")
      const after = yield* seller("777000001")
      return { missing, created: created?.name, cached: cached?.name, after: after?.name }
    }).pipe(Effect.provide(TestClock.layer())))
    expect(seen).toEqual({ missing: undefined, created: "Vendedor", cached: "Vendedor", after: "Vendedor Renomeado" })
  })

  it("reads a fee schedule from the database inside a transaction, even while the cache remembers it was absent", async () => {
    const other = await engine.createAccount({ name: "Loja Taxa" })
    const fees = await engine.run(Effect.gen(function*() {
      const schedules = yield* FeeSchedules
      const sql = yield* SqlClient.SqlClient
      const transactor = yield* Transactor
      const find = Effect.map(schedules.find(other.accountId, "pix"), Option.getOrUndefined)
      const before = yield* find
      yield* sql`INSERT INTO account_fees (account_id, payment_method, fixed_cents, percent_hundredths) VALUES (${other.accountId}, 'pix', 25, 150)`
      const cached = yield* find
      const inTransaction = yield* transactor.withTransaction(find)
      return { before, cached, inTransaction }
    }))
    expect(fees).toEqual({ before: undefined, cached: undefined, inTransaction: { fixed: 25, percentHundredths: 150 } })
  })
})
