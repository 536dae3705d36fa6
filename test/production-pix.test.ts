/**
 * A production account takes a real Pix, end to end through real HTTP on
 * PostgreSQL, against a fake PSP of the BCB API Pix (mutual TLS, every
 * message checked against the BCB OpenAPI): the charge is registered at the
 * PSP (`PUT /cob`) and shows the PSP's BR Code and name; the PSP's callback
 * (`POST /psp/pix/{name}/{secret}/pix`) confirms it once however often it
 * comes; the merchant's webhook receives a signed `payment.success` with the
 * PSP's end-to-end id. A wrong secret is a 404 and changes nothing. A Pix
 * whose callback never came is confirmed by the reconciliation poll; with
 * the first PSP down a charge goes to the second, and its refund goes back
 * through the PSP that took it.
 */
import { type AccountId, Billing, type ChargeId, type SubscriptionId, Transactor, verifyWebhookSignature } from "@billing/core"
import { callbackSecret, pollReceivedPix, type ProvidersConfig } from "@billing/providers"
import { deliveryPass, drain, workerJob } from "@billing/worker"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { parsePix } from "pix-utils"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type FakePsp, startFakePsp } from "../packages/providers/test/support/FakePsp.ts"
import { problem } from "../packages/providers/test/support/FakePspBook.ts"
import { fakePspEntry } from "../packages/providers/test/support/FakePspEntry.ts"
import { cancelOpenCharges, ChargeOpenedMeanwhile, closingThenCanceling } from "../packages/core/src/subscriptions/CancelSubscription.ts"
import { makeTestPki, MERCHANT_CNPJ } from "../packages/providers/test/support/TestCertificates.ts"
import { startEngine, type TestEngine } from "./support/Engine.ts"
import { startReceiver } from "./support/Receiver.ts"

const PSP = "fake-bcb"
const SECOND = "fake-efi"

describe("production Pix through a PSP", () => {
  const pki = makeTestPki()
  let fake: FakePsp
  let second: FakePsp
  let engine: TestEngine
  beforeAll(async () => {
    fake = await startFakePsp(pki, { profile: "bcb", pixKey: MERCHANT_CNPJ })
    second = await startFakePsp(pki, { profile: "efi", pixKey: MERCHANT_CNPJ })
    const providers: ProvidersConfig = { publicUrl: "http://127.0.0.1", pix: [fakePspEntry(pki, fake, { name: PSP, profile: "bcb" }), fakePspEntry(pki, second, { name: SECOND, profile: "efi" })] }
    engine = await startEngine("postgres", { providers })
  })
  afterAll(async () => {
    await engine?.dispose()
    await fake?.close()
    await second?.close()
  })

  const sql = <A extends object>(query: string) => engine.run(Effect.flatMap(SqlClient.SqlClient, (s) => s.unsafe<A>(query)))
  const merchant = async () => {
    const production = await engine.createAccount({ sandbox: false })
    const headers = { authorization: `Bearer ${await engine.token(production)}`, "content-type": "application/json" }
    return (path: string, init: RequestInit = {}) => fetch(`${engine.baseUrl}${path}`, { ...init, headers })
  }
  /** A monthly plan of the merchant `call` acts for; subscribing to it by Pix answers its first cycle's charge and txid at the PSP. */
  const monthlyPlan = async (call: Awaited<ReturnType<typeof merchant>>) => {
    const product = await (await call("/v1/products", {
      method: "POST",
      body: JSON.stringify({ name: "Plano", type: "RECURRING", prices: [{ title: "Mensal", amount: 29.9, recurrenceType: "MONTHLY", recurrenceInterval: 1 }] })
    })).json()
    const customer = { name: "Ana Souza", email: "ana@example.com", documentNumber: "52998224725" }
    return async () => {
      const { chargeId, subscriptionId } = await (await call("/v1/charges", {
        method: "POST",
        body: JSON.stringify({ paymentMethod: "pix", customer, items: [{ priceId: product.prices[0].priceId }] })
      })).json()
      const detail = await (await call(`/v1/charges/${chargeId}?view=detail`)).json()
      return { chargeId: chargeId as ChargeId, subscriptionId: subscriptionId as SubscriptionId, pspTxid: `BLNG${detail.pix.txid}` }
    }
  }

  it("registers the charge at the PSP, and its callback pays it once, with the PSP's end-to-end id in payment.success", async () => {
    const call = await merchant()
    const receiver = await startReceiver()
    const hook = await (await call("/v1/users/webhooks", { method: "POST", body: JSON.stringify({ url: receiver.url, events: ["payment.success"] }) })).json()

    const created = await call("/v1/charges/pix", { method: "POST", body: JSON.stringify({ amount: 12.34 }) })
    expect(created.status).toBe(200)
    const { chargeId, emv } = await created.json()
    const detail = await (await call(`/v1/charges/${chargeId}?view=detail`)).json()
    expect(detail.pix.psp).toBe(PSP)
    // The PSP holds the charge under our txid behind its prefix, for the amount asked; the code is the PSP's own.
    const cob = fake.book.cobs.get(`BLNG${detail.pix.txid}`)!
    expect(cob.request.valor.original).toBe("12.34")
    const code = parsePix(emv) as { type: string; url?: string }
    expect(code.type).toBe("DYNAMIC")
    expect(code.url).toBe(cob.location)

    const endToEndId = fake.pay(`BLNG${detail.pix.txid}`)
    const received = fake.book.pix.find((pix) => pix.endToEndId === endToEndId)!
    const secret = await engine.run(callbackSecret(PSP))
    const callback = (path: string) =>
      fetch(`${engine.baseUrl}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ pix: [received, received] }) })

    expect((await callback(`/psp/pix/${PSP}/${"0".repeat(secret.length)}/pix`)).status).toBe(404)
    expect((await (await call(`/v1/charges/${chargeId}`)).json()).status).toBe("PENDING")

    expect((await callback(`/psp/pix/${PSP}/${secret}/pix`)).status).toBe(200)
    // The PSP repeats its callback: nothing moves twice.
    expect((await callback(`/psp/pix/${PSP}/${secret}/pix`)).status).toBe(200)
    const paid = await (await call(`/v1/charges/${chargeId}?view=detail`)).json()
    expect(paid).toMatchObject({ status: "PAID", pix: { endToEndId } })

    await engine.run(deliveryPass())
    const deliveries = receiver.received.filter((r) => JSON.parse(r.body).chargeId === chargeId)
    expect(deliveries).toHaveLength(1)
    const delivered = deliveries[0]!
    expect(await verifyWebhookSignature({ header: delivered.headers["x-webhook-signature"] as string, body: delivered.body, secret: hook.secret }))
      .toMatchObject({ valid: true })
    expect(JSON.parse(delivered.body)).toMatchObject({ event: "payment.success", chargeId, paymentId: endToEndId })
    expect(fake.violations).toEqual([])
    await receiver.close()
  })

  it("confirms by the reconciliation poll a Pix whose callback never came", async () => {
    const call = await merchant()
    const { chargeId } = await (await call("/v1/charges/pix", { method: "POST", body: JSON.stringify({ amount: 7.5 }) })).json()
    const detail = await (await call(`/v1/charges/${chargeId}?view=detail`)).json()
    const endToEndId = fake.pay(`BLNG${detail.pix.txid}`)
    expect((await (await call(`/v1/charges/${chargeId}`)).json()).status).toBe("PENDING")
    const report = await engine.run(pollReceivedPix())
    expect(report.outcomes.confirmed).toBe(1)
    expect(await (await call(`/v1/charges/${chargeId}?view=detail`)).json()).toMatchObject({ status: "PAID", pix: { endToEndId } })
    // The next poll sees it again with every other Pix of the window, and takes each as the repeat it is.
    const received = fake.book.pix.length + second.book.pix.length
    expect(received).toBeGreaterThan(0)
    expect((await engine.run(pollReceivedPix())).outcomes).toMatchObject({ confirmed: 0, duplicate: received })
  })

  it("asks the PSP before it expires a Pix past its deadline: one paid without a callback is confirmed, one unpaid is taken off sale, then expired", async () => {
    const call = await merchant()
    const create = async (amount: number) => {
      const { chargeId } = await (await call("/v1/charges/pix", { method: "POST", body: JSON.stringify({ amount }) })).json()
      const detail = await (await call(`/v1/charges/${chargeId}?view=detail`)).json()
      expect(detail.pix.psp).toBe(PSP)
      return { chargeId, pspTxid: `BLNG${detail.pix.txid}` }
    }
    const status = async (chargeId: string) => (await (await call(`/v1/charges/${chargeId}`)).json()).status
    const paid = await create(31.1)
    const unpaid = await create(31.2)
    // Paid at the PSP before its deadline; its callback never came and no poll ran since.
    const endToEndId = fake.pay(paid.pspTxid)
    // Both deadlines pass, the paid one's first (the expiry asks in deadline order); both were last touched two minutes ago,
    // so no lease holds them.
    const pastDeadline = () =>
      sql(`UPDATE charges SET expires_at = now() - CASE id WHEN '${paid.chargeId}' THEN interval '2 seconds' ELSE interval '1 second' END,
        updated_at = now() - interval '2 minutes' WHERE id IN ('${paid.chargeId}', '${unpaid.chargeId}')`)
    await pastDeadline()

    // The PSP cannot be asked about the paid one (it refuses that read): it stays open rather than strand its Pix. The unpaid
    // one is taken off sale at the PSP, then expired here: no payer can pay it any more.
    fake.force({ kind: "problem", answer: problem(403, "AcessoNegado", "Acesso negado.") })
    expect(await engine.run(Billing.expireDueCharges(100))).toBe(1)
    expect([await status(paid.chargeId), await status(unpaid.chargeId)]).toEqual(["PENDING", "EXPIRED"])
    expect(fake.book.cobs.get(unpaid.pspTxid)!.status).toBe("REMOVIDA_PELO_USUARIO_RECEBEDOR")

    // Its lease over, the next pass reads it concluded at the PSP and confirms it with the Pix the PSP lists.
    await pastDeadline()
    expect(await engine.run(Billing.expireDueCharges(100))).toBe(1)
    expect(await (await call(`/v1/charges/${paid.chargeId}?view=detail`)).json()).toMatchObject({ status: "PAID", pix: { endToEndId, psp: PSP } })
    const events = await sql<{ event: string; body: string }>(`SELECT event, body FROM outbox WHERE body LIKE '%${paid.chargeId}%' OR body LIKE '%${unpaid.chargeId}%' ORDER BY id`)
    expect(events.map((e) => [e.event, JSON.parse(e.body).chargeId])).toEqual([["charge.expired", unpaid.chargeId], ["payment.success", paid.chargeId]])
    // The poll that comes later finds the Pix already taken.
    expect((await engine.run(pollReceivedPix())).outcomes.chargeNotOpen).toBe(0)
    expect(fake.violations).toEqual([])
  })

  it("takes a charge's Pix off sale at the PSP before it cancels the charge, and refuses the cancel of one paid there without a callback", async () => {
    const call = await merchant()
    const create = async (amount: number) => {
      const { chargeId } = await (await call("/v1/charges/pix", { method: "POST", body: JSON.stringify({ amount }) })).json()
      const detail = await (await call(`/v1/charges/${chargeId}?view=detail`)).json()
      return { chargeId, pspTxid: `BLNG${detail.pix.txid}` }
    }
    const cancel = async (chargeId: string) => {
      const answer = await call(`/v1/charges/${chargeId}`, { method: "DELETE" })
      return { status: answer.status, body: await answer.json() }
    }
    const paid = await create(41.1)
    const unpaid = await create(41.2)
    const endToEndId = fake.pay(paid.pspTxid)

    const refused = await cancel(paid.chargeId)
    expect(refused.status).toBe(400)
    expect(refused.body.error).toMatchObject({ code: "CHARGE_NOT_CANCELABLE", details: { status: "PAID", provider: "pix", reason: "PIX_PAID" } })
    expect(await (await call(`/v1/charges/${paid.chargeId}?view=detail`)).json()).toMatchObject({ status: "PAID", pix: { endToEndId } })

    // The PSP cannot be asked: the charge stays open, and payable, as it was.
    fake.force({ kind: "problem", answer: problem(403, "AcessoNegado", "Acesso negado.") })
    const unreachable = await cancel(unpaid.chargeId)
    expect(unreachable.status).toBe(502)
    expect(unreachable.body.error).toMatchObject({ code: "PROVIDER_UNAVAILABLE", details: { provider: "pix" } })
    expect((await (await call(`/v1/charges/${unpaid.chargeId}`)).json()).status).toBe("PENDING")
    expect(fake.book.cobs.get(unpaid.pspTxid)!.status).toBe("ATIVA")

    expect((await cancel(unpaid.chargeId)).status).toBe(200)
    expect((await (await call(`/v1/charges/${unpaid.chargeId}`)).json()).status).toBe("CANCELED")
    expect(fake.book.cobs.get(unpaid.pspTxid)!.status).toBe("REMOVIDA_PELO_USUARIO_RECEBEDOR")
    expect(fake.violations).toEqual([])
  })

  it("takes a subscription's open Pix off sale at the PSP before it cancels the subscription: a cycle paid there without a callback stays paid", async () => {
    const call = await merchant()
    const subscribe = await monthlyPlan(call)
    const cancel = async (subscriptionId: string) => {
      const answer = await call(`/v1/subscriptions/${subscriptionId}`, { method: "DELETE" })
      return { status: answer.status, body: await answer.json() }
    }
    const chargeStatus = async (chargeId: string) => (await (await call(`/v1/charges/${chargeId}`)).json()).status
    const paid = await subscribe()
    const unpaid = await subscribe()
    // The buyer paid at once; the PSP's callback never came, and no poll ran since.
    const endToEndId = fake.pay(paid.pspTxid)

    expect(await cancel(paid.subscriptionId)).toMatchObject({ status: 200, body: { status: "CANCELED" } })
    expect(await (await call(`/v1/charges/${paid.chargeId}?view=detail`)).json()).toMatchObject({ status: "PAID", pix: { endToEndId } })
    const events = await sql<{ event: string; body: string }>(`SELECT event, body FROM outbox WHERE body LIKE '%${paid.subscriptionId}%' ORDER BY id`)
    expect(events.map((e) => e.event)).toContain("payment.success")
    expect(events.map((e) => e.event).at(-1)).toBe("subscription.canceled")

    // The PSP cannot be asked: nothing is canceled, the cycle's Pix stays payable.
    fake.force({ kind: "problem", answer: problem(403, "AcessoNegado", "Acesso negado.") })
    expect(await cancel(unpaid.subscriptionId)).toMatchObject({ status: 502, body: { error: { code: "PROVIDER_UNAVAILABLE", details: { provider: "pix" } } } })
    expect((await (await call(`/v1/subscriptions/${unpaid.subscriptionId}`)).json()).status).not.toBe("CANCELED")
    expect(await chargeStatus(unpaid.chargeId)).toBe("PENDING")

    expect(await cancel(unpaid.subscriptionId)).toMatchObject({ status: 200, body: { status: "CANCELED" } })
    expect(await chargeStatus(unpaid.chargeId)).toBe("CANCELED")
    expect(fake.book.cobs.get(unpaid.pspTxid)!.status).toBe("REMOVIDA_PELO_USUARIO_RECEBEDOR")
    // The Pix the poll finds later is the one already taken: none arrives for a canceled charge.
    expect((await engine.run(pollReceivedPix())).outcomes.chargeNotOpen).toBe(0)
    expect(fake.violations).toEqual([])
  })

  it("never cancels, in a subscription's cancel, a Pix not closed at its PSP first: the transaction rolls back and the cancel starts over", async () => {
    const call = await merchant()
    const { chargeId, subscriptionId, pspTxid } = await (await monthlyPlan(call))()
    const [{ accountId }] = await sql<{ accountId: AccountId }>(`SELECT account_id AS "accountId" FROM subscriptions WHERE id = '${subscriptionId}'`)
    const at = new Date()
    const cancelOpen = (closed: ReadonlySet<ChargeId>) => Effect.flatMap(Transactor, (t) => t.withTransaction(cancelOpenCharges(subscriptionId, closed, at)))
    // The cycle's Pix opened after the closing, which closed nothing: refused, and nothing canceled.
    const refused = await engine.run(Effect.flip(cancelOpen(new Set())))
    expect(refused).toMatchObject({ _tag: "ChargeOpenedMeanwhile", chargeId })
    expect((await (await call(`/v1/charges/${chargeId}`)).json()).status).toBe("PENDING")
    // Through the whole cancel: its first transaction meets a charge opened meanwhile; the second closes it at the PSP, then cancels it.
    let attempts = 0
    const canceled = await engine.run(closingThenCanceling(accountId, subscriptionId, (closed) =>
      ++attempts === 1 ? Effect.fail(new ChargeOpenedMeanwhile({ chargeId })) : Effect.flatMap(Transactor, (t) => t.withTransaction(cancelOpenCharges(subscriptionId, closed, at)))))
    expect(attempts).toBe(2)
    expect(canceled.map((charge) => charge.id)).toEqual([chargeId])
    expect(fake.book.cobs.get(pspTxid)!.status).toBe("REMOVIDA_PELO_USUARIO_RECEBEDOR")
  })

  it("reconciles each production account with its own part of the PSPs' statements, which list every merchant's Pix", async () => {
    const [first, other] = [await merchant(), await merchant()]
    const payCharge = async (call: typeof first, amount: number) => {
      const { chargeId } = await (await call("/v1/charges/pix", { method: "POST", body: JSON.stringify({ amount }) })).json()
      const detail = await (await call(`/v1/charges/${chargeId}?view=detail`)).json()
      return fake.pay(`BLNG${detail.pix.txid}`)
    }
    await payCharge(first, 3.21)
    await payCharge(other, 4.32)
    // A Pix to the operator's key that paid no charge: nobody's in particular.
    fake.receive("9.99", new Date())
    await engine.run(pollReceivedPix())
    const report = await (await first("/v1/wallet/reconciliation")).json()
    expect(report).toMatchObject({ reconciled: true, matched: 1, missingInLedger: [], missingInProvider: [], differing: [] })
    expect(report.provider).toEqual({ count: 1, credits: 3.21, debits: 0 })
    expect(report.ledger).toEqual({ count: 1, credits: 3.21, debits: 0 })
    expect((await (await other("/v1/wallet/reconciliation")).json())).toMatchObject({ reconciled: true, matched: 1, provider: { count: 1, credits: 4.32 } })
  })

  it("takes a charge to the second PSP while the first is down, and refunds it there", async () => {
    const call = await merchant()
    const down = { kind: "status", status: 503 } as const
    fake.force(down, down)
    const { chargeId } = await (await call("/v1/charges/pix", { method: "POST", body: JSON.stringify({ amount: 20 }) })).json()
    const detail = await (await call(`/v1/charges/${chargeId}?view=detail`)).json()
    expect(detail.pix.psp).toBe(SECOND)
    expect(second.book.cobs.has(`BLNG${detail.pix.txid}`)).toBe(true)
    expect(fake.book.cobs.has(`BLNG${detail.pix.txid}`)).toBe(false)

    const endToEndId = second.pay(`BLNG${detail.pix.txid}`)
    expect((await engine.run(pollReceivedPix())).outcomes.confirmed).toBe(1)
    const refund = await (await call("/v1/wallet/refunds", { method: "POST", body: JSON.stringify({ endToEndId, amount: 5, reason: "CUSTOMER_REQUEST" }) })).json()
    expect(refund.status).toBe("PROCESSING")
    await engine.run(drain(workerJob("refunds")))
    const returned = second.book.pix.find((pix) => pix.endToEndId === endToEndId)!.devolucoes
    expect(returned.map((d) => d.valor)).toEqual(["5.00"])
    const done = await (await call(`/v1/wallet/refunds?refundId=${refund.refundId}`)).json()
    expect(done.status).toBe("CONFIRMED")
    expect(fake.violations).toEqual([])
    expect(second.violations).toEqual([])
  })

  it("records the PSP that received the Pix, and refunds there, when a charge that moved on is paid at the first PSP's copy", async () => {
    const call = await merchant()
    const down = { kind: "status", status: 503 } as const
    fake.force(down, down)
    const { chargeId } = await (await call("/v1/charges/pix", { method: "POST", body: JSON.stringify({ amount: 15 }) })).json()
    const detail = await (await call(`/v1/charges/${chargeId}?view=detail`)).json()
    expect(detail.pix.psp).toBe(SECOND)
    // The first PSP had registered it after all, and its copy is what the payer paid.
    const endToEndId = fake.receive("15.00", new Date(), `BLNG${detail.pix.txid}`)
    expect((await engine.run(pollReceivedPix())).outcomes.confirmed).toBe(1)
    expect(await (await call(`/v1/charges/${chargeId}?view=detail`)).json()).toMatchObject({ status: "PAID", pix: { endToEndId, psp: PSP } })
    // Its money is at the first PSP: the devolução goes there, not to the PSP the charge was created at.
    const refund = await (await call("/v1/wallet/refunds", { method: "POST", body: JSON.stringify({ endToEndId, amount: 15, reason: "CUSTOMER_REQUEST" }) })).json()
    await engine.run(drain(workerJob("refunds")))
    expect((await (await call(`/v1/wallet/refunds?refundId=${refund.refundId}`)).json()).status).toBe("CONFIRMED")
    expect(fake.book.pix.find((pix) => pix.endToEndId === endToEndId)!.devolucoes.map((d) => d.valor)).toEqual(["15.00"])
  })

  it("returns a Pix within 90 days of its settlement, and refuses a later refund before anything moves, as no PSP would return it", async () => {
    const call = await merchant()
    const secret = await engine.run(callbackSecret(PSP))
    const DAY = 24 * 60 * 60 * 1000
    /** A charge paid by a Pix the PSP settled `daysAgo` days ago, its callback only now. */
    const paidDaysAgo = async (daysAgo: number) => {
      const { chargeId } = await (await call("/v1/charges/pix", { method: "POST", body: JSON.stringify({ amount: 40 }) })).json()
      const detail = await (await call(`/v1/charges/${chargeId}?view=detail`)).json()
      const endToEndId = fake.receive("40.00", new Date(Date.now() - daysAgo * DAY), `BLNG${detail.pix.txid}`)
      const received = fake.book.pix.find((pix) => pix.endToEndId === endToEndId)!
      await fetch(`${engine.baseUrl}/psp/pix/${PSP}/${secret}/pix`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ pix: [received] }) })
      expect(await (await call(`/v1/charges/${chargeId}`)).json()).toMatchObject({ status: "PAID", paidAt: received.horario })
      return { chargeId, endToEndId, received }
    }
    const refundOf = (endToEndId: string) => call("/v1/wallet/refunds", { method: "POST", body: JSON.stringify({ endToEndId, amount: 40, reason: "CUSTOMER_REQUEST" }) })
    const balance = async () => (await (await call("/v1/wallet/balance")).json())

    const late = await paidDaysAgo(91)
    const before = await balance()
    const refused = await refundOf(late.endToEndId)
    expect(refused.status).toBe(400)
    const body = await refused.json()
    expect(body.error).toMatchObject({ code: "CHARGE_NOT_REFUNDABLE", details: { paidAt: late.received.horario } })
    // 90 days of 24 hours after the settlement, worked out apart from the engine.
    expect(body.error.details.returnableUntil).toBe(new Date(Date.parse(late.received.horario) + 90 * DAY).toISOString())
    expect(await sql(`SELECT id FROM refunds WHERE charge_id = '${late.chargeId}'`)).toEqual([])
    expect(await balance()).toEqual(before)
    expect(late.received.devolucoes).toEqual([])

    // Inside the window the devolução is made, and today's statement at the PSP lists it beside our books.
    const inTime = await paidDaysAgo(89)
    const refund = await (await refundOf(inTime.endToEndId)).json()
    await engine.run(drain(workerJob("refunds")))
    expect((await (await call(`/v1/wallet/refunds?refundId=${refund.refundId}`)).json()).status).toBe("CONFIRMED")
    expect(inTime.received.devolucoes.map((d) => d.valor)).toEqual(["40.00"])
    expect(await (await call("/v1/wallet/reconciliation")).json()).toMatchObject({ reconciled: true, missingInLedger: [], missingInProvider: [], differing: [] })
  })

  it("posts a devolução settled before its answer came at the PSP's settlement instant, the day the PSP's statement lists it", async () => {
    const call = await merchant()
    const { chargeId } = await (await call("/v1/charges/pix", { method: "POST", body: JSON.stringify({ amount: 30 }) })).json()
    const detail = await (await call(`/v1/charges/${chargeId}?view=detail`)).json()
    const endToEndId = fake.pay(`BLNG${detail.pix.txid}`)
    await engine.run(pollReceivedPix())
    // The PSP takes the devolução and answers it only later: still processing when the worker first asks.
    fake.outcomes.devolucoes.push("EM_PROCESSAMENTO")
    const refund = await (await call("/v1/wallet/refunds", { method: "POST", body: JSON.stringify({ endToEndId, amount: 10, reason: "CUSTOMER_REQUEST" }) })).json()
    await engine.run(drain(workerJob("refunds")))
    const devolucao = fake.book.pix.find((pix) => pix.endToEndId === endToEndId)!.devolucoes[0]!
    expect(devolucao.status).toBe("EM_PROCESSAMENTO")
    // Settled by the SPI three minutes ago; the worker hears of it now.
    const settledAt = new Date(Math.floor(Date.now() / 1000) * 1000 - 180_000)
    devolucao.status = "DEVOLVIDO"
    devolucao.liquidacao = settledAt.toISOString()
    await sql(`UPDATE refunds SET claimed_until = now() - interval '1 second' WHERE id = '${refund.refundId}'`)
    await engine.run(drain(workerJob("refunds")))
    expect((await (await call(`/v1/wallet/refunds?refundId=${refund.refundId}`)).json()).status).toBe("CONFIRMED")
    const [entry] = await sql<{ at: Date }>(`SELECT created_at AS at FROM ledger_entries WHERE kind = 'REFUND_SETTLED' AND reference_id = '${refund.refundId}'`)
    expect(entry!.at.toISOString()).toBe(settledAt.toISOString())
  })
})
