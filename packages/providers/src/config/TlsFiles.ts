/**
 * A PSP entry's client certificate for mutual TLS: a PKCS#12 file
 * (`{ pfx, passphrase }`) or a PEM pair (`{ cert, key }`), and optionally the
 * PSP's CA (`ca`) when its server certificate is not signed by a public
 * root. Paths are absolute or relative to the providers file.
 */
import { Schema } from "effect"
import { FilePath, SecretSource } from "./Secret.ts"

export const TlsFiles = Schema.Struct({
  pfx: Schema.optionalKey(FilePath),
  passphrase: Schema.optionalKey(SecretSource),
  cert: Schema.optionalKey(FilePath),
  key: Schema.optionalKey(FilePath),
  ca: Schema.optionalKey(FilePath)
}).check(Schema.makeFilter((tls) => {
  if (tls.pfx !== undefined) {
    if (tls.cert !== undefined) return { path: ["cert"], issue: "give either pfx or cert and key, not both" }
    if (tls.key !== undefined) return { path: ["key"], issue: "give either pfx or cert and key, not both" }
    return undefined
  }
  if (tls.passphrase !== undefined) return { path: ["passphrase"], issue: "goes with pfx (a PEM key is read unencrypted)" }
  if (tls.cert === undefined && tls.key === undefined) return { path: ["pfx"], issue: "missing (give pfx, or cert and key)" }
  if (tls.cert === undefined) return { path: ["cert"], issue: "missing (key goes with cert)" }
  if (tls.key === undefined) return { path: ["key"], issue: "missing (cert goes with key)" }
  return undefined
}))
export type TlsFiles = typeof TlsFiles.Type
