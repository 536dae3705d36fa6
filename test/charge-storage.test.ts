/**
 * Charges in PostgreSQL: a charge stored and read back through the storage
 * port is the same charge (every block filled, split parts as rows), and the
 * database itself refuses what the core's schemas refuse: a status outside
 * the spec's list, a split part naming no account, a transition not in the
 * table.
 */
import { type Charge, ChargeId, Charges, ChargeTransitions, cents } from "@billing/core"
import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startEngine, type TestEngine } from "./support/Engine.ts"

type Account = Awaited<ReturnType<TestEngine["createAccount"]>>

const at = new Date(Date.UTC(2026, 10, 22, 15, 30, 0, 123))

const fullCharge = (id: string, owner: Account, receiver: Account): Charge => ({
  id: ChargeId.make(id),
  accountId: owner.accountId,
  masterAccountId: owner.accountId,
  paymentType: "BOLETO",
  status: "PENDING",
  amount: cents(10_000),
  fee: cents(349),
  feeFixed: cents(199),
  feePercentHundredths: 150,
  net: cents(9_651),
  txid: "00012345",
  emv: null,
  psp: null,
  externalTxid: "loja-7",
  description: "Pedido 7",
  metadata: { orderId: "7", nested: { tags: ["a", "b"] } },
  customer: { documentNumber: "52998224725", name: "Maria", email: "maria@example.com", phone: "+5511999999999", cep: null },
  split: [
    { accountId: receiver.accountId, accountNumber: receiver.accountNumber, type: "percentage", value: 1250, amount: cents(1206) },
    { accountId: receiver.accountId, accountNumber: receiver.accountNumber, type: "fixed", value: 500, amount: cents(500) }
  ],
  dueDate: "2026-12-10",
  expiresAt: new Date(Date.UTC(2026, 11, 11, 2, 59, 59, 999)),
  paidAt: null,
  endToEndId: null,
  payer: null,
  canceledAt: null,
  archivedAt: null,
  attempts: 0,
  externalId: `ext-${id}`,
  customerId: null,
  card: null,
  boleto: {
    bankCode: "999",
    ourNumber: "00012345",
    barcode: "99991000000100000000001234500000000000000000",
    digitableLine: "99990.00003 01234.500000 00000.000000 1 00000000010000",
    dueDate: "2026-12-10",
    instructions: { fine: { value: 2 } }
  },
  address: {
    street: "Rua A",
    number: "10",
    complement: null,
    neighborhood: "Centro",
    city: "São Paulo",
    state: "SP",
    zipCode: "01001000",
    cityCode: "3550308"
  },
  notifications: ["new.sale"],
  failureReason: null,
  subscriptionId: null,
  cycleNumber: null,
  createdAt: at,
  updatedAt: at
})

describe("charges in PostgreSQL", () => {
  let engine: TestEngine
  let owner: Account
  let receiver: Account
  const sql = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) => engine.run(Effect.flatMap(SqlClient.SqlClient, f))
  /** The SQLSTATE and message PostgreSQL refused a statement with. */
  const refusal = (f: (sql: SqlClient.SqlClient) => Effect.Effect<unknown, unknown>) =>
    engine.run(Effect.flip(Effect.flatMap(SqlClient.SqlClient, f))).then((error) => {
      const cause = (error as { reason?: { cause?: { code?: string; message?: string } } }).reason?.cause
      return { code: cause?.code, message: cause?.message }
    })
  const withCharges = <A>(f: (charges: Charges["Service"]) => Effect.Effect<A>) => engine.run(Effect.flatMap(Charges, f))

  beforeAll(async () => {
    engine = await startEngine("postgres")
    owner = await engine.createAccount({ name: "Loja Dona" })
    receiver = await engine.createAccount({ name: "Loja Parceira" })
  })
  afterAll(() => engine?.dispose())

  it("reads back the very charge it stored, split parts in their order, with and without a transaction", async () => {
    const alone = fullCharge("cha_roundtrip_1", owner, receiver)
    const duplicateSafe = fullCharge("cha_roundtrip_2", owner, receiver)
    await withCharges((charges) => charges.insert(alone))
    await withCharges((charges) => charges.insertUnlessDuplicate(duplicateSafe))
    const scope = { _tag: "Account", accountId: owner.accountId } as const
    expect(await withCharges((charges) => charges.find(scope, alone.id))).toEqual(Option.some(alone))
    expect(await withCharges((charges) => charges.find(scope, duplicateSafe.id))).toEqual(Option.some(duplicateSafe))
    const rows = await sql((s) => s<{ position: number; type: string }>`SELECT position, type FROM charge_splits WHERE charge_id = ${alone.id} ORDER BY position`)
    expect(rows).toEqual([{ position: 0, type: "percentage" }, { position: 1, type: "fixed" }])
  })

  it("refuses a status outside the spec's list and a split part naming no account", async () => {
    const id = "cha_invariants"
    await withCharges((charges) => charges.insert({ ...fullCharge(id, owner, receiver), split: null }))
    const status = await refusal((s) => s`UPDATE charges SET status = 'PAYED' WHERE id = ${id}`)
    expect(status.code).toBe("23514")
    expect(status.message).toMatch(/charges_status_check/)
    const orphan = await refusal((s) =>
      s`INSERT INTO charge_splits (charge_id, position, account_id, account_number, type, value, amount_cents)
        VALUES (${id}, 0, 'acc_nobody', '999999', 'fixed', 100, 100)`)
    expect(orphan.code).toBe("23503")
    const negative = await refusal((s) =>
      s`INSERT INTO charge_splits (charge_id, position, account_id, account_number, type, value, amount_cents)
        VALUES (${id}, 0, ${receiver.accountId}, ${receiver.accountNumber}, 'fixed', 100, -1)`)
    expect(negative.code).toBe("23514")
  })

  it("applies a transition only from its own statuses: an archived charge cannot be paid or expired", async () => {
    const id = ChargeId.make("cha_transitions")
    await withCharges((charges) => charges.insert({ ...fullCharge(id, owner, receiver), split: null, externalId: null }))
    const moved = (trigger: keyof typeof ChargeTransitions) =>
      withCharges((charges) => charges.transition(id, ChargeTransitions[trigger], {}, at)).then((o) => Option.map(o, (c) => c.status))
    expect(await moved("archived")).toEqual(Option.none())
    expect(await moved("canceled")).toEqual(Option.some("CANCELED"))
    expect(await moved("paymentConfirmed")).toEqual(Option.none())
    expect(await moved("archived")).toEqual(Option.some("ARCHIVED"))
    expect(await moved("expired")).toEqual(Option.none())
  })
})
