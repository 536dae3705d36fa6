/**
 * The Inter boleto issuer against the fake Inter (mutual TLS, books in
 * memory, every request checked against the fields of Inter's SDKs): the
 * port's contract, then what is Inter's own: a registration that timed out
 * is looked for before it is sent again, so the bank holds one boleto; a 5xx
 * is retried, a 4xx is a typed refusal asked once; the body is the published
 * one; a registration Inter is still processing is waited for, then given up
 * as unfinished; the providers file's `boleto` entry. Expected values come
 * from the test's own inputs and the fake's books, never from the adapter.
 */
import { assert, it } from "@effect/vitest"
import { type BoletoIssuer, Certificates, cents } from "@billing/core"
import { Effect, Redacted, Result, Schema } from "effect"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, afterEach, beforeAll, describe, expect } from "vitest"
import {
  boletoIssuerContract,
  boletoPayer,
  boletoReceiver,
  dayFromToday,
  newBoletoReference
} from "../../core/test/contracts/BoletoIssuerContract.ts"
import { callbackNotices } from "../src/boleto/InterCallback.ts"
import { interBoletoIssuerLayer, makeInterBoletoIssuer, WRITE_OFF_REASON } from "../src/boleto/InterBoletoIssuer.ts"
import { seuNumeroOf } from "../src/boleto/InterRequests.ts"
import { BoletoEntry, INTER_API, resolveBoletoEntry } from "../src/config/BoletoEntry.ts"
import type { BoletoBankConfig } from "../src/config/ProvidersConfig.ts"
import { FAKE_INTER_CLIENT_ID, FAKE_INTER_CLIENT_SECRET, type FakeInterBank, startFakeInterBank } from "./support/FakeInterBank.ts"
import { makeTestPki } from "./support/TestCertificates.ts"

const pki = makeTestPki()
const ACCOUNT = "12345678"
/** Short enough for a test, long enough for the fake on a busy machine. */
const FAST = { requestTimeout: "1 second", retries: 3, retryBackoff: "5 millis", pollInterval: "5 millis", polls: 4 } as const

let fake: FakeInterBank
beforeAll(async () => {
  fake = await startFakeInterBank(pki, { contaCorrente: ACCOUNT })
})
afterAll(() => fake.close())
// The adapter kept Inter's published fields in every test.
afterEach(() => {
  expect(fake.violations.splice(0)).toEqual([])
  fake.configure({ processingReads: 1, pageSize: undefined })
})

const config = (overrides: Partial<BoletoBankConfig> = {}): BoletoBankConfig => ({
  provider: "inter",
  clientId: FAKE_INTER_CLIENT_ID,
  clientSecret: Redacted.make(FAKE_INTER_CLIENT_SECRET),
  certificate: Result.getOrThrow(Certificates.fromPem(pki.client.certPem, pki.client.keyPem)),
  ca: pki.caPem,
  contaCorrente: ACCOUNT,
  baseUrl: fake.baseUrl,
  ...overrides
})

boletoIssuerContract("Banco Inter (the fake)", () => ({
  layer: interBoletoIssuerLayer(config(), FAST),
  driver: {
    pay: (boleto, _, paidOn) => Effect.sync(() => void fake.pay(boleto.ourNumber, paidOn)),
    registered: (reference) => fake.cobrancasOf(seuNumeroOf(reference)).length,
    timeOutNextRegistration: () => fake.force("create", { kind: "timeout" })
  }
}))

const withIssuer = <A, E>(use: (issuer: BoletoIssuer["Service"]) => Effect.Effect<A, E>, overrides: Partial<BoletoBankConfig> = {}) =>
  Effect.scoped(Effect.flatMap(makeInterBoletoIssuer(config(overrides), FAST), use))

const request = (overrides: Record<string, unknown> = {}) => ({
  receiver: boletoReceiver,
  reference: newBoletoReference(),
  amount: cents(15_075),
  dueDate: dayFromToday(15),
  payer: boletoPayer,
  ...overrides
})

/** The calls of the fake since the last take, as `METHOD route`. */
const routes = () =>
  fake.takeCalls().map((call) =>
    `${call.method} ${call.path.replace(/\/cobranca\/v3\/cobrancas/, "").replace(/[0-9a-f-]{36}/, "{codigo}") || "/"}`
  )

describe("the Inter boleto issuer, Inter's own behaviour", () => {
  it.live("looks for a registration that timed out before sending it again: one boleto at the bank", () =>
    withIssuer((issuer) =>
      Effect.gen(function*() {
        const asked = request()
        const before = fake.registrations()
        fake.takeCalls()
        fake.force("create", { kind: "timeout" })
        const issued = yield* issuer.issue(asked)
        assert.strictEqual(fake.registrations() - before, 1)
        assert.deepStrictEqual(routes(), ["GET /", "POST /", "GET /", "GET /{codigo}", "GET /{codigo}"])
        const [stored] = fake.cobrancasOf(seuNumeroOf(asked.reference))
        assert.deepStrictEqual([issued.ourNumber, issued.barcode, issued.bankCode], [stored!.nossoNumero, stored!.codigoBarras, "077"])
        assert.strictEqual(issued.pixCopiaECola, stored!.pixCopiaECola)
      })
    ))

  it.live("sends a registration again when the first never arrived (dropped, then a 503): one boleto at the bank", () =>
    withIssuer((issuer) =>
      Effect.gen(function*() {
        const asked = request()
        const before = fake.registrations()
        fake.takeCalls()
        fake.force("create", { kind: "drop" }, { kind: "status", status: 503 })
        yield* issuer.issue(asked)
        assert.strictEqual(fake.registrations() - before, 1)
        assert.deepStrictEqual(routes().filter((route) => route === "POST /").length, 3)
        assert.strictEqual(fake.cobrancasOf(seuNumeroOf(asked.reference)).length, 1)
      })
    ))

  it.live("answers a 4xx as a typed refusal in Inter's words, asked once", () =>
    withIssuer((issuer) =>
      Effect.gen(function*() {
        const before = fake.registrations()
        fake.takeCalls()
        // R$ 2,00: under the R$ 2,50 Inter registers at least.
        const error = yield* Effect.flip(issuer.issue(request({ amount: cents(200) })))
        assert.strictEqual(error._tag, "BoletoRefused")
        expect(error.message).toContain("400")
        expect(error.message).toContain("valorNominal")
        assert.deepStrictEqual(routes(), ["GET /", "POST /"])
        assert.strictEqual(fake.registrations(), before)
      })
    ))

  it.live("refuses a boleto without its payer before calling Inter", () =>
    withIssuer((issuer) =>
      Effect.gen(function*() {
        fake.takeCalls()
        const error = yield* Effect.flip(issuer.issue(request({ payer: undefined })))
        assert.strictEqual(error._tag, "BoletoRefused")
        expect(error.message).toContain("payer")
        assert.deepStrictEqual(routes(), [])
      })
    ))

  it.live("sends the published body: seuNumero from a charge id, reais with two decimals, the payer cut to Inter's limits", () =>
    withIssuer((issuer) =>
      Effect.gen(function*() {
        const dueDate = dayFromToday(40)
        const longName = `Maria ${"Silva ".repeat(20)}`.trim()
        fake.takeCalls()
        yield* issuer.issue(request({
          reference: "cha_0m1234567abcdefghijkl",
          amount: cents(150_000),
          dueDate,
          daysPayableAfterDue: 75,
          payer: { ...boletoPayer, name: longName, address: { ...boletoPayer.address, complement: null } }
        }))
        const post = fake.takeCalls().find((call) => call.method === "POST")!
        assert.deepStrictEqual(post.body, {
          seuNumero: "567abcdefghijkl",
          valorNominal: 1500,
          dataVencimento: dueDate,
          numDiasAgenda: 60,
          pagador: {
            cpfCnpj: "52998224725",
            tipoPessoa: "FISICA",
            nome: longName.slice(0, 100).trim(),
            endereco: "Rua das Flores",
            numero: "123",
            bairro: "Centro",
            cidade: "Sao Paulo",
            uf: "SP",
            cep: "01001000",
            email: "maria@example.com"
          }
        })
        expect(post.text).toContain(`"valorNominal":1500.00,`)
        assert.strictEqual(post.headers["x-conta-corrente"], ACCOUNT)
      })
    ))

  it.live("asks for a token with the cobrança scopes once, and refreshes a revoked one once", () =>
    withIssuer((issuer) =>
      Effect.gen(function*() {
        const before = fake.tokenRequests()
        yield* issuer.issue(request())
        yield* issuer.paymentsBetween({ receiver: boletoReceiver, from: dayFromToday(0), to: dayFromToday(0) })
        assert.strictEqual(fake.tokenRequests() - before, 1)
        fake.revoke(fake.issuedTokens().at(-1)!)
        yield* issuer.paymentsBetween({ receiver: boletoReceiver, from: dayFromToday(0), to: dayFromToday(0) })
        assert.strictEqual(fake.tokenRequests() - before, 2)
      })
    ))

  it.live("answers refused credentials as an unavailable issuer", () =>
    withIssuer((issuer) =>
      Effect.gen(function*() {
        const error = yield* Effect.flip(issuer.issue(request()))
        assert.strictEqual(error._tag, "BoletoIssuerError")
        expect(error.message).toContain("401")
        expect(error.message).toContain("invalid_client")
      }), { clientSecret: Redacted.make("wrong-secret") }))

  it.live("is refused at the handshake with a certificate the bank does not trust, before any call", () => {
    const stranger = makeTestPki()
    const before = fake.refusedHandshakes()
    fake.takeCalls()
    return withIssuer((issuer) =>
      Effect.gen(function*() {
        const error = yield* Effect.flip(issuer.issue(request()))
        assert.strictEqual(error._tag, "BoletoIssuerError")
        assert.isTrue(fake.refusedHandshakes() > before)
        assert.deepStrictEqual(routes(), [])
      }), { certificate: Result.getOrThrow(Certificates.fromPem(stranger.client.certPem, stranger.client.keyPem)) })
  })

  it.live("waits while Inter processes a registration, gives up as unfinished when it takes too long, and finds it when asked again", () =>
    withIssuer((issuer) =>
      Effect.gen(function*() {
        const asked = request()
        const before = fake.registrations()
        fake.configure({ processingReads: FAST.polls })
        const error = yield* Effect.flip(issuer.issue(asked))
        assert.strictEqual(error._tag, "BoletoIssuerError")
        expect(error.message).toContain("still processing")
        const issued = yield* issuer.issue(asked)
        assert.strictEqual(issued.ourNumber, fake.cobrancasOf(seuNumeroOf(asked.reference))[0]!.nossoNumero)
        assert.strictEqual(fake.registrations() - before, 1)
      })
    ))

  it.live("writes off with a reason Inter takes, and answers a boleto it does not hold as not found", () =>
    withIssuer((issuer) =>
      Effect.gen(function*() {
        const asked = request()
        const issued = yield* issuer.issue(asked)
        const ref = { receiver: boletoReceiver, reference: asked.reference, ourNumber: issued.ourNumber, dueDate: asked.dueDate }
        assert.deepStrictEqual(yield* issuer.writeOff(ref), { _tag: "WrittenOff" })
        assert.strictEqual(fake.byNossoNumero(issued.ourNumber)!.motivoCancelamento, WRITE_OFF_REASON)
        const missing = yield* Effect.flip(issuer.status({ ...ref, ourNumber: "99999999999" }))
        assert.strictEqual(missing._tag, "BoletoNotFound")
      })
    ))

  it.live("asks a write-off whose answer was lost again, and answers the boleto written off once Inter refuses the repeat", () =>
    withIssuer((issuer) =>
      Effect.gen(function*() {
        const asked = request()
        const issued = yield* issuer.issue(asked)
        fake.takeCalls()
        fake.force("cancel", { kind: "timeout" })
        const ref = { receiver: boletoReceiver, reference: asked.reference, ourNumber: issued.ourNumber, dueDate: asked.dueDate }
        assert.deepStrictEqual(yield* issuer.writeOff(ref), { _tag: "WrittenOff" })
        assert.deepStrictEqual(routes(), ["GET /", "POST /{codigo}/cancelar", "POST /{codigo}/cancelar", "GET /{codigo}"])
        assert.strictEqual(fake.byNossoNumero(issued.ourNumber)!.situacao, "CANCELADO")
      })
    ))

  it.live("lists payments across pages", () =>
    withIssuer((issuer) =>
      Effect.gen(function*() {
        const paidOn = dayFromToday(-3)
        const paid: Array<string> = []
        for (const amount of [1_001, 1_002, 1_003]) {
          const issued = yield* issuer.issue(request({ amount: cents(amount) }))
          fake.pay(issued.ourNumber, paidOn)
          paid.push(issued.ourNumber)
        }
        fake.configure({ pageSize: 2 })
        const listed = yield* issuer.paymentsBetween({ receiver: boletoReceiver, from: paidOn, to: paidOn })
        assert.deepStrictEqual(listed.map((payment) => [payment.ourNumber, payment.amount]), paid.map((ourNumber, i) => [ourNumber, 1_001 + i]))
      })
    ))

  it.live("reads Inter's callback as notices naming the boleto and its situation", () =>
    withIssuer((issuer) =>
      Effect.gen(function*() {
        const issued = yield* issuer.issue(request())
        const body = fake.pay(issued.ourNumber, dayFromToday(0), "PIX")
        const notices = yield* callbackNotices(JSON.parse(JSON.stringify(body)))
        assert.deepStrictEqual(notices.map((notice) => [notice.nossoNumero, notice.situacao]), [[issued.ourNumber, "RECEBIDO"]])
        assert.strictEqual((yield* Effect.flip(callbackNotices({ situacao: "RECEBIDO" })))._tag, "InterAnswerInvalid")
      })
    ))
})

describe("the providers file's boleto entry", () => {
  const decode = Schema.decodeUnknownResult(BoletoEntry, { onExcessProperty: "error" })
  const entry = { provider: "inter", clientId: "app-1", clientSecret: { env: "INTER_SECRET" }, tls: { cert: "inter.crt", key: "inter.key" } }

  it("takes Inter with a certificate, https or a loopback http base URL, and nothing unknown", () => {
    assert.isTrue(Result.isSuccess(decode(entry)))
    assert.isTrue(Result.isSuccess(decode({ ...entry, contaCorrente: "12345678", baseUrl: "http://127.0.0.1:8443" })))
    assert.isTrue(Result.isFailure(decode({ ...entry, baseUrl: "http://inter.example.com" })))
    assert.isTrue(Result.isFailure(decode({ ...entry, provider: "bb" })))
    assert.isTrue(Result.isFailure(decode({ ...entry, contaCorrente: "12-3" })))
    assert.isTrue(Result.isFailure(decode({ ...entry, scopes: ["boleto-cobranca.read"] })))
  })

  it.effect("resolves the secret from the environment and reads the certificate, defaulting to Inter's production host", () =>
    Effect.gen(function*() {
      const dir = mkdtempSync(join(tmpdir(), "boleto-entry-"))
      writeFileSync(join(dir, "inter.crt"), pki.client.certPem)
      writeFileSync(join(dir, "inter.key"), pki.client.keyPem)
      const decoded = Result.getOrThrow(decode(entry))
      const resolved = yield* resolveBoletoEntry(decoded, { baseDir: dir, env: { INTER_SECRET: "s3cret" } })
      assert.strictEqual(Redacted.value(resolved.clientSecret), "s3cret")
      assert.strictEqual(resolved.baseUrl, INTER_API)
      assert.strictEqual(resolved.certificate.chain, Result.getOrThrow(Certificates.fromPem(pki.client.certPem, pki.client.keyPem)).chain)
      const missing = yield* Effect.flip(resolveBoletoEntry(decoded, { baseDir: dir, env: {} }))
      assert.strictEqual(missing.message, "boleto.clientSecret.env: environment variable INTER_SECRET is not set")
    }))
})
