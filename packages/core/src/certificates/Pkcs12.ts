/**
 * PKCS#12 (`.pfx`, `.p12`) to PEM, in-process with node-forge. PSPs and
 * ICP-Brasil certificate authorities still hand out `.p12` files whose
 * certificates are encrypted with RC2-40, which OpenSSL 3 (and so Node's
 * `tls`) refuses without its legacy provider; forge reads them, and the
 * PEM it gives works with any TLS stack.
 */
import forge from "node-forge"
import { Result } from "effect"

export interface PemBundle {
  /** The private key, PKCS#8 PEM. */
  readonly key: string
  /** Every certificate in the file, PEM, in the file's order. */
  readonly certificates: ReadonlyArray<string>
}

const bagsOf = (p12: forge.pkcs12.Pkcs12Pfx, bagType: string) => p12.getBags({ bagType })[bagType] ?? []

/** The key of a bag as PKCS#8 PEM, whatever its algorithm (forge parses only RSA keys; others stay ASN.1). */
const keyPem = (bag: forge.pkcs12.Bag) =>
  bag.key !== undefined && bag.key !== null
    ? forge.pki.privateKeyInfoToPem(forge.pki.wrapRsaPrivateKey(forge.pki.privateKeyToAsn1(bag.key)))
    : bag.asn1 === undefined
    ? undefined
    : forge.pki.privateKeyInfoToPem(bag.asn1)

const certificatePem = (bag: forge.pkcs12.Bag) =>
  bag.cert !== undefined && bag.cert !== null
    ? forge.pki.certificateToPem(bag.cert)
    : bag.asn1 === undefined
    ? undefined
    : forge.pem.encode({ type: "CERTIFICATE", body: forge.asn1.toDer(bag.asn1).getBytes() })

/** What forge's exception says, as the reason an operator can act on. */
const reasonOf = (error: unknown) => {
  const message = error instanceof Error ? error.message : String(error)
  if (/MAC could not be verified|Invalid password/i.test(message)) return "wrong passphrase"
  if (/Too few bytes|ASN\.1|not a valid|Unparsed DER/i.test(message)) return "not a PKCS#12 file"
  return `unreadable PKCS#12 (${message})`
}

/** The key and certificates of a PKCS#12 file, or why they cannot be read. */
export const pkcs12ToPem = (der: Uint8Array, passphrase: string | undefined): Result.Result<PemBundle, string> => {
  let p12: forge.pkcs12.Pkcs12Pfx
  try {
    p12 = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(forge.util.binary.raw.encode(der)), false, passphrase ?? "")
  } catch (error) {
    return Result.fail(reasonOf(error))
  }
  const keys = [...bagsOf(p12, forge.pki.oids.pkcs8ShroudedKeyBag!), ...bagsOf(p12, forge.pki.oids.keyBag!)]
    .map(keyPem)
    .filter((pem): pem is string => pem !== undefined)
  const certificates = bagsOf(p12, forge.pki.oids.certBag!).map(certificatePem).filter((pem): pem is string => pem !== undefined)
  if (keys.length === 0) return Result.fail("no private key in the PKCS#12 file")
  if (certificates.length === 0) return Result.fail("no certificate in the PKCS#12 file")
  return Result.succeed({ key: keys[0]!, certificates })
}
