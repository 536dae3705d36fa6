/**
 * The issuer's A1 certificate, read when a configuration is saved so that a
 * certificate which could never sign a DPS is refused then, not at the first
 * note: a file that does not open (legacy RC2-40 files open), a wrong
 * password, a certificate outside its validity, or one whose ICP-Brasil
 * CNPJ is not the issuer's. Each is 400 `NF_CONFIG_SYNC_FAILED` with the
 * field and a `reason` a client can act on.
 */
import { Redacted, Result } from "effect"
import { Base64 } from "effect/encoding"
import { fromPkcs12 } from "../certificates/ClientCertificate.ts"
import { validityAt } from "../certificates/CertificateInfo.ts"
import { NfConfigSyncFailed, type StoredCertificate } from "../domain/NfseConfig.ts"

export type CertificateRefusal =
  | "CERTIFICATE_UNREADABLE"
  | "CERTIFICATE_WRONG_PASSWORD"
  | "CERTIFICATE_EXPIRED"
  | "CERTIFICATE_NOT_YET_VALID"
  | "CERTIFICATE_CNPJ_MISMATCH"

export const refused = (reason: CertificateRefusal, field: string, message: string) =>
  new NfConfigSyncFailed({ message, details: { field, reason } })

/** Reads the certificate sent for the issuer `cnpj` at `nowMs`. */
export const readIssuerCertificate = (
  sent: { readonly pfxBase64: string; readonly password: string },
  cnpj: string,
  nowMs: number
): Result.Result<StoredCertificate, NfConfigSyncFailed> => {
  const der = Base64.decode(sent.pfxBase64.replace(/\s+/g, ""))
  if (Result.isFailure(der) || der.success.length === 0) {
    return Result.fail(refused("CERTIFICATE_UNREADABLE", "certificate.pfx_base64", "Certificado ilegível: pfx_base64 não é base64"))
  }
  const read = fromPkcs12(der.success, sent.password)
  if (Result.isFailure(read)) {
    return Result.fail(read.failure.reason === "wrong passphrase"
      ? refused("CERTIFICATE_WRONG_PASSWORD", "certificate.password", "Senha do certificado incorreta")
      : refused("CERTIFICATE_UNREADABLE", "certificate.pfx_base64", `Certificado ilegível: ${read.failure.reason}`))
  }
  const leaf = read.success.leaf
  const validity = validityAt(leaf, nowMs)
  if (validity._tag === "Expired") {
    return Result.fail(refused("CERTIFICATE_EXPIRED", "certificate.pfx_base64", `Certificado vencido em ${leaf.notAfter.toISOString()}`))
  }
  if (validity._tag === "NotYetValid") {
    return Result.fail(refused("CERTIFICATE_NOT_YET_VALID", "certificate.pfx_base64", `Certificado válido só a partir de ${leaf.notBefore.toISOString()}`))
  }
  const mismatch = certificateCnpjProblem(leaf.cnpj, cnpj)
  if (mismatch !== undefined) return Result.fail(mismatch)
  return Result.succeed({
    pfxBase64: Redacted.make(sent.pfxBase64),
    password: Redacted.make(sent.password),
    cnpj: leaf.cnpj ?? cnpj,
    expiresAt: leaf.notAfter
  })
}

/**
 * Why a certificate of `certificateCnpj` cannot sign for the issuer `cnpj`:
 * the national system accepts a DPS signed by the issuer's own e-CNPJ, so
 * the two must be the same CNPJ (also checked when an update changes
 * `prestador.cnpj` and keeps the stored certificate).
 */
export const certificateCnpjProblem = (certificateCnpj: string | undefined, cnpj: string): NfConfigSyncFailed | undefined =>
  certificateCnpj === undefined
    ? refused("CERTIFICATE_CNPJ_MISMATCH", "certificate.pfx_base64", "O certificado não traz CNPJ (ICP-Brasil, OID 2.16.76.1.3.3)")
    : certificateCnpj.toUpperCase() === cnpj.toUpperCase()
    ? undefined
    : refused("CERTIFICATE_CNPJ_MISMATCH", "prestador.cnpj", `O certificado é do CNPJ ${certificateCnpj}, não de prestador.cnpj ${cnpj}`)
