/**
 * The reconciliation poll: a Pix a PSP lists becomes the engine's
 * `ReceivedPix` (a pure mapping), and a poll hands every PSP's Pix of the
 * window to the receiver, leaving out what is not ours and naming a PSP it
 * could not ask. Expected values come from what the test gave the fakes.
 */
import { assert, it } from "@effect/vitest"
import type { Billing } from "@billing/core"
import { Effect, Option } from "effect"
import { afterAll, beforeAll, describe, expect } from "vitest"
import { receivedPixOf } from "../src/callback/ReceivedPix.ts"
import { makePixApiClient } from "../src/pix/PixApiClient.ts"
import { PspClients } from "../src/pix/PspClients.ts"
import { pollReceivedPix } from "../src/reconciliation/PollReceivedPix.ts"
import { FAKE_ISPB } from "./support/FakePspBook.ts"
import { type FakePsp, startFakePsp } from "./support/FakePsp.ts"
import { fakePspEntry } from "./support/FakePspEntry.ts"
import { newEngineTxid } from "./support/PixRegistrations.ts"
import { makeTestPki, MERCHANT_CNPJ } from "./support/TestCertificates.ts"

/** No payer in the standard's Pix but its institution, the end-to-end id's characters 2 to 9. */
const payerOf = (ispb: string) => ({ name: "", taxId: "", bank: ispb, account: "", branch: "", accountType: "CACC" })

describe("a Pix a PSP lists, as the engine receives it", () => {
  const endToEndId = "E60701190202601201200A1b2C3d4E5f"

  it("is ours when its txid is: the engine's txid, the amount in centavos, the instant, the payer's institution", () => {
    const received = receivedPixOf({ endToEndId, txid: "BLNGB0123456789ABCDEF01234567", valor: "1234.50", horario: "2026-01-20T12:00:03.250Z" })
    assert.deepStrictEqual(Option.getOrThrow(received), {
      txid: "B0123456789ABCDEF01234567",
      endToEndId,
      amount: 123450 as Billing.ReceivedPix["amount"],
      at: new Date(Date.UTC(2026, 0, 20, 12, 0, 3, 250)),
      payer: payerOf("60701190") as Billing.ReceivedPix["payer"]
    })
  })

  it("is none of ours without a txid, or with one the engine did not make", () => {
    assert.isTrue(Option.isNone(receivedPixOf({ endToEndId, valor: "1.00", horario: "2026-01-20T12:00:00Z" })))
    assert.isTrue(Option.isNone(receivedPixOf({ endToEndId, txid: "PEDIDO0000000000000000000042", valor: "1.00", horario: "2026-01-20T12:00:00Z" })))
  })
})

describe("the reconciliation poll", () => {
  const pki = makeTestPki()
  const CLIENT = { requestTimeout: "1 second", retries: 1, retryBackoff: "5 millis" } as const
  let a: FakePsp
  let b: FakePsp
  let closedBaseUrl: string
  beforeAll(async () => {
    a = await startFakePsp(pki, { profile: "bcb", pixKey: MERCHANT_CNPJ, pageSize: 2 })
    b = await startFakePsp(pki, { profile: "efi", pixKey: MERCHANT_CNPJ })
    // A port that was just free: nothing listens there.
    const gone = await startFakePsp(pki, { profile: "bcb", pixKey: MERCHANT_CNPJ })
    closedBaseUrl = gone.baseUrl
    await gone.close()
  })
  afterAll(async () => {
    expect([...a.violations, ...b.violations]).toEqual([])
    await a.close()
    await b.close()
  })

  it.live("hands each PSP's Pix of the window to the receiver, ours only, and names a PSP it could not ask", () =>
    Effect.scoped(Effect.gen(function*() {
      const clients = [
        yield* makePixApiClient(fakePspEntry(pki, a, { name: "fake-a", profile: "bcb" }), CLIENT),
        yield* makePixApiClient(fakePspEntry(pki, b, { name: "fake-b", profile: "efi" }), CLIENT),
        yield* makePixApiClient(fakePspEntry(pki, a, { name: "fake-down", profile: "bcb", baseUrl: closedBaseUrl }), CLIENT)
      ]
      const batches: Array<ReadonlyArray<Billing.ReceivedPix>> = []
      // A stand-in for Billing.receivePix: confirms a Pix the first time, a duplicate after.
      const seen = new Set<string>()
      const receive = (received: ReadonlyArray<Billing.ReceivedPix>) =>
        Effect.sync(() => {
          batches.push(received)
          return received.map((pix): Billing.ReceivedPixOutcome => (seen.has(pix.endToEndId) ? "duplicate" : (seen.add(pix.endToEndId), "confirmed")))
        })
      const poll = pollReceivedPix("10 minutes", receive).pipe(Effect.provideService(PspClients, clients))

      const now = Date.now()
      const [txidA, txidB, txidOld, txidLater] = [newEngineTxid(), newEngineTxid(), newEngineTxid(), newEngineTxid()]
      const atA = new Date(now - 60_000)
      const atB = new Date(now - 90_000)
      const paidA = a.receive("12.34", atA, `BLNG${txidA}`)
      a.receive("5.00", new Date(now - 120_000), "PEDIDO0000000000000000000042")
      a.receive("7.00", new Date(now - 30 * 60_000), `BLNG${txidOld}`)
      const paidB = b.receive("20.00", atB, `BLNG${txidB}`)

      const first = yield* poll
      // Each Pix names the PSP that received it: the charge records it, and its refunds go there.
      const received = (txid: string, endToEndId: string, amount: number, at: Date, psp: string) => ({ txid, endToEndId, amount, at, payer: payerOf(FAKE_ISPB), psp })
      assert.deepStrictEqual(batches, [[received(txidA, paidA, 1234, atA, "fake-a")], [received(txidB, paidB, 2000, atB, "fake-b")]] as unknown)
      expect(first).toEqual({
        outcomes: { confirmed: 2, duplicate: 0, unknownTxid: 0, amountMismatch: 0, chargeNotOpen: 0 },
        notOurs: 1,
        unreachable: [expect.stringContaining("fake-down: connection refused")]
      })

      // The next poll's window overlaps: what it saw before comes again, beside what is new.
      const atLater = new Date()
      const paidLater = a.receive("3.00", atLater, `BLNG${txidLater}`)
      batches.length = 0
      const second = yield* poll
      assert.deepStrictEqual(batches, [[received(txidA, paidA, 1234, atA, "fake-a"), received(txidLater, paidLater, 300, atLater, "fake-a")], [received(txidB, paidB, 2000, atB, "fake-b")]] as unknown)
      assert.deepStrictEqual(second.outcomes, { confirmed: 1, duplicate: 2, unknownTxid: 0, amountMismatch: 0, chargeNotOpen: 0 })
    })))
})
