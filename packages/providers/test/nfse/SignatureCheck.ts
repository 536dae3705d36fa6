/**
 * Checks an XMLDSig signature as a verifier outside the engine would:
 * `xml-crypto` with its own parser and canonicalizer, the key taken from
 * the certificate the test made (not from the document's `KeyInfo`).
 */
import { DOMParser, XMLSerializer } from "@xmldom/xmldom"
import { SignedXml } from "xml-crypto"

export const DSIG = "http://www.w3.org/2000/09/xmldsig#"

/** Whether the document's (only) signature verifies with `certificatePem`'s public key. */
export const verifies = (xml: string, certificatePem: string): boolean => {
  const signature = new DOMParser().parseFromString(xml, "text/xml").getElementsByTagNameNS(DSIG, "Signature")[0]
  if (signature === undefined) return false
  const verifier = new SignedXml({ publicCert: certificatePem })
  verifier.loadSignature(new XMLSerializer().serializeToString(signature))
  try {
    return verifier.checkSignature(xml)
  } catch {
    return false
  }
}
