/**
 * The merchants' e-CNPJ certificates (A1, as a PKCS#12 file and as PEM),
 * made in process with the test suite's own helpers: each carries its
 * holder's CNPJ in ICP-Brasil's otherName, so a fiscal configuration of the
 * merchant reads it as the issuer's. Valid three years from the run's start,
 * whatever the wall clock says: the engine checks them on simulated time.
 *
 * Their keys are random (Node's crypto); nothing the digest hashes depends
 * on them. Made once per CNPJ and process: a key pair costs tens of
 * milliseconds, and every run of a test file shares them.
 */
import { cnpjAltName, issue, keyPair, pkcs12, toPem } from "../packages/providers/test/support/TestCertificates.ts"

const DAY = 86_400_000
const PASSPHRASE = "senha-simulada"

export interface IssuerCertificate {
  readonly cnpj: string
  readonly pfxBase64: string
  readonly password: string
  readonly certPem: string
  readonly keyPem: string
}

const made = new Map<string, IssuerCertificate>()

/** The certificate of the holder of `cnpj`, valid from a day before `start` for three years. */
export const issuerCertificate = (cnpj: string, start: number): IssuerCertificate => {
  const key = `${cnpj}@${start}`
  const cached = made.get(key)
  if (cached !== undefined) return cached
  const pair = keyPair()
  const cert = issue(pair, undefined, {
    subject: [{ shortName: "C", value: "BR" }, { shortName: "O", value: "ICP-Brasil" }, { shortName: "CN", value: `LOJA SIMULADA:${cnpj}` }],
    notBefore: new Date(start - DAY),
    notAfter: new Date(start + 3 * 365 * DAY),
    serial: "0a",
    extensions: [{ id: "2.5.29.17", value: cnpjAltName(cnpj) }, { name: "extKeyUsage", clientAuth: true }]
  })
  const certificate: IssuerCertificate = {
    cnpj,
    pfxBase64: pkcs12(pair, [cert], PASSPHRASE).toString("base64"),
    password: PASSPHRASE,
    certPem: toPem(cert),
    keyPem: pair.privateKeyPem
  }
  made.set(key, certificate)
  return certificate
}
