/**
 * A PSP entry's client certificate for mutual TLS: a PKCS#12 file
 * (`{ pfx, passphrase }`) or a PEM pair (`{ cert, key }`), and optionally the
 * PSP's CA (`ca`) when its server certificate is not signed by a public
 * root. Paths are absolute or relative to the providers file.
 */
import { Certificates } from "@billing/core"
import { Effect, Redacted, Result, Schema } from "effect"
import { readFile } from "node:fs/promises"
import { readConfigFile } from "./ConfigFiles.ts"
import { invalidAt } from "./ProvidersFileInvalid.ts"
import { FilePath, type ResolveContext, resolveSecret, SecretSource } from "./Secret.ts"

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

const readText = (file: string, path: ReadonlyArray<PropertyKey>, baseDir: string) => readConfigFile(file, path, baseDir, (absolute) => readFile(absolute, "utf8"))

/** The client certificate (and CA) the `tls` files at `at` name (a PSP's, the bank's), each failure naming its key. */
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

