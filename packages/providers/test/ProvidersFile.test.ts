/**
 * The providers file (`BILLING_PROVIDERS_FILE`): what it accepts, how
 * secrets and files are resolved, and each refusal as the one line the
 * operator reads, naming the path of the problem.
 */
import { Effect, Redacted } from "effect"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { loadProvidersFile, resolveProviders } from "../src/config/LoadProviders.ts"
import { makeTestPki, MERCHANT_CNPJ } from "./support/TestCertificates.ts"

const pki = makeTestPki()
const root = mkdtempSync(join(tmpdir(), "billing-providers-file-"))
mkdirSync(join(root, "certs"))
mkdirSync(join(root, "secrets"))
writeFileSync(join(root, "certs", "client.p12"), pki.client.pfx)
writeFileSync(join(root, "certs", "legacy.p12"), pki.client.legacyPfx)
writeFileSync(join(root, "certs", "client.pem"), pki.client.certPem)
writeFileSync(join(root, "certs", "client.key"), pki.client.keyPem)
writeFileSync(join(root, "certs", "ca.pem"), pki.caPem)
// As `echo "$PASS" > passphrase` writes it: with a line break.
writeFileSync(join(root, "secrets", "passphrase"), `${pki.passphrase}\n`)
afterAll(() => rmSync(root, { recursive: true, force: true }))

const env = { EFI_SECRET: "efi-client-secret", MP_ACCESS_TOKEN: "APP_USR-from-env" }
writeFileSync(join(root, "secrets", "mp-access-token"), "APP_USR-from-file\n")

const efi = {
  name: "efi-main",
  profile: "efi",
  baseUrl: "https://pix.example.com/v2",
  tokenUrl: "https://pix.example.com/oauth/token",
  clientId: "Client_Id_efi",
  clientSecret: { env: "EFI_SECRET" },
  pixKey: "11.444.777/0001-61",
  tls: { pfx: "certs/client.p12", passphrase: { file: "secrets/passphrase" }, ca: "certs/ca.pem" }
}

const mercadoPago = { provider: "mercadopago", accessToken: { env: "MP_ACCESS_TOKEN" }, publicKey: "APP_USR-public-key" }

const file = (overrides: Record<string, unknown> = {}, entry: Record<string, unknown> = {}) => ({
  publicUrl: "https://billing.example.com/",
  pix: [{ ...efi, ...entry }],
  ...overrides
})

const load = (input: unknown) => resolveProviders(input, { baseDir: root, env }).pipe(Effect.runPromise)
const refusal = (input: unknown) =>
  resolveProviders(input, { baseDir: root, env }).pipe(Effect.flip, Effect.map((error) => error.message), Effect.runPromise)

describe("providers file: accepted", () => {
  it("resolves secrets from the environment and from a file, paths from the file's folder, the key canonical", async () => {
    const config = await load(file())
    expect(config.publicUrl).toBe("https://billing.example.com")
    const [psp] = config.pix
    expect(psp!.name).toBe("efi-main")
    expect(Redacted.value(psp!.clientSecret!)).toBe("efi-client-secret")
    // The passphrase from the file (line break dropped) opened the PKCS#12 file.
    expect(psp!.certificate.leaf.cnpj).toBe(MERCHANT_CNPJ)
    expect(psp!.ca).toBe(pki.caPem)
    expect(psp!.pixKey).toEqual({ type: "CNPJ", value: "11444777000161" })
    expect(psp!.scopes).toEqual([])
  })

  it("takes an inline secret, a PEM pair, a legacy .p12, and each kind of Pix key", async () => {
    const config = await load({
      publicUrl: "http://127.0.0.1:3000",
      pix: [
        { ...efi, name: "pem", profile: "bcb", clientSecret: "inline-secret", tls: { cert: "certs/client.pem", key: join(root, "certs", "client.key") }, pixKey: "+55 11 99999-8888" },
        { ...efi, name: "legacy", tls: { pfx: "certs/legacy.p12", passphrase: pki.passphrase }, pixKey: "Pix@Loja.COM.br" },
        { ...efi, name: "sicoob-1", profile: "sicoob", clientSecret: undefined, pixKey: "123e4567-E89B-12d3-a456-426614174000", scopes: ["cob.write", "cob.read"] },
        { ...efi, name: "bb", profile: "bb", appKey: "app-key-1", pixKey: "529.982.247-25" }
      ].map((entry) => JSON.parse(JSON.stringify(entry)))
    })
    expect(config.publicUrl).toBe("http://127.0.0.1:3000")
    expect(config.pix.map((psp) => psp.pixKey)).toEqual([
      { type: "PHONE", value: "+5511999998888" },
      { type: "EMAIL", value: "pix@loja.com.br" },
      { type: "EVP", value: "123e4567-e89b-12d3-a456-426614174000" },
      { type: "CPF", value: "52998224725" }
    ])
    expect(Redacted.value(config.pix[0]!.clientSecret!)).toBe("inline-secret")
    expect(config.pix[1]!.certificate.leaf.cnpj).toBe(MERCHANT_CNPJ)
    expect(config.pix[2]!.clientSecret).toBeUndefined()
    expect(config.pix[2]!.scopes).toEqual(["cob.write", "cob.read"])
    expect(config.pix[3]!.appKey).toBe("app-key-1")
  })

  it("takes a Mercado Pago card entry, its access token inline, from the environment or a file, the API's URL by default", async () => {
    expect((await load(file())).card).toBeUndefined()
    const fromEnv = (await load(file({ card: mercadoPago }))).card!
    expect({ ...fromEnv, accessToken: Redacted.value(fromEnv.accessToken) }).toEqual({
      provider: "mercadopago",
      accessToken: "APP_USR-from-env",
      publicKey: "APP_USR-public-key",
      baseUrl: "https://api.mercadopago.com"
    })
    const fromFile = (await load(file({ card: { ...mercadoPago, accessToken: { file: "secrets/mp-access-token" }, baseUrl: "http://127.0.0.1:8080/" } }))).card!
    expect([Redacted.value(fromFile.accessToken), fromFile.baseUrl]).toEqual(["APP_USR-from-file", "http://127.0.0.1:8080"])
    const inline = (await load(file({ card: { ...mercadoPago, accessToken: "TEST-inline" } }))).card!
    expect(Redacted.value(inline.accessToken)).toBe("TEST-inline")
    // The secret never prints with the configuration.
    expect(String(inline.accessToken)).not.toContain("TEST-inline")
  })

  it("takes the national NFS-e system's entry, each environment's URLs by default, RSA-SHA256 unless it names SHA-1", async () => {
    expect((await load(file())).nfse).toBeUndefined()
    expect((await load(file({ nfse: { provider: "nacional", ambiente: "producao" } }))).nfse).toEqual({
      provider: "nacional",
      ambiente: 1,
      signatureAlgorithm: "RSA-SHA256",
      baseUrl: "https://sefin.nfse.gov.br/SefinNacional",
      danfseUrl: "https://adn.nfse.gov.br/danfse",
      parametersUrl: "https://adn.nfse.gov.br/parametrizacao",
      timeoutMillis: 10_000,
      ca: undefined
    })
    const restricted = (await load(file({
      nfse: { provider: "nacional", ambiente: "producao-restrita", signatureAlgorithm: "RSA-SHA1", baseUrl: "http://127.0.0.1:9443/sefin" }
    }))).nfse!
    expect([restricted.ambiente, restricted.signatureAlgorithm, restricted.baseUrl, restricted.danfseUrl]).toEqual([
      2,
      "RSA-SHA1",
      "http://127.0.0.1:9443/sefin",
      "https://adn.producaorestrita.nfse.gov.br/danfse"
    ])
  })

  it("loads a file from another folder, its relative paths from its own folder", async () => {
    const path = join(root, "providers.json")
    writeFileSync(path, JSON.stringify(file()))
    const config = await loadProvidersFile(path, env).pipe(Effect.runPromise)
    expect(config.pix[0]!.certificate.leaf.subject).toContain("LOJA EXEMPLO LTDA")
  })
})

describe("providers file: each refusal is one line naming the path", () => {
  const cases: ReadonlyArray<readonly [string, unknown, string]> = [
    ["an unknown top-level key", file({ pixx: [] }), "pixx: unknown key"],
    ["an unknown key in an entry", file({}, { tls: { ...efi.tls, pem: "x" } }), "pix[0].tls.pem: unknown key"],
    ["a missing field", file({}, { clientId: undefined }), "pix[0].clientId: missing"],
    ["a missing list", { publicUrl: "https://billing.example.com" }, "pix: missing"],
    ["a certificate file not found", file({}, { tls: { ...efi.tls, pfx: "certs/missing.p12" } }), "pix[0].tls.pfx: file not found"],
    ["a CA file not found", file({}, { tls: { ...efi.tls, ca: "/nowhere/ca.pem" } }), "pix[0].tls.ca: file not found"],
    ["a secret file not found", file({}, { clientSecret: { file: "secrets/none" } }), "pix[0].clientSecret.file: file not found"],
    ["an unset environment variable", file({}, { clientSecret: { env: "NOT_SET_ANYWHERE" } }), "pix[0].clientSecret.env: environment variable NOT_SET_ANYWHERE is not set"],
    ["a secret naming both sources", file({}, { clientSecret: { env: "EFI_SECRET", file: "x" } }), "pix[0].clientSecret: give exactly one of env or file"],
    ["a wrong passphrase", file({}, { tls: { ...efi.tls, passphrase: "wrong" } }), "pix[0].tls.pfx: wrong passphrase"],
    ["both pfx and a PEM pair", file({}, { tls: { ...efi.tls, cert: "certs/client.pem" } }), "pix[0].tls.cert: give either pfx or cert and key, not both"],
    ["a cert without its key", file({}, { tls: { cert: "certs/client.pem" } }), "pix[0].tls.key: missing (cert goes with key)"],
    ["http:// for a host PSPs reach", file({ publicUrl: "http://billing.example.com" }), "publicUrl: must be https:// (http:// only for a loopback host)"],
    ["a base URL without /v2", file({}, { baseUrl: "https://pix.example.com/api" }), "pix[0].baseUrl: must end with /v2 (the API Pix base URL, e.g. https://pix.example.com/api/v2)"],
    ["an http token URL", file({}, { tokenUrl: "http://pix.example.com/oauth/token" }), "pix[0].tokenUrl: must be an https:// URL"],
    ["a name with capitals", file({}, { name: "Efi" }), "pix[0].name: must be lowercase letters, digits and dashes"],
    ["an unknown profile", file({}, { profile: "itau" }), "pix[0].profile: must be one of bcb, efi, bb, sicoob, sicredi, inter"],
    ["a bad Pix key", file({}, { pixKey: "11.444.777/0001-62" }), "pix[0].pixKey: not a valid Pix key (CPF, CNPJ, e-mail, +55 phone or random key)"],
    ["a missing secret where the profile needs one", file({}, { clientSecret: undefined }), "pix[0].clientSecret: missing"],
    ["BB without its app key", file({}, { profile: "bb" }), "pix[0].appKey: missing (the bb profile sends it on every call)"],
    ["an empty list", file({ pix: [] }), "pix: list at least one PSP"],
    ["a card provider this version does not have", file({ card: { ...mercadoPago, provider: "cielo" } }), "card.provider: must be mercadopago"],
    ["a card entry without its access token", file({ card: { ...mercadoPago, accessToken: undefined } }), "card.accessToken: missing"],
    ["an unknown key in the card entry", file({ card: { ...mercadoPago, secretKey: "x" } }), "card.secretKey: unknown key"],
    ["an empty public key", file({ card: { ...mercadoPago, publicKey: "" } }), "card.publicKey: must not be empty"],
    ["an http card API off this machine", file({ card: { ...mercadoPago, baseUrl: "http://api.mercadopago.com" } }), "card.baseUrl: must be https:// (http:// only for a loopback host)"],
    ["an unset access token variable", file({ card: { ...mercadoPago, accessToken: { env: "MP_NOT_SET" } } }), "card.accessToken.env: environment variable MP_NOT_SET is not set"],
    ["an access token file not found", file({ card: { ...mercadoPago, accessToken: { file: "secrets/mp-none" } } }), "card.accessToken.file: file not found"],
    ["the list form of an earlier version", file({ card: [] }), "card: expected object"],
    ["an NFS-e system this version does not have", file({ nfse: { provider: "abrasf", ambiente: "producao" } }), "nfse.provider: must be nacional"],
    ["an NFS-e entry without its environment", file({ nfse: { provider: "nacional" } }), "nfse.ambiente: missing"],
    ["an unknown NFS-e environment", file({ nfse: { provider: "nacional", ambiente: "homologacao" } }), "nfse.ambiente: must be producao or producao-restrita"],
    ["an NFS-e CA file not found", file({ nfse: { provider: "nacional", ambiente: "producao", ca: "certs/none.pem" } }), "nfse.ca: file not found"]
  ]

  it.each(cases)("%s", async (_, input, message) => {
    expect(await refusal(JSON.parse(JSON.stringify(input)))).toBe(message)
  })

  it("duplicate names", async () => {
    expect(await refusal({ publicUrl: "https://billing.example.com", pix: [efi, { ...efi, profile: "bcb" }] })).toBe("pix[1].name: duplicate name efi-main")
  })

  it("a providers file that is missing or not JSON", async () => {
    const missing = join(root, "none.json")
    expect(await loadProvidersFile(missing, env).pipe(Effect.flip, Effect.runPromise)).toMatchObject({ message: `providers file ${missing}: file not found` })
    const broken = join(root, "broken.json")
    writeFileSync(broken, "{ publicUrl: ")
    const error = await loadProvidersFile(broken, env).pipe(Effect.flip, Effect.runPromise)
    expect(error.message).toMatch(new RegExp(`^providers file ${broken}: not valid JSON \\(`))
  })
})
