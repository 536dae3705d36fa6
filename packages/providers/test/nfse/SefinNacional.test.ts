/**
 * The national system's adapter against a fake Sefin Nacional (mutual TLS
 * with the issuer's certificate, every message held to the API
 * description): an issued note, a refusal with the system's errors in any
 * key casing, a lost answer resolved by the DPS's `Id` and never by a new
 * number, a DPS sent twice, the cancellation event, the DANFSe. Every DPS
 * and event request the fake received validates against the official
 * schemas and its signature verifies with the certificate made here.
 */
import { assert, it } from "@effect/vitest"
import type { NfseConfig } from "@billing/core/domain/NfseConfig"
import type { NotaToIssue } from "@billing/core/domain/Nota"
import type { NfseProvider } from "@billing/core/ports/NfseProvider"
import { AccountId, cents, NfseConfigId } from "@billing/core"
import { Effect, Option, Redacted } from "effect"
import { afterAll, afterEach, beforeAll, describe, expect } from "vitest"
import { nota as baseNota, settings } from "../../../core/test/nfse/DpsFixtures.ts"
import { validateAgainst } from "../../../core/test/nfse/NfseSchemas.ts"
import { makeSefinNacional, type SefinNacionalOptions } from "../../src/nfse/SefinNacional.ts"
import { type FakeSefin, startFakeSefin } from "../support/FakeSefin.ts"
import { makeTestPki, MERCHANT_CNPJ } from "../support/TestCertificates.ts"
import { verifies } from "./SignatureCheck.ts"

const pki = makeTestPki()

const config: NfseConfig = {
  id: NfseConfigId.make("nfc_1"),
  accountId: AccountId.make("acc_1"),
  // The issuer's CNPJ is the certificate's.
  settings: { ...settings, prestador: { ...settings.prestador, cnpj: MERCHANT_CNPJ } },
  certificate: { pfxBase64: Redacted.make(pki.client.legacyPfx.toString("base64")), password: Redacted.make(pki.passphrase), cnpj: MERCHANT_CNPJ, expiresAt: pki.notAfter },
  prefeituraSenha: Option.none(),
  createdAt: new Date("2026-01-01T00:00:00Z"),
  updatedAt: new Date("2026-01-01T00:00:00Z")
}

/** Each test its own DPS number: the fake keeps every DPS it issued. */
let nextNumber = 100
const nota = (): NotaToIssue => ({ ...baseNota, dpsNumber: nextNumber++, amount: cents(15000) })

/** The Id of `nota`'s DPS, by the README's rule, worked out here. */
const idOf = (n: NotaToIssue) => `DPS53001082${MERCHANT_CNPJ}00001${String(n.dpsNumber).padStart(15, "0")}`

describe("Sefin Nacional adapter", () => {
  let fake: FakeSefin
  let provider: NfseProvider["Service"]
  beforeAll(async () => {
    fake = await startFakeSefin(pki)
    const options: SefinNacionalOptions = {
      baseUrl: fake.baseUrl,
      danfseUrl: fake.danfseUrl,
      parametersUrl: fake.parametersUrl,
      ambiente: 2,
      signatureAlgorithm: "RSA-SHA256",
      codigoNbs: () => "115013000",
      ca: pki.caPem,
      // Short enough for a test, long enough for the fake on a busy machine.
      requestTimeout: "1 second",
      retries: 2,
      retryBackoff: "5 millis"
    }
    provider = makeSefinNacional(options)
  })
  afterAll(() => fake.close())
  afterEach(async () => {
    expect(fake.violations.splice(0)).toEqual([])
    // Whatever reached the fake was a valid, verifiable document.
    for (const document of fake.documents.splice(0)) {
      const schema = document.includes("<pedRegEvento") ? "pedRegEvento_v1.01.xsd" : "DPS_v1.01.xsd"
      expect(await validateAgainst(schema, document)).toEqual({ valid: true, errors: [] })
      expect(verifies(document, pki.client.certPem)).toBe(true)
    }
  })
  const callsOf = () => fake.takeCalls().map((call) => `${call.method} ${call.path}`)

  it.live("sends the signed DPS gzipped in base64 over mutual TLS and reads the NFS-e of a 201", () =>
    Effect.gen(function*() {
      const n = nota()
      const { dps, outcome } = yield* provider.issue(config, n)
      assert(outcome._tag === "Authorized")
      const issued = fake.books.dps.get(idOf(n))!
      // The DPS the engine keeps is, byte for byte, the one the system received.
      assert.strictEqual(dps, issued.xml)
      assert.strictEqual(outcome.chaveAcesso, issued.chave)
      assert.strictEqual(outcome.numero, String(fake.books.notes.get(issued.chave)!.numero))
      assert.strictEqual(outcome.xml, fake.books.notes.get(issued.chave)!.nfseXml)
      // dataHoraProcessamento 2026-03-10T12:04:06.1234567-03:00.
      assert.strictEqual(outcome.authorizedAt.toISOString(), "2026-03-10T15:04:06.123Z")
      const calls = fake.takeCalls()
      assert.deepStrictEqual(calls.map((call) => `${call.method} ${call.path}`), ["POST /SefinNacional/nfse"])
      assert.strictEqual(calls[0]!.client, `LOJA EXEMPLO LTDA:${MERCHANT_CNPJ}`)
    }))

  it.live("turns a 400's errors into the note's, whatever the keys' casing, after checking the Id was not issued before", () =>
    Effect.gen(function*() {
      fake.force({
        kind: "refuse",
        body: { TipoAmbiente: 2, Erros: [{ Codigo: "E0312", Descricao: "Código de tributação nacional inexistente", Complemento: "cTribNac 010701" }, { CODIGO: "E0160", MENSAGEM: "Inscrição municipal não confere" }] }
      })
      const n = nota()
      const { outcome } = yield* provider.issue(config, n)
      assert.deepStrictEqual(outcome, {
        _tag: "Refused",
        errors: [
          { code: "E0312", message: "Código de tributação nacional inexistente: cTribNac 010701" },
          { code: "E0160", message: "Inscrição municipal não confere" }
        ]
      })
      assert.deepStrictEqual(callsOf(), ["POST /SefinNacional/nfse", `GET /SefinNacional/dps/${idOf(n)}`])
    }))

  it.live("after a timeout asks GET /dps by the same Id and reads the note the system issued", () =>
    Effect.gen(function*() {
      fake.force({ kind: "timeout" })
      const n = nota()
      const { outcome } = yield* provider.issue(config, n)
      assert(outcome._tag === "Authorized")
      const issued = fake.books.dps.get(idOf(n))!
      assert.strictEqual(outcome.chaveAcesso, issued.chave)
      assert.deepStrictEqual(callsOf(), ["POST /SefinNacional/nfse", `GET /SefinNacional/dps/${idOf(n)}`, `GET /SefinNacional/nfse/${issued.chave}`])
    }))

  it.live("after a 5xx that issued nothing the outcome is unknown, then NotReceived, and the same DPS is sent again", () =>
    Effect.gen(function*() {
      fake.force({ kind: "status", status: 503 })
      const n = nota()
      const error = yield* Effect.flip(provider.issue(config, n))
      assert.strictEqual(error._tag, "NfseProviderError")
      assert.deepStrictEqual(yield* provider.outcome(config, n), { _tag: "NotReceived" })
      const again = yield* provider.issue(config, n)
      assert.strictEqual(again.outcome._tag, "Authorized")
      // Same Id each time: the number was never replaced.
      assert.deepStrictEqual(callsOf(), [
        "POST /SefinNacional/nfse",
        `GET /SefinNacional/dps/${idOf(n)}`,
        `GET /SefinNacional/dps/${idOf(n)}`,
        "POST /SefinNacional/nfse"
      ])
    }))

  it.live("answers a DPS sent twice with the note of the first", () =>
    Effect.gen(function*() {
      const n = nota()
      const first = yield* provider.issue(config, n)
      const second = yield* provider.issue(config, n)
      assert(first.outcome._tag === "Authorized" && second.outcome._tag === "Authorized")
      assert.strictEqual(second.outcome.chaveAcesso, first.outcome.chaveAcesso)
      assert.strictEqual(fake.books.notes.get(first.outcome.chaveAcesso!)!.numero, Number(second.outcome.numero))
      const chave = first.outcome.chaveAcesso!
      assert.deepStrictEqual(callsOf(), ["POST /SefinNacional/nfse", "POST /SefinNacional/nfse", `GET /SefinNacional/dps/${idOf(n)}`, `GET /SefinNacional/nfse/${chave}`])
    }))

  it.live("cancels with event e101101 and answers a repeated cancellation with the registered one", () =>
    Effect.gen(function*() {
      const n = nota()
      const { outcome } = yield* provider.issue(config, n)
      assert(outcome._tag === "Authorized")
      const chave = outcome.chaveAcesso!
      const documents = { ...n, numero: outcome.numero, chaveAcesso: chave }
      fake.takeCalls()
      const canceled = yield* provider.cancel(config, documents, "Serviço cobrado em duplicidade")
      assert.deepStrictEqual(canceled, { _tag: "Canceled", at: new Date("2026-03-10T15:04:06.123Z") })
      const event = fake.documents.at(-1)!
      assert.include(event, `<infPedReg Id="PRE${chave}101101001">`)
      assert.include(event, `<CNPJAutor>${MERCHANT_CNPJ}</CNPJAutor><chNFSe>${chave}</chNFSe><nPedRegEvento>1</nPedRegEvento>`)
      assert.include(event, "<e101101><xDesc>Cancelamento de NFS-e</xDesc><cMotivo>9</cMotivo><xMotivo>Serviço cobrado em duplicidade</xMotivo></e101101>")
      const again = yield* provider.cancel(config, documents, "Serviço cobrado em duplicidade")
      assert.strictEqual(again._tag, "Canceled")
      assert.deepStrictEqual(callsOf(), [
        `POST /SefinNacional/nfse/${chave}/eventos`,
        `POST /SefinNacional/nfse/${chave}/eventos`,
        `GET /SefinNacional/nfse/${chave}/eventos/101101/1`
      ])
    }))

  it.live("refuses a cancellation the system refuses (its single `erro`), and a reason outside 15..255 characters without a call", () =>
    Effect.gen(function*() {
      const n = nota()
      const { outcome } = yield* provider.issue(config, n)
      assert(outcome._tag === "Authorized")
      const documents = { ...n, numero: outcome.numero, chaveAcesso: outcome.chaveAcesso }
      fake.takeCalls()
      fake.force({ kind: "refuse", body: { tipoAmbiente: 2, erro: { codigo: "E0845", descricao: "Prazo para cancelamento expirado" } } })
      const refused = yield* provider.cancel(config, documents, "Serviço cobrado em duplicidade")
      assert.deepStrictEqual(refused, { _tag: "Refused", errors: [{ code: "E0845", message: "Prazo para cancelamento expirado" }] })
      const short = yield* provider.cancel(config, documents, "   curto   ")
      assert.strictEqual(short._tag, "Refused")
      assert.deepStrictEqual(callsOf(), [`POST /SefinNacional/nfse/${outcome.chaveAcesso}/eventos`, `GET /SefinNacional/nfse/${outcome.chaveAcesso}/eventos/101101/1`])
    }))

  it.live("fetches the DANFSe as a PDF", () =>
    Effect.gen(function*() {
      const n = nota()
      const { outcome } = yield* provider.issue(config, n)
      assert(outcome._tag === "Authorized")
      const pdf = yield* provider.pdf(config, { ...n, numero: outcome.numero, chaveAcesso: outcome.chaveAcesso })
      assert.strictEqual(new TextDecoder().decode(pdf.slice(0, 8)), "%PDF-1.4")
      assert.include(new TextDecoder().decode(pdf), `DANFSe da NFS-e ${outcome.numero}`)
      fake.takeCalls()
    }))

  it.live("cannot reach the system with a certificate it does not trust: an error, and nothing issued", () =>
    Effect.gen(function*() {
      const stranger = makeTestPki()
      const other: NfseConfig = {
        ...config,
        certificate: { ...config.certificate, pfxBase64: Redacted.make(stranger.client.pfx.toString("base64")), password: Redacted.make(stranger.passphrase) }
      }
      const before = fake.books.dps.size
      const error = yield* Effect.flip(provider.issue(other, nota()))
      assert.strictEqual(error._tag, "NfseProviderError")
      assert.match(error.message, /TLS|closed/)
      assert.strictEqual(fake.books.dps.size, before)
      assert.deepStrictEqual(callsOf(), [])
      fake.documents.splice(0)
    }))

  it.live("tells a city's standard from the municipal parameters service, each city asked once a day", () =>
    Effect.gen(function*() {
      fake.adhesion.set("1505486", 1)
      fake.adhesion.set("3106200", 0)
      const ask = (codigoMunicipio: string) => provider.cityStandard({ sandbox: false, certificate: config.certificate, codigoMunicipio })
      assert.deepStrictEqual(yield* ask("1505486"), Option.some("nacional"))
      assert.deepStrictEqual(yield* ask("3106200"), Option.some("municipal"))
      // A city with no agreement at all keeps its own system.
      assert.deepStrictEqual(yield* ask("3550308"), Option.some("municipal"))
      assert.deepStrictEqual(callsOf(), ["GET /parametrizacao/1505486/convenio", "GET /parametrizacao/3106200/convenio", "GET /parametrizacao/3550308/convenio"])
      assert.deepStrictEqual(yield* ask("1505486"), Option.some("nacional"))
      assert.deepStrictEqual(callsOf(), [])
      // These calls held no DPS: nothing for the schema check after the test.
    }))

  it.live("refuses a note its configuration cannot describe, naming the field, without calling the system", () =>
    Effect.gen(function*() {
      const incomplete = makeSefinNacional({
        baseUrl: fake.baseUrl,
        danfseUrl: fake.danfseUrl,
        parametersUrl: fake.parametersUrl,
        ambiente: 2,
        signatureAlgorithm: "RSA-SHA1",
        codigoNbs: () => null,
        ca: pki.caPem
      })
      const { dps, outcome } = yield* incomplete.issue(config, nota())
      assert.strictEqual(dps, "")
      assert.deepStrictEqual(outcome, { _tag: "Refused", errors: [{ code: "NF_INCOMPLETE_DATA", message: "codigo_nbs: ausente ou inválido para a DPS nacional" }] })
      assert.deepStrictEqual(callsOf(), [])
    }))
})
