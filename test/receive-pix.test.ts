/**
 * Pix coming in from a PSP (`Billing.receivePix`, what a PSP's callback and
 * the reconciliation poll call), on PostgreSQL: each Pix confirms the charge
 * its txid names once, through the same steps as a sandbox payment (the
 * charge `PAID` with the PSP's end-to-end id and payer, the merchant's
 * balance credited); repeats, unknown txids, other amounts and charges no
 * longer open are answered as such and change nothing.
 */
import { BillingLive } from "@billing/cli"
import { Billing, cents, ChargeId, type PixPayer } from "@billing/core"
import { Effect, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freshPostgresDatabase } from "./support/Engine.ts"

const PAYER: PixPayer = { name: "Maria Pagadora", taxId: "52998224725", bank: "60701190", account: "", branch: "", accountType: "CACC" }

/** An end-to-end id as the SPI makes them: E, the payer's ISPB, the minute (yyyyMMddHHmm), 11 characters. */
const endToEnd = (n: number) => `E60701190202611271200${String(n).padStart(11, "0")}`

describe("Pix received from a PSP", () => {
  let runtime: ManagedRuntime.ManagedRuntime<any, any>
  let drop: () => Promise<void>
  let accountId: string
  const run = <A, E>(effect: Effect.Effect<A, E, any>) => runtime.runPromise(effect as Effect.Effect<A, E, never>)
  const asMerchant = <A, E>(effect: Effect.Effect<A, E, any>) => run(effect.pipe(Billing.asAccount(accountId)))
  const charge = (amount: number) => asMerchant(Billing.createPixCharge({ amount: cents(amount) }))
  const detail = async (chargeId: string) => (await asMerchant(Billing.getCharge(ChargeId.make(chargeId), "detail"))).body as any
  const txidOf = async (chargeId: string): Promise<string> => (await detail(chargeId)).pix.txid
  const total = async () => ((await asMerchant(Billing.walletBalance({}))) as { totalBalance: number }).totalBalance
  const pix = (txid: string, n: number, amount: number): Billing.ReceivedPix =>
    ({ txid, endToEndId: endToEnd(n), amount: cents(amount), at: new Date("2026-11-27T12:00:30Z"), payer: PAYER })

  beforeAll(async () => {
    const database = await freshPostgresDatabase()
    drop = database.drop
    runtime = ManagedRuntime.make(BillingLive({ databaseUrl: database.url, secretKey: Buffer.alloc(32, 9).toString("base64") }))
    accountId = (await run(Billing.createAccount({ name: "Loja Pix", document: "11444777000161", sandbox: true }))).accountId
  })
  afterAll(async () => {
    await runtime?.dispose()
    await drop?.()
  })

  it("confirms each charge once, with the PSP's end-to-end id and payer, and credits the merchant", async () => {
    const first = await charge(1234)
    const second = await charge(500)
    const [txA, txB] = [await txidOf(first.chargeId), await txidOf(second.chargeId)]
    const before = await total()

    // A callback with three Pix, one of them repeated.
    const outcomes = await run(Billing.receivePix([pix(txA, 1, 1234), pix(txB, 2, 500), pix(txA, 1, 1234)]))
    expect(outcomes).toEqual(["confirmed", "confirmed", "duplicate"])

    const paid = await detail(first.chargeId)
    expect(paid).toMatchObject({ status: "PAID", pix: { endToEndId: endToEnd(1) } })
    expect(paid.pix.payer).toMatchObject({ name: "Maria Pagadora", taxId: "52998224725" })
    expect((await detail(second.chargeId)).status).toBe("PAID")
    // The ledger holds each payment once: what the merchant keeps of it, the amount less the fee the charge shows.
    const kept = [paid, await detail(second.chargeId)].reduce((sum, c) => sum + c.amount - c.fees.total, 0)
    expect((await total()) - before).toBe(kept)

    // The same callback again, and the poll finding the same Pix: nothing moves.
    const balanceAfter = await asMerchant(Billing.walletBalance({}))
    expect(await run(Billing.receivePix([pix(txA, 1, 1234), pix(txB, 2, 500)]))).toEqual(["duplicate", "duplicate"])
    expect(await asMerchant(Billing.walletBalance({}))).toEqual(balanceAfter)
  })

  it("leaves a charge open for another amount, ignores an unknown txid, and never pays a paid charge twice", async () => {
    const open = await charge(2000)
    const tx = await txidOf(open.chargeId)
    expect(await run(Billing.receivePix([pix(tx, 10, 1999), pix("BUNKNOWN0000000000000000", 11, 2000)]))).toEqual(["amountMismatch", "unknownTxid"])
    expect((await detail(open.chargeId)).status).toBe("PENDING")

    expect(await run(Billing.receivePix([pix(tx, 12, 2000)]))).toEqual(["confirmed"])
    const balance = await asMerchant(Billing.walletBalance({}))
    // A second Pix (another end-to-end id) for the paid charge: the charge keeps its first payment.
    expect(await run(Billing.receivePix([pix(tx, 13, 2000)]))).toEqual(["chargeNotOpen"])
    expect((await detail(open.chargeId)).pix.endToEndId).toBe(endToEnd(12))
    expect(await asMerchant(Billing.walletBalance({}))).toEqual(balance)
  })
})
