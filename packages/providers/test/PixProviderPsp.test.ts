/**
 * The PSP adapter's contract, run under every profile against the fake PSP
 * (mutual TLS, books in memory, every message checked against the BCB
 * OpenAPI): tokens, charges and their BR Codes, retries and the errors that
 * are not retried, refunds, the statement, the webhook, payouts. Expected
 * values come from the test's own inputs and the fake's books, never from
 * the adapter.
 */
import { assert, it } from "@effect/vitest"
import { cents, type PixProvider } from "@billing/core"
import { Effect } from "effect"
import { hasError, parsePix } from "pix-utils"
import { Agent, request } from "undici"
import { afterAll, afterEach, beforeAll, describe, expect } from "vitest"
import type { PixPsp } from "../src/config/ProvidersConfig.ts"
import { makePixApiClient, type PixApiClient } from "../src/pix/PixApiClient.ts"
import { type PspProfileName, PspProfileNames } from "../src/pix/PixProfiles.ts"
import { makePixProviderPsp } from "../src/pix/PixProviderPsp.ts"
import type { PspProblem } from "../src/pix/PspErrors.ts"
import { problem } from "./support/FakePspBook.ts"
import { type FakePsp, startFakePsp } from "./support/FakePsp.ts"
import { fakePspEntry } from "./support/FakePspEntry.ts"
import { newEngineTxid, receiver, registration } from "./support/PixRegistrations.ts"
import { makeTestPki, MERCHANT_CNPJ } from "./support/TestCertificates.ts"

const pki = makeTestPki()
const PIX_KEY = MERCHANT_CNPJ
const APP_KEY = "app-key-1"
/** Short enough for a test, long enough for the fake on a busy machine. */
const FAST = { requestTimeout: "1 second", retries: 3, retryBackoff: "5 millis" } as const

describe.each(PspProfileNames)("the PSP adapter under the %s profile", (profile: PspProfileName) => {
  let fake: FakePsp
  beforeAll(async () => {
    fake = await startFakePsp(pki, { profile, pixKey: PIX_KEY, appKey: profile === "bb" ? APP_KEY : undefined, pageSize: 2 })
  })
  afterAll(() => fake.close())
  // Both sides kept the BCB contract in every test.
  afterEach(() => {
    expect(fake.violations.splice(0)).toEqual([])
    fake.takeCalls()
  })

  const psp = (): PixPsp => fakePspEntry(pki, fake, { name: `fake-${profile}`, profile, ...(profile === "bb" ? { appKey: APP_KEY } : {}) })
  const withClient = <A, E>(use: (api: PixApiClient) => Effect.Effect<A, E>) => Effect.scoped(Effect.flatMap(makePixApiClient(psp(), FAST), use))
  const withProvider = <A, E>(use: (provider: PixProvider["Service"]) => Effect.Effect<A, E>) => Effect.scoped(Effect.flatMap(makePixProviderPsp(psp(), FAST), use))
  const callsOf = () => fake.takeCalls().map((call) => `${call.method} ${call.path}`)

  it.live("caches the token across calls and refreshes it once on a 401", () =>
    withClient((api) =>
      Effect.gen(function*() {
        const before = fake.tokenRequests()
        const first = newEngineTxid()
        yield* api.createCob(`BLNG${first}`, { calendario: { expiracao: 600 }, valor: { original: "1.00" }, chave: PIX_KEY })
        yield* api.getCob(`BLNG${first}`)
        assert.strictEqual(fake.tokenRequests() - before, 1)
        fake.revoke(fake.issued.at(-1)!)
        const found = yield* api.getCob(`BLNG${first}`)
        assert.strictEqual(found.txid, `BLNG${first}`)
        assert.strictEqual(fake.tokenRequests() - before, 2)
        const calls = fake.takeCalls()
        assert.deepStrictEqual(calls.map((call) => `${call.method} ${call.path}`), [`PUT /cob/BLNG${first}`, `GET /cob/BLNG${first}`, `GET /cob/BLNG${first}`, `GET /cob/BLNG${first}`])
        // BB's application key on every call, and no other profile's.
        for (const call of calls) assert.strictEqual(call.query.get("gw-dev-app-key"), profile === "bb" ? APP_KEY : null)
      })
    ))

  it.live("reports a 401 to the refreshed token as the PSP refusing the credentials, after one refresh", () =>
    withClient((api) =>
      Effect.gen(function*() {
        const denied = problem(401, "AcessoNegado", "Token inválido.")
        fake.force({ kind: "problem", answer: denied }, { kind: "problem", answer: denied })
        const before = fake.tokenRequests()
        const txid = `BLNG${newEngineTxid()}`
        const error = yield* Effect.flip(api.getCob(txid))
        expect(error).toMatchObject({ _tag: "PspProblem", status: 401 })
        expect(error.message).toContain("answered 401 to a token it had just issued")
        assert.strictEqual(fake.tokenRequests() - before, 2)
        assert.deepStrictEqual(callsOf(), [`GET /cob/${txid}`, `GET /cob/${txid}`])
      })
    ))

  it.live("is refused by the PSP without a client certificate", () =>
    Effect.gen(function*() {
      const before = fake.refusedHandshakes()
      const agent = new Agent({ connect: { ca: pki.caPem, rejectUnauthorized: true } })
      const failed = yield* Effect.promise(() =>
        request(`${fake.baseUrl}/cob/BLNG${newEngineTxid()}`, { dispatcher: agent }).then(() => false, () => true).finally(() => agent.close())
      )
      assert.isTrue(failed)
      assert.isAbove(fake.refusedHandshakes(), before)
      assert.deepStrictEqual(callsOf(), [])
    }))

  it.live("creates a cob whose BR Code decodes to the PSP's location", () =>
    withProvider((provider) =>
      Effect.gen(function*() {
        const charge = registration({ description: "Pedido 42" })
        const { emv } = yield* provider.createCharge(charge)
        const cob = fake.book.cobs.get(`BLNG${charge.txid}`)!
        assert.strictEqual(cob.kind, "cob")
        assert.deepStrictEqual(cob.request.valor, { original: "12.34" })
        assert.strictEqual(cob.request.chave, PIX_KEY)
        assert.strictEqual(cob.request.solicitacaoPagador, "Pedido 42")
        // An hour from now, give or take the time the call took.
        assert.isAtLeast(cob.request.calendario.expiracao, 3590)
        assert.isAtMost(cob.request.calendario.expiracao, 3600)
        const decoded = parsePix(emv)
        assert.isFalse(hasError(decoded))
        expect(decoded).toMatchObject({ type: "DYNAMIC", url: cob.location })
        assert.strictEqual(emv, cob.pixCopiaECola)
      })
    ))

  it.live("creates a cobv due on the charge's date with its payer as devedor, payable as long as the charge, and refuses one without a payer", () =>
    withProvider((provider) =>
      Effect.gen(function*() {
        // Payable three days after its due date: the charge expires at the end of 18 January in São Paulo (03:00 UTC the next day, less a second).
        const expiresAt = new Date("2030-01-19T02:59:59.999Z")
        const charge = { ...registration({ dueDate: "2030-01-15", expiresAt }), payer: { name: "Maria Pagadora", document: "529.982.247-25" } }
        const { emv } = yield* provider.createCharge(charge)
        const cobv = fake.book.cobs.get(`BLNG${charge.txid}`)!
        assert.strictEqual(cobv.kind, "cobv")
        assert.deepStrictEqual(cobv.request.calendario, { dataDeVencimento: "2030-01-15", validadeAposVencimento: 3 })
        assert.deepStrictEqual(cobv.request.devedor, { cpf: "52998224725", nome: "Maria Pagadora" })
        assert.strictEqual((parsePix(emv) as { url: string }).url, cobv.location)
        fake.takeCalls()
        const refused = yield* Effect.flip(provider.createCharge(registration({ dueDate: "2030-01-15" })))
        assert.include(refused.message, "payer")
        assert.deepStrictEqual(callsOf(), [])
      })
    ))

  it.live("closes a charge past its deadline: a paid cob answers its Pix, an open cobv is taken off sale, one the PSP never held is closed", () =>
    withProvider((provider) =>
      Effect.gen(function*() {
        const paid = registration()
        yield* provider.createCharge(paid)
        const endToEndId = fake.pay(`BLNG${paid.txid}`)
        fake.takeCalls()
        const closing = yield* provider.closeCharge({ receiver, psp: `fake-${profile}`, txid: paid.txid, dueDate: null })
        assert.strictEqual(closing._tag, "Paid")
        const [pix] = closing._tag === "Paid" ? closing.pix : []
        // The Pix the PSP lists, in the engine's terms: its own txid, the amount in centavos, the PSP that took it.
        assert.deepInclude(pix, { txid: paid.txid, endToEndId, amount: cents(1234), psp: `fake-${profile}` })
        // Concluded: read, never removed.
        assert.deepStrictEqual(callsOf(), [`GET /cob/BLNG${paid.txid}`])

        const open = { ...registration({ dueDate: "2030-01-15", expiresAt: new Date("2030-01-16T02:59:59.999Z") }), payer: { name: "Maria Pagadora", document: "529.982.247-25" } }
        yield* provider.createCharge(open)
        fake.takeCalls()
        assert.deepStrictEqual(yield* provider.closeCharge({ receiver, psp: `fake-${profile}`, txid: open.txid, dueDate: "2030-01-15" }), { _tag: "Closed" })
        assert.strictEqual(fake.book.cobs.get(`BLNG${open.txid}`)!.status, "REMOVIDA_PELO_USUARIO_RECEBEDOR")
        assert.deepStrictEqual(callsOf(), [`GET /cobv/BLNG${open.txid}`, `PATCH /cobv/BLNG${open.txid}`])
        // Asked again (a worker died before expiring it): the same answer, nothing removed twice.
        assert.deepStrictEqual(yield* provider.closeCharge({ receiver, psp: `fake-${profile}`, txid: open.txid, dueDate: "2030-01-15" }), { _tag: "Closed" })
        assert.deepStrictEqual(callsOf(), [`GET /cobv/BLNG${open.txid}`])

        assert.deepStrictEqual(yield* provider.closeCharge({ receiver, psp: `fake-${profile}`, txid: newEngineTxid(), dueDate: null }), { _tag: "Closed" })
      })
    ))

  it.live("repeats a PUT /cob that timed out with the same txid, and finds the one cob it made", () =>
    withProvider((provider) =>
      Effect.gen(function*() {
        const charge = registration()
        const txid = `BLNG${charge.txid}`
        fake.force({ kind: "timeout" })
        const { emv } = yield* provider.createCharge(charge)
        assert.deepStrictEqual(callsOf(), [`PUT /cob/${txid}`, `PUT /cob/${txid}`, `GET /cob/${txid}`])
        assert.deepStrictEqual([...fake.book.cobs.keys()].filter((key) => key === txid), [txid])
        assert.strictEqual(emv, fake.book.cobs.get(txid)!.pixCopiaECola)
      })
    ))

  it.live("turns a problem into a typed error with its type and correlationId, and does not repeat it", () =>
    withClient((api) =>
      Effect.gen(function*() {
        const forbidden = problem(403, "AcessoNegado", "Acesso negado.", "O escopo cob.write não foi concedido.")
        fake.force({ kind: "problem", answer: forbidden })
        const txid = `BLNG${newEngineTxid()}`
        const error = (yield* Effect.flip(api.createCob(txid, { calendario: { expiracao: 600 }, valor: { original: "1.00" }, chave: PIX_KEY }))) as PspProblem
        const sent = forbidden.body as { correlationId: string }
        assert.strictEqual(error._tag, "PspProblem")
        assert.strictEqual(error.psp, `fake-${profile}`)
        assert.strictEqual(error.status, 403)
        assert.strictEqual(error.type, "https://pix.bcb.gov.br/api/v2/error/AcessoNegado")
        assert.strictEqual(error.correlationId, sent.correlationId)
        assert.include(error.message, sent.correlationId)
        assert.deepStrictEqual(callsOf(), [`PUT /cob/${txid}`])
      })
    ))

  it.live("repeats a call answered 503 until the PSP is back", () =>
    withProvider((provider) =>
      Effect.gen(function*() {
        const charge = registration()
        fake.force({ kind: "status", status: 503 }, { kind: "status", status: 503 })
        yield* provider.createCharge(charge)
        assert.deepStrictEqual(callsOf(), Array(3).fill(`PUT /cob/BLNG${charge.txid}`))
      })
    ))

  it.live("refunds a Pix: DEVOLVIDO is paid with the rtrId, NAO_REALIZADO refused, EM_PROCESSAMENTO asked again by the same id", () =>
    withProvider((provider) =>
      Effect.gen(function*() {
        const charge = registration()
        yield* provider.createCharge(charge)
        const endToEndId = fake.pay(`BLNG${charge.txid}`)
        const ask = (reference: string, amount: number) => provider.returnPix({ account: receiver, psp: null, endToEndId, amount: cents(amount), reference, at: new Date() })
        const devolucoes = () => fake.book.pix.find((pix) => pix.endToEndId === endToEndId)!.devolucoes

        const paid = yield* ask("ref_0001", 200)
        // Settled at once: the answer carries the SPI's settlement instant; one settled later (below) is answered without it.
        assert.deepStrictEqual(paid, { _tag: "Paid", endToEndId: devolucoes()[0]!.rtrId, settledAt: new Date(devolucoes()[0]!.liquidacao!) })
        assert.deepStrictEqual(devolucoes().map((d) => [d.id, d.valor]), [["ref0001", "2.00"]])

        fake.outcomes.devolucoes.push("NAO_REALIZADO")
        assert.deepStrictEqual(yield* ask("ref_0002", 300), { _tag: "Refused", reason: "Conta do pagador encerrada" })

        fake.outcomes.devolucoes.push("EM_PROCESSAMENTO")
        assert.include((yield* Effect.flip(ask("ref_0003", 100))).message, "EM_PROCESSAMENTO")
        devolucoes()[2]!.status = "DEVOLVIDO"
        assert.deepStrictEqual(yield* ask("ref_0003", 100), { _tag: "Paid", endToEndId: devolucoes()[2]!.rtrId })
        assert.strictEqual(devolucoes().length, 3)
      })
    ))

  it.live("lists the statement over every page, from inclusive and to exclusive, returns included", () =>
    withProvider((provider) =>
      Effect.gen(function*() {
        const at = (time: string) => new Date(`2026-01-10T${time}Z`)
        const inside = ["10:00:00", "11:00:00", "12:00:00", "13:00:00", "23:59:59"].map((time, index) => fake.receive(`${index + 1}.00`, at(time)))
        fake.receive("9.00", new Date("2026-01-11T00:00:00Z"))
        fake.takeCalls()
        const entries = yield* provider.statement({ account: receiver, from: at("00:00:00"), to: new Date("2026-01-11T00:00:00Z") })
        // Pix sent to the key, paying no charge of ours: no txid of the engine's.
        assert.deepStrictEqual(entries, inside.map((endToEndId, index) => ({ endToEndId, direction: "CREDIT", amount: cents((index + 1) * 100), at: at(["10:00:00", "11:00:00", "12:00:00", "13:00:00", "23:59:59"][index]!), txid: null })))
        // Six Pix within the PSP's inclusive window, two a page.
        assert.deepStrictEqual(callsOf(), ["GET /pix", "GET /pix", "GET /pix"])

        const recent = fake.receive("5.00", new Date(Date.now() - 60_000))
        yield* provider.returnPix({ account: receiver, psp: null, endToEndId: recent, amount: cents(150), reference: "ref_stmt", at: new Date() })
        const now = yield* provider.statement({ account: receiver, from: new Date(Date.now() - 120_000), to: new Date(Date.now() + 60_000) })
        const rtrId = fake.book.pix.find((pix) => pix.endToEndId === recent)!.devolucoes[0]!.rtrId
        assert.deepStrictEqual(now.filter((entry) => entry.endToEndId === recent || entry.endToEndId === rtrId).map((entry) => [entry.direction, entry.amount]), [["CREDIT", 500], ["DEBIT", 150]])

        // A Pix paying one of our charges, and its devolução, name that charge's txid (the PSP lists every merchant's Pix).
        const charge = registration()
        yield* provider.createCharge(charge)
        const paid = fake.pay(`BLNG${charge.txid}`)
        yield* provider.returnPix({ account: receiver, psp: null, endToEndId: paid, amount: cents(100), reference: "ref_cob", at: new Date() })
        const cobRtrId = fake.book.pix.find((pix) => pix.endToEndId === paid)!.devolucoes[0]!.rtrId
        const ofCharge = yield* provider.statement({ account: receiver, from: new Date(Date.now() - 120_000), to: new Date(Date.now() + 60_000) })
        assert.deepStrictEqual(ofCharge.filter((entry) => entry.endToEndId === paid || entry.endToEndId === cobRtrId).map((entry) => [entry.direction, entry.txid]), [["CREDIT", charge.txid], ["DEBIT", charge.txid]])

        // A devolução of today for a Pix of three days ago is today's debit, and that Pix is no credit of today.
        const older = fake.receive("7.00", new Date(Date.now() - 3 * 86_400_000))
        yield* provider.returnPix({ account: receiver, psp: null, endToEndId: older, amount: cents(250), reference: "ref_late", at: new Date() })
        const lateRtrId = fake.book.pix.find((pix) => pix.endToEndId === older)!.devolucoes[0]!.rtrId
        const today = yield* provider.statement({ account: receiver, from: new Date(Date.now() - 120_000), to: new Date(Date.now() + 60_000) })
        assert.deepStrictEqual(today.filter((entry) => entry.endToEndId === older || entry.endToEndId === lateRtrId).map((entry) => [entry.direction, entry.amount]), [["DEBIT", 250]])
      })
    ))

  it.live("registers the webhook for the receiving key, and removes a cob", () =>
    withClient((api) =>
      Effect.gen(function*() {
        const url = `https://billing.example.com/psp/pix/fake-${profile}/s3cr3t`
        yield* api.registerWebhook(url)
        assert.strictEqual(fake.book.webhooks.get(PIX_KEY), url)
        const txid = `BLNG${newEngineTxid()}`
        yield* api.createCob(txid, { calendario: { expiracao: 600 }, valor: { original: "1.00" }, chave: PIX_KEY })
        const removed = yield* api.removeCob(txid)
        assert.strictEqual(removed.status, "REMOVIDA_PELO_USUARIO_RECEBEDOR")
        assert.strictEqual(fake.book.cobs.get(txid)!.status, "REMOVIDA_PELO_USUARIO_RECEBEDOR")
      })
    ))

  it.live(profile === "efi" ? "pays out through Efí's send-Pix route, once per withdrawal" : "refuses payouts: the profile has no send-Pix route", () =>
    withProvider((provider) =>
      Effect.gen(function*() {
        const payout = { account: receiver, reference: "wdr_0001", amount: cents(2500), key: { type: "EMAIL" as const, value: "fornecedor@example.com" }, at: new Date() }
        if (profile !== "efi") {
          const refused = yield* Effect.flip(provider.payOut(payout))
          assert.include(refused.message, `the ${profile} profile has no route for sending Pix`)
          return assert.deepStrictEqual(callsOf(), [])
        }
        assert.include((yield* Effect.flip(provider.payOut(payout))).message, "EM_PROCESSAMENTO")
        const sent = fake.book.sent.get("wdr0001")!
        assert.deepStrictEqual([sent.valor, sent.chave], ["25.00", "fornecedor@example.com"])
        sent.status = "REALIZADO"
        assert.deepStrictEqual(yield* provider.payOut(payout), { _tag: "Paid", endToEndId: sent.e2eId })
        assert.strictEqual(fake.book.sent.size, 1)
      })
    ))

  it.live("refuses what the standard does not offer, naming it", () =>
    withProvider((provider) =>
      Effect.gen(function*() {
        const lookup = yield* Effect.flip(provider.lookupKey(receiver, { type: "EMAIL", value: "a@example.com" }))
        assert.include(lookup.message, "lookupKey is not supported")
        const recurrence = yield* Effect.flip(provider.createRecurrence(registration()))
        assert.include(recurrence.message, "createRecurrence is not supported")
        const request = yield* Effect.flip(provider.requestRecurrence({ receiver, reference: "sub_1", amount: cents(100), at: new Date() }))
        assert.include(request.message, "requestRecurrence is not supported")
        assert.deepStrictEqual(callsOf(), [])
      })
    ))
})

describe("what a failover will read from a PSP that does not answer", () => {
  let fake: FakePsp
  beforeAll(async () => {
    fake = await startFakePsp(pki, { profile: "bcb", pixKey: PIX_KEY })
  })
  afterAll(() => fake.close())

  const pspAt = (baseUrl: string): PixPsp => fakePspEntry(pki, fake, { name: "fake-down", profile: "bcb", baseUrl })

  it.live("a refused connection is a definite failure: the request never arrived", () =>
    Effect.scoped(Effect.gen(function*() {
      // A port that was just free: nothing listens there.
      const closed = yield* Effect.promise(() => startFakePsp(pki, { profile: "bcb", pixKey: PIX_KEY }).then(async (other) => (await other.close(), other.baseUrl)))
      const api = yield* makePixApiClient(pspAt(closed), FAST)
      const error = yield* Effect.flip(api.getCob(`BLNG${newEngineTxid()}`))
      expect(error).toMatchObject({ _tag: "PspUnreachable", psp: "fake-down", outcomeUnknown: false })
      expect(error.message).toContain("connection refused")
    })))

  it.live("timeouts, retried until the retries run out, leave the outcome unknown", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* makePixApiClient(pspAt(fake.baseUrl), { requestTimeout: "200 millis", retries: 2, retryBackoff: "5 millis" })
      fake.force({ kind: "timeout" }, { kind: "timeout" }, { kind: "timeout" })
      const error = yield* Effect.flip(api.getCob(`BLNG${newEngineTxid()}`))
      expect(error).toMatchObject({ _tag: "PspUnreachable", outcomeUnknown: true })
      expect(fake.takeCalls()).toHaveLength(3)
      expect(fake.violations).toEqual([])
    })))
})
