/**
 * The CNPJ an ICP-Brasil certificate carries. DOC-ICP-04 (item 7.1.2.3)
 * puts it in a `subjectAltName` `otherName` with OID `2.16.76.1.3.3`, its
 * value "in 14 positions the CNPJ" of the legal person holding the
 * certificate (e-CNPJ, and equipment or application certificates of a
 * company); the value is a string type (OCTET STRING or PrintableString in
 * the standard, UTF8String in some issuers), so any of them is read.
 */
import { documentKind } from "../brazil/Documents.ts"
import forge from "node-forge"

export const CNPJ_OTHER_NAME = "2.16.76.1.3.3"
const SUBJECT_ALT_NAME = "2.5.29.17"

type Node = forge.asn1.Asn1

const children = (node: Node | undefined): ReadonlyArray<Node> => (node !== undefined && Array.isArray(node.value) ? node.value : [])

/** The bytes of the innermost primitive value of `node` (the otherName's `[0] EXPLICIT` wraps a string type). */
const primitiveText = (node: Node | undefined): string | undefined => {
  let current = node
  for (let depth = 0; current !== undefined && depth < 4; depth++) {
    if (typeof current.value === "string") return current.value
    current = children(current)[0]
  }
  return undefined
}

/** The extensions of a DER certificate: `tbsCertificate`'s `[3] EXPLICIT Extensions`. */
const extensionsOf = (certificate: Node) => {
  const tbs = children(certificate)[0]
  const tagged = children(tbs).find((node) => node.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC && node.type === 3)
  return children(children(tagged)[0])
}

/** The `otherName` values with OID `oid` in the certificate's subjectAltName. */
export const otherNames = (der: Uint8Array, oid: string): ReadonlyArray<string> => {
  try {
    const certificate = forge.asn1.fromDer(forge.util.binary.raw.encode(der))
    const san = extensionsOf(certificate).find((extension) => forge.asn1.derToOid(String(children(extension)[0]?.value)) === SUBJECT_ALT_NAME)
    // extnValue is the last field (after an optional `critical`): an OCTET STRING holding GeneralNames.
    const octets = children(san).at(-1)?.value
    if (typeof octets !== "string") return []
    const names = forge.asn1.fromDer(octets)
    return children(names)
      .filter((name) => name.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC && name.type === 0)
      .filter((name) => forge.asn1.derToOid(String(children(name)[0]?.value)) === oid)
      .map((name) => primitiveText(children(name)[1]))
      .filter((text): text is string => text !== undefined)
  } catch {
    return []
  }
}

/** The certificate holder's CNPJ (14 characters, check digits valid), when it carries one. */
export const cnpjOf = (der: Uint8Array): string | undefined => {
  for (const value of otherNames(der, CNPJ_OTHER_NAME)) {
    const cnpj = value.slice(0, 14).toUpperCase()
    if (documentKind(cnpj) === "CNPJ") return cnpj
  }
  return undefined
}
