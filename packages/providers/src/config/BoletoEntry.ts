/**
 * The providers file's `boleto` entry: the one bank that registers the
 * installation's boletos. Banco Inter only for now; `provider` names it so
 * that a second bank is one more member of this union, not a new key. Its
 * client certificate is given as a Pix entry's `tls` is (`pfx` and
 * `passphrase`, or `cert` and `key`, and an optional `ca`).
 */
import { Certificates } from "@billing/core"
import { Effect, Redacted, Result, Schema } from "effect"
import { readFile } from "node:fs/promises"
import { readConfigFile } from "./ConfigFiles.ts"
import { invalidAt } from "./ProvidersFileInvalid.ts"
import { type ResolveContext, resolveSecret, SecretSource } from "./Secret.ts"
import { TlsFiles } from "./TlsFiles.ts"
import { PublicUrl } from "./Urls.ts"

/** Inter's production host for its business APIs (`/oauth/v2/token`, `/cobranca/v3/…`); its sandbox is `https://cdpj-sandbox.partners.uatinter.co`. */
export const INTER_API = "https://cdpj.partners.bancointer.com.br"

const Identifier = Schema.String.pipe(Schema.check(Schema.isNonEmpty({ message: "must not be empty" }), Schema.isMaxLength(500)))

/** The current account's number, sent as `x-conta-corrente` when the application serves more than one account. */
const ContaCorrente = Schema.String.pipe(Schema.check(Schema.isPattern(/^\d{1,20}$/, { message: "must be the account number's digits" })))

export const BoletoEntry = Schema.Struct({
  provider: Schema.Literals(["inter"]).annotate({ message: "must be inter" }),
  clientId: Identifier,
  clientSecret: SecretSource,
  certificate: TlsFiles,
  contaCorrente: Schema.optionalKey(ContaCorrente),
  // The same rule as the engine's own URL: https://, or http:// on a loopback host (a test's fake).
  baseUrl: Schema.optionalKey(PublicUrl)
})
export type BoletoEntry = typeof BoletoEntry.Type

/** The boleto bank, everything read: what `InterBoletoIssuer` takes. */
export interface BoletoBankConfig {
  readonly provider: "inter"
  readonly clientId: string
  readonly clientSecret: Redacted.Redacted<string>
  readonly certificate: Certificates.ClientCertificate
  /** The bank's CA certificates, PEM, when the entry names one; else the public roots. */
  readonly ca: string | undefined
  readonly contaCorrente: string | undefined
  /** Without a trailing slash. */
  readonly baseUrl: string
}

const readText = (file: string, path: ReadonlyArray<PropertyKey>, baseDir: string) => readConfigFile(file, path, baseDir, (absolute) => readFile(absolute, "utf8"))

/** The client certificate (and CA) the `tls` files at `at` name, each failure naming its key. */
export const readClientCertificate = Effect.fnUntraced(function*(tls: TlsFiles, at: ReadonlyArray<PropertyKey>, context: ResolveContext) {
  let certificate: Result.Result<Certificates.ClientCertificate, { readonly field: string; readonly reason: string }>
  if (tls.pfx !== undefined) {
    const der = yield* readConfigFile(tls.pfx, [...at, "pfx"], context.baseDir, (absolute) => readFile(absolute))
    const passphrase = tls.passphrase === undefined ? undefined : yield* resolveSecret(tls.passphrase, [...at, "passphrase"], context)
    certificate = Certificates.fromPkcs12(der, passphrase === undefined ? undefined : Redacted.value(passphrase))
  } else {
    const cert = yield* readText(tls.cert!, [...at, "cert"], context.baseDir)
    const key = yield* readText(tls.key!, [...at, "key"], context.baseDir)
    certificate = Certificates.fromPem(cert, key)
  }
  if (Result.isFailure(certificate)) return yield* invalidAt([...at, certificate.failure.field], certificate.failure.reason)
  const ca = tls.ca === undefined ? undefined : yield* readText(tls.ca, [...at, "ca"], context.baseDir)
  if (ca !== undefined && !ca.includes("-----BEGIN CERTIFICATE-----")) return yield* invalidAt([...at, "ca"], "not a PEM certificate")
  return { certificate: certificate.success, ca }
})

/** The decoded entry with its secret resolved and its certificate read (`LoadProviders` calls it for the file's `boleto`). */
export const resolveBoletoEntry = Effect.fnUntraced(function*(entry: BoletoEntry, context: ResolveContext) {
  const clientSecret = yield* resolveSecret(entry.clientSecret, ["boleto", "clientSecret"], context)
  const { ca, certificate } = yield* readClientCertificate(entry.certificate, ["boleto", "certificate"], context)
  return {
    provider: entry.provider,
    clientId: entry.clientId,
    clientSecret,
    certificate,
    ca,
    contaCorrente: entry.contaCorrente,
    baseUrl: entry.baseUrl ?? INTER_API
  } satisfies BoletoBankConfig
})
