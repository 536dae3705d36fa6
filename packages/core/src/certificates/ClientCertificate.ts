/**
 * A PSP entry's client certificate, read into what a TLS connection takes:
 * the private key and the certificate chain as PEM (a PKCS#12 file is
 * converted, legacy ones included), and the leaf certificate described.
 */
import { Redacted, Result } from "effect"
import { createPrivateKey, X509Certificate } from "node:crypto"
import { type CertificateInfo, describeCertificate } from "./CertificateInfo.ts"
import { pkcs12ToPem } from "./Pkcs12.ts"

export interface ClientCertificate {
  /** The private key, PEM; redacted so that no log or error can print it. */
  readonly key: Redacted.Redacted<string>
  /** The client certificate first, then whatever chain came with it, PEM. */
  readonly chain: string
  readonly leaf: CertificateInfo
}

/** A read failure: which file (`cert`, `key`, `pfx`) and why. */
export interface CertificateProblem {
  readonly field: "pfx" | "cert" | "key"
  readonly reason: string
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g

const parseCertificates = (pems: ReadonlyArray<string>) => {
  try {
    return pems.map((pem) => new X509Certificate(pem))
  } catch {
    return undefined
  }
}

/** The key's certificate first: a PKCS#12 file may list the chain in any order. */
const leafFirst = (certificates: ReadonlyArray<X509Certificate>, keyPem: string) => {
  const key = createPrivateKey(keyPem)
  const leaf = certificates.find((certificate) => certificate.checkPrivateKey(key))
  return leaf === undefined ? undefined : [leaf, ...certificates.filter((certificate) => certificate !== leaf)]
}

const assemble = (keyPem: string, certificates: ReadonlyArray<X509Certificate>, field: CertificateProblem["field"]): Result.Result<ClientCertificate, CertificateProblem> => {
  const ordered = leafFirst(certificates, keyPem)
  if (ordered === undefined) return Result.fail({ field, reason: "no certificate matches the private key" })
  return Result.succeed({
    key: Redacted.make(keyPem),
    chain: ordered.map((certificate) => certificate.toString()).join(""),
    leaf: describeCertificate(ordered[0]!)
  })
}

/** From a PKCS#12 file's bytes and its passphrase. */
export const fromPkcs12 = (der: Uint8Array, passphrase: string | undefined): Result.Result<ClientCertificate, CertificateProblem> => {
  const bundle = pkcs12ToPem(der, passphrase)
  if (Result.isFailure(bundle)) return Result.fail({ field: "pfx", reason: bundle.failure })
  const certificates = parseCertificates(bundle.success.certificates)
  if (certificates === undefined) return Result.fail({ field: "pfx", reason: "a certificate in the PKCS#12 file cannot be read" })
  return assemble(bundle.success.key, certificates, "pfx")
}

/** From a PEM certificate file (the chain may follow the certificate) and an unencrypted PEM key file. */
export const fromPem = (certText: string, keyText: string): Result.Result<ClientCertificate, CertificateProblem> => {
  const certificates = parseCertificates(certText.match(PEM_CERTIFICATE) ?? [])
  if (certificates === undefined || certificates.length === 0) return Result.fail({ field: "cert", reason: "not a PEM certificate" })
  try {
    createPrivateKey(keyText)
  } catch (error) {
    const encrypted = /passphrase|encrypted/i.test(String((error as Error).message))
    return Result.fail({ field: "key", reason: encrypted ? "the key is encrypted: give it unencrypted, or use a PKCS#12 file with a passphrase" : "not a PEM private key" })
  }
  return assemble(keyText, certificates, "key")
}
