/**
 * The providers file's `boleto` entry: the one bank that registers the
 * installation's boletos. Banco Inter only for now; `provider` names it so
 * that a second bank is one more member of this union, not a new key. Its
 * client certificate is its `tls`, as a Pix entry's (`pfx` and `passphrase`,
 * or `cert` and `key`, and an optional `ca`).
 */
import { Effect, Schema } from "effect"
import type { BoletoBankConfig } from "./ProvidersConfig.ts"
import { type ResolveContext, resolveSecret, SecretSource } from "./Secret.ts"
import { readClientCertificate, TlsFiles } from "./TlsFiles.ts"
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
  tls: TlsFiles,
  contaCorrente: Schema.optionalKey(ContaCorrente),
  // The same rule as the engine's own URL: https://, or http:// on a loopback host (a test's fake).
  baseUrl: Schema.optionalKey(PublicUrl)
})
export type BoletoEntry = typeof BoletoEntry.Type


/** The decoded entry with its secret resolved and its certificate read (`LoadProviders` calls it for the file's `boleto`). */
export const resolveBoletoEntry = Effect.fnUntraced(function*(entry: BoletoEntry, context: ResolveContext) {
  const clientSecret = yield* resolveSecret(entry.clientSecret, ["boleto", "clientSecret"], context)
  const { ca, certificate } = yield* readClientCertificate(entry.tls, ["boleto", "tls"], context)
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
