/**
 * What `billing providers check` says about a client certificate: who it
 * names, the CNPJ when it is an ICP-Brasil company certificate, and how long
 * it stays valid. Node's own X.509 parser reads subject and dates (any key
 * algorithm); the CNPJ is in an extension it does not decode.
 */
import { X509Certificate } from "node:crypto"
import { cnpjOf } from "./IcpBrasil.ts"

export interface CertificateInfo {
  /** The subject as one line, `CN=…, O=…`. */
  readonly subject: string
  readonly cnpj: string | undefined
  readonly notBefore: Date
  readonly notAfter: Date
}

/** Expiring means within this many days: time to order the next certificate before payments stop. */
export const EXPIRY_WARNING_DAYS = 30

const DAY_MS = 86_400_000

export const describeCertificate = (certificate: X509Certificate): CertificateInfo => ({
  subject: certificate.subject.split("\n").reverse().join(", "),
  cnpj: cnpjOf(certificate.raw),
  notBefore: certificate.validFromDate,
  notAfter: certificate.validToDate
})

export type Validity =
  | { readonly _tag: "NotYetValid" }
  | { readonly _tag: "Expired" }
  | { readonly _tag: "Expiring"; readonly days: number }
  | { readonly _tag: "Valid"; readonly days: number }

/** Where `info` stands at `nowMs`; `days` left are whole days, rounded down. */
export const validityAt = (info: CertificateInfo, nowMs: number): Validity => {
  if (nowMs < info.notBefore.getTime()) return { _tag: "NotYetValid" }
  if (nowMs > info.notAfter.getTime()) return { _tag: "Expired" }
  const days = Math.floor((info.notAfter.getTime() - nowMs) / DAY_MS)
  return days < EXPIRY_WARNING_DAYS ? { _tag: "Expiring", days } : { _tag: "Valid", days }
}
