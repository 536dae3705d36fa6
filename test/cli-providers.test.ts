/**
 * `billing providers check` as an operator runs it, against a fake PSP
 * token endpoint that requires the client certificate (mutual TLS, all on
 * this machine): one line per PSP, the exit code, and a bad providers file
 * stopping `providers check`, `serve`, `worker`, `run` and `BillingLive` in
 * one line before any database is opened.
 */
import { BillingLive } from "@billing/cli"
import { Billing } from "@billing/core"
import { seuNumeroOf } from "@billing/providers"
import { Effect } from "effect"
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { FAKE_INTER_CLIENT_ID, FAKE_INTER_CLIENT_SECRET, startFakeInterBank } from "../packages/providers/test/support/FakeInterBank.ts"
import { FAKE_ACCESS_TOKEN, FAKE_PUBLIC_KEY, startFakeMercadoPago } from "../packages/providers/test/support/FakeMercadoPago.ts"
import { type FakeTokenEndpoint, startFakeTokenEndpoint } from "../packages/providers/test/support/FakeTokenEndpoint.ts"
import { makeTestPki, MERCHANT_CNPJ } from "../packages/providers/test/support/TestCertificates.ts"
import { runBilling } from "./support/Cli.ts"

const pki = makeTestPki()
const root = mkdtempSync(join(tmpdir(), "billing-cli-providers-"))
const dataDir = join(root, "data")
let fake: FakeTokenEndpoint

const day = (date: Date) => date.toISOString().slice(0, 10)
const subject = `CN=LOJA EXEMPLO LTDA:${MERCHANT_CNPJ}, O=ICP-Brasil, C=BR, CNPJ ${MERCHANT_CNPJ}`
const WEBHOOK_LINE = "webhook: not registered by check; billing serve registers each PSP's callback URL at start"

const entry = (name: string, profile: string, extra: Record<string, unknown> = {}) => ({
  name,
  profile,
  baseUrl: `${fake.origin}/v2`,
  tokenUrl: fake.tokenUrl,
  clientId: `client-${name}`,
  clientSecret: { env: "PSP_SECRET" },
  pixKey: "11444777000161",
  tls: { pfx: "certs/client.p12", passphrase: { env: "PSP_PASSPHRASE" }, ca: "certs/ca.pem" },
  ...extra
})

const writeProviders = (name: string, pix: ReadonlyArray<unknown>, more: Record<string, unknown> = {}) => {
  const path = join(root, name)
  writeFileSync(path, JSON.stringify({ publicUrl: "https://billing.example.com", pix, ...more }))
  return path
}

const env = { PSP_SECRET: "psp-secret", PSP_PASSPHRASE: pki.passphrase, DATABASE_URL: "", BILLING_DATA_DIR: dataDir }

beforeAll(async () => {
  fake = await startFakeTokenEndpoint(pki)
  mkdirSync(join(root, "certs"))
  writeFileSync(join(root, "certs", "client.p12"), pki.client.pfx)
  writeFileSync(join(root, "certs", "legacy.p12"), pki.client.legacyPfx)
  writeFileSync(join(root, "certs", "ca.pem"), pki.caPem)
  const soon = pki.clientExpiringIn(10)
  writeFileSync(join(root, "certs", "soon.pem"), soon.certPem)
  writeFileSync(join(root, "certs", "soon.key"), soon.keyPem)
})
afterAll(async () => {
  await fake?.close()
  rmSync(root, { recursive: true, force: true })
})

describe("billing providers check", () => {
  it("prints one line per PSP: certificate, CNPJ, validity and token; exit 0 when one is usable", async () => {
    const file = writeProviders("mixed.json", [
      entry("efi-main", "efi"),
      entry("legacy", "bcb", { tls: { pfx: "certs/legacy.p12", passphrase: { env: "PSP_PASSPHRASE" }, ca: "certs/ca.pem" } }),
      entry("soon", "bcb", { tls: { cert: "certs/soon.pem", key: "certs/soon.key", ca: "certs/ca.pem" } }),
      entry("broken", "bcb", { tokenUrl: `${fake.origin}/no-token-here` })
    ])
    const before = fake.requests.length
    const result = await runBilling(["providers", "check", "--file", file], env)
    expect(result.status, result.stderr).toBe(0)
    // The token requests the fake received: efi-main, legacy and soon (broken asked another path).
    expect(fake.requests.length - before).toBe(3)
    const until = day(pki.notAfter)
    // Made 10 days ahead to the second, checked a few seconds later: 9 whole days left.
    const soonUntil = day(new Date(Date.now() + 10 * 86_400_000))
    expect(result.stdout.trim().split("\n")).toEqual([
      `efi-main (efi): usable; certificate ${subject} valid until ${until}; token obtained (expires_in 3600 s)`,
      `legacy (bcb): usable; certificate ${subject} valid until ${until}; token obtained (expires_in 3600 s)`,
      `soon (bcb): usable; certificate ${subject} EXPIRES SOON: ${soonUntil} (9 days left; renew it); token obtained (expires_in 3600 s)`,
      `broken (bcb): NOT usable; certificate ${subject} valid until ${until}; token FAILED: the token endpoint answered 404`,
      WEBHOOK_LINE,
      "3 of 4 PSPs usable"
    ])
  })

  it("exits 1 when no PSP is usable, reading BILLING_PROVIDERS_FILE", async () => {
    const file = writeProviders("none.json", [entry("broken", "efi", { tokenUrl: `${fake.origin}/no-token-here` })])
    const result = await runBilling(["providers", "check"], { ...env, BILLING_PROVIDERS_FILE: file })
    expect(result.status).toBe(1)
    expect(result.stdout.trim().split("\n")[0]).toMatch(/^broken \(efi\): NOT usable; .*token FAILED: the token endpoint answered 404$/)
    expect(result.stderr.trim()).toBe(`billing: no PSP in ${file} is usable`)
  })

  it("a bad file is one line naming the key, exit 1; no file at all is a usage error, exit 2", async () => {
    const file = writeProviders("bad.json", [entry("efi-main", "efi", { tls: { pfx: "certs/missing.p12", passphrase: "x" } })])
    const bad = await runBilling(["providers", "check", "--file", file], env)
    expect(bad.status).toBe(1)
    expect(bad.stderr.trim()).toBe(`billing: providers file ${file}: pix[0].tls.pfx: file not found`)
    const none = await runBilling(["providers", "check"], { ...env, BILLING_PROVIDERS_FILE: "" })
    expect(none.status).toBe(2)
    expect(none.stderr.trim()).toBe("billing: no providers file: set BILLING_PROVIDERS_FILE or pass --file PATH")
    const flag = await runBilling(["providers", "check", "--fil", file], env)
    expect(flag.status).toBe(2)
    expect(flag.stderr).toContain("usage: billing providers check")
  })

  it("--help says what it checks and who registers the callbacks", async () => {
    const help = await runBilling(["providers", "check", "--help"], env)
    expect(help.status).toBe(0)
    expect(help.stdout).toContain("--file PATH")
    expect(help.stdout).toContain("callback URLs are registered by billing serve at start")
  })
})

describe("a bad providers file stops the engine at start, in one line", () => {
  const file = () => writeProviders("unknown-key.json", [entry("efi-main", "efi", { secret: "misspelt" })])

  it.each([["serve", "--port", "0"], ["worker"], ["run"]])("billing %s", async (...args) => {
    const result = await runBilling(args, { ...env, BILLING_PROVIDERS_FILE: file() })
    expect(result.status).toBe(1)
    expect(result.stderr.trim()).toBe(`billing: providers file ${join(root, "unknown-key.json")}: pix[0].secret: unknown key`)
    // Refused before the embedded database was created.
    expect(existsSync(dataDir)).toBe(false)
  })

  it("BillingLive({ providers }) takes the same contract and fails its layer the same way", async () => {
    const error = await Effect.void.pipe(
      Effect.provide(BillingLive({ providers: { publicUrl: "http://billing.example.com", pix: [] } })),
      Effect.flip,
      Effect.runPromise
    )
    expect(error).toMatchObject({ _tag: "ProvidersFileInvalid", message: "publicUrl: must be https:// (http:// only for a loopback host)" })
  })

  it("BillingLive({ providers }) with a card entry sends production accounts' cards to its acquirer", async () => {
    const mercadoPago = await startFakeMercadoPago()
    try {
      const card = { provider: "mercadopago", accessToken: FAKE_ACCESS_TOKEN, publicKey: FAKE_PUBLIC_KEY, baseUrl: mercadoPago.baseUrl } as const
      // A providers file lists at least one PSP.
      const psp = entry("efi-main", "efi", {
        clientSecret: "psp-secret",
        tls: { pfx: join(root, "certs", "client.p12"), passphrase: pki.passphrase, ca: join(root, "certs", "ca.pem") }
      })
      const program = Effect.gen(function*() {
        const { accountId } = yield* Billing.createAccount({ name: "Loja Exemplo", document: "11444777000161", sandbox: false })
        const typed = { number: "4235647728025682", cvv: "123", name: "APRO", expiration: `12/${new Date().getUTCFullYear() + 5}` }
        return yield* Billing.tokenizeCard({ card: typed }).pipe(Billing.asAccount(accountId))
      })
      const method = await Effect.runPromise(program.pipe(Effect.provide(BillingLive({ providers: { publicUrl: "https://billing.example.com", pix: [psp] as never, card } }))))
      expect(method).toMatchObject({ brand: "visa", lastFour: "5682" })
      expect(mercadoPago.calls.map((call) => call.path)).toEqual(["/v1/card_tokens"])
    } finally {
      await mercadoPago.close()
    }
  })

  it("BillingLive({ providers }) with a boleto entry registers production accounts' boletos at its bank", async () => {
    const inter = await startFakeInterBank(pki)
    try {
      const tls = { pfx: join(root, "certs", "client.p12"), passphrase: pki.passphrase, ca: join(root, "certs", "ca.pem") }
      const boleto = { provider: "inter", clientId: FAKE_INTER_CLIENT_ID, clientSecret: FAKE_INTER_CLIENT_SECRET, tls, baseUrl: inter.baseUrl } as const
      const psp = entry("efi-main", "efi", { clientSecret: "psp-secret", tls })
      const address = { street: "Av. Paulista", number: "1000", neighborhood: "Bela Vista", city: "São Paulo", state: "SP", zipCode: "01310100" }
      const program = Effect.gen(function*() {
        const { accountId } = yield* Billing.createAccount({ name: "Loja Exemplo", document: "11444777000161", sandbox: false })
        // The request as decoded: amounts in centavos, the CEP in digits.
        const request = { paymentMethod: "boleto", amount: 9990, boletoDueDays: 3, customer: { name: "Ana Souza", email: "ana@example.com", documentNumber: "52998224725", address } }
        return yield* Billing.createCheckoutCharge(request as never).pipe(Billing.asAccount(accountId))
      })
      const result = await Effect.runPromise(program.pipe(Effect.provide(BillingLive({ providers: { publicUrl: "https://billing.example.com", pix: [psp] as never, boleto } }))))
      expect(inter.registrations()).toBe(1)
      const [registered] = inter.cobrancasOf(seuNumeroOf((result as { chargeId: string }).chargeId))
      expect(result).toMatchObject({ status: "pending", boleto: { digitableLine: registered!.linhaDigitavel, barCode: registered!.codigoBarras } })
      expect(inter.violations).toEqual([])
    } finally {
      await inter.close()
    }
  })
})
