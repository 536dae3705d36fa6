/** One PSP of the providers file's `pix` list: where it is, how to get a token, the certificate, the receiving key. */
import { Schema } from "effect"
import { PspProfileName, PspProfiles } from "../pix/PixProfiles.ts"
import { ReceivingKey } from "./ReceivingKey.ts"
import { SecretSource } from "./Secret.ts"
import { TlsFiles } from "./TlsFiles.ts"
import { HttpsUrl, PixBaseUrl } from "./Urls.ts"

/** A PSP's name: it appears in the callback URL (`/psp/pix/{name}/…`) and in logs, so URL-safe and short. */
export const PspName = Schema.String.pipe(Schema.check(
  Schema.isPattern(/^[a-z0-9-]+$/, { message: "must be lowercase letters, digits and dashes" }),
  Schema.isMaxLength(40)
))

/** An OAuth2 scope token (RFC 6749 §3.3: printable ASCII without space, quote or backslash). */
const Scope = Schema.String.pipe(Schema.check(Schema.isPattern(/^[\x21\x23-\x5B\x5D-\x7E]+$/, { message: "must be one scope, without spaces" })))

const Identifier = Schema.String.pipe(Schema.check(Schema.isNonEmpty({ message: "must not be empty" }), Schema.isMaxLength(500)))

export const PixPspEntry = Schema.Struct({
  name: PspName,
  profile: PspProfileName,
  baseUrl: PixBaseUrl,
  tokenUrl: HttpsUrl,
  clientId: Identifier,
  clientSecret: Schema.optionalKey(SecretSource),
  pixKey: ReceivingKey,
  tls: TlsFiles,
  scopes: Schema.optionalKey(Schema.Array(Scope).pipe(Schema.check(Schema.isMaxLength(50)))),
  appKey: Schema.optionalKey(Identifier)
}).check(Schema.makeFilter((entry) => {
  const profile = PspProfiles[entry.profile]
  if (entry.clientSecret === undefined && !profile.secretless) return { path: ["clientSecret"], issue: "missing" }
  if (entry.appKey === undefined && profile.appKeyParameter !== undefined) return { path: ["appKey"], issue: `missing (the ${entry.profile} profile sends it on every call)` }
  return undefined
}))
export type PixPspEntry = typeof PixPspEntry.Type
