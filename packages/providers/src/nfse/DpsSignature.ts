/**
 * The XMLDSig enveloped signature the national NFS-e system asks of a DPS
 * (and of an event request): over the element that carries the `Id`
 * (`infDPS`, `infPedReg`), `Reference URI="#Id"`, the transforms
 * enveloped-signature and inclusive Canonical XML 1.0, the issuer's
 * certificate in `KeyInfo/X509Data/X509Certificate`, and the digest and
 * signature algorithm a setting (RSA-SHA1 and RSA-SHA256 are both reported
 * in use). The `Signature` element follows the signed one inside the root
 * (`TCDPS`: `infDPS`, then `ds:Signature`).
 *
 * Also the transport form of `POST /nfse`: the signed XML gzipped, in
 * base64 (`dpsXmlGZipB64`).
 */
import { Certificates, type StoredCertificate } from "@billing/core"
import { NFSE_NAMESPACE } from "@billing/core/nfse/DpsXml"
import { Redacted, Result, Schema } from "effect"
import { createHash, createSign } from "node:crypto"
import { gunzipSync, gzipSync } from "node:zlib"

export const SignatureAlgorithm = Schema.Literals(["RSA-SHA1", "RSA-SHA256"])
export type SignatureAlgorithm = typeof SignatureAlgorithm.Type

/** The certificate could not be read, or the document is not one this module can sign. */
export class DpsSignatureError extends Schema.TaggedError<DpsSignatureError>()("DpsSignatureError", {
  message: Schema.String
}) {}

const DSIG = "http://www.w3.org/2000/09/xmldsig#"
const C14N = "http://www.w3.org/TR/2001/REC-xml-c14n-20010315"
const ENVELOPED = "http://www.w3.org/2000/09/xmldsig#enveloped-signature"

const ALGORITHMS: Record<SignatureAlgorithm, { readonly signature: string; readonly digest: string; readonly hash: string }> = {
  "RSA-SHA1": { signature: `${DSIG}rsa-sha1`, digest: `${DSIG}sha1`, hash: "sha1" },
  "RSA-SHA256": { signature: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256", digest: "http://www.w3.org/2001/04/xmlenc#sha256", hash: "sha256" }
}

/** The issuer's key and certificate, read from the configuration's PKCS#12 (legacy RC2-40 files included). */
export const readCertificate = (stored: StoredCertificate): Result.Result<Certificates.ClientCertificate, DpsSignatureError> => {
  const read = Certificates.fromPkcs12(Buffer.from(Redacted.value(stored.pfxBase64), "base64"), Redacted.value(stored.password))
  return Result.mapError(read, (problem) => new DpsSignatureError({ message: `Certificado do emissor ilegível: ${problem.reason}` }))
}

/** The leaf certificate's DER in base64, as `X509Certificate` carries it: the first PEM of the chain without its armour. */
const certificateBase64 = (certificate: Certificates.ClientCertificate): string =>
  /-----BEGIN CERTIFICATE-----([\s\S]+?)-----END CERTIFICATE-----/.exec(certificate.chain)?.[1]?.replace(/\s+/g, "") ?? ""

const signedInfo = (algorithm: SignatureAlgorithm, id: string, digest: string): string =>
  `<SignedInfo>` +
  `<CanonicalizationMethod Algorithm="${C14N}"></CanonicalizationMethod>` +
  `<SignatureMethod Algorithm="${ALGORITHMS[algorithm].signature}"></SignatureMethod>` +
  `<Reference URI="#${id}">` +
  `<Transforms><Transform Algorithm="${ENVELOPED}"></Transform><Transform Algorithm="${C14N}"></Transform></Transforms>` +
  `<DigestMethod Algorithm="${ALGORITHMS[algorithm].digest}"></DigestMethod>` +
  `<DigestValue>${digest}</DigestValue>` +
  `</Reference>` +
  `</SignedInfo>`

/**
 * The canonical form (inclusive C14N 1.0) of an element the engine wrote
 * itself (`DpsXml`, `CancelEvent`), computed without a parser. It is the
 * element as written with the default namespace it inherits declared on
 * it, because the engine writes it that way already:
 * - a subtree's apex carries the namespace nodes in scope; the only one is
 *   the root's default namespace, and no descendant redeclares it (the
 *   `xml` namespace is never written);
 * - namespace declarations come before attributes, and the apex has one
 *   attribute (`Id`), its descendants none, so there is nothing to sort;
 * - no XML declaration, no whitespace between elements, no comments;
 * - empty elements are written as start and end tags, never `<a/>`;
 * - text is escaped as C14N escapes it (`&amp;`, `&lt;`, `&gt;`, quotes
 *   literal) and line ends are already `\n` (`escapeText`);
 * - attribute values are digits and letters, with nothing to escape.
 * A document from elsewhere would need a real canonicalizer: this one
 * refuses any start tag not of the form `<name Id="…">`.
 */
const canonicalForm = (xml: string, name: string): Result.Result<{ readonly id: string; readonly canonical: string; readonly end: number }, DpsSignatureError> => {
  const start = /<([A-Za-z]+) Id="([A-Za-z0-9]+)">/.exec(xml)
  const closing = `</${name}>`
  const end = xml.indexOf(closing)
  if (start === null || start[1] !== name || end < start.index) {
    return Result.fail(new DpsSignatureError({ message: `o documento não tem <${name} Id="…"> escrito pelo motor` }))
  }
  const id = start[2]!
  const content = xml.slice(start.index + start[0].length, end)
  return Result.succeed({ id, canonical: `<${name} xmlns="${NFSE_NAMESPACE}" Id="${id}">${content}${closing}`, end: end + closing.length })
}

/**
 * Signs the element `name` of `xml` (written by the engine) and puts the
 * `Signature` right after it.
 */
export const signEnveloped = (
  xml: string,
  name: string,
  certificate: Certificates.ClientCertificate,
  algorithm: SignatureAlgorithm
): Result.Result<string, DpsSignatureError> =>
  Result.flatMap(canonicalForm(xml, name), ({ canonical, end, id }) => {
    const { hash } = ALGORITHMS[algorithm]
    const info = signedInfo(algorithm, id, createHash(hash).update(canonical, "utf8").digest("base64"))
    // SignedInfo's canonical form: itself with the default namespace it
    // inherits from Signature (the same reasoning as `canonicalForm`).
    const canonicalInfo = info.replace("<SignedInfo>", `<SignedInfo xmlns="${DSIG}">`)
    return Result.try({
      try: () => createSign(hash).update(canonicalInfo, "utf8").sign(Redacted.value(certificate.key), "base64"),
      catch: (error) => new DpsSignatureError({ message: `assinatura falhou: ${error instanceof Error ? error.message : String(error)}` })
    }).pipe(Result.map((value) =>
      xml.slice(0, end) +
      `<Signature xmlns="${DSIG}">${info}<SignatureValue>${value}</SignatureValue>` +
      `<KeyInfo><X509Data><X509Certificate>${certificateBase64(certificate)}</X509Certificate></X509Data></KeyInfo></Signature>` +
      xml.slice(end)
    ))
  })

/** Signs a DPS (`infDPS`). */
export const signDps = (xml: string, certificate: Certificates.ClientCertificate, algorithm: SignatureAlgorithm) =>
  signEnveloped(xml, "infDPS", certificate, algorithm)

/** The body field of `POST /nfse`: the XML's UTF-8 bytes gzipped, in base64. */
export const gzipBase64 = (xml: string): string => gzipSync(Buffer.from(xml, "utf8")).toString("base64")

/** The inverse of `gzipBase64`, for the NFS-e the system answers with (`nfseXmlGZipB64`). */
export const gunzipBase64 = (value: string): Result.Result<string, DpsSignatureError> =>
  Result.try({
    try: () => gunzipSync(Buffer.from(value, "base64")).toString("utf8"),
    catch: () => new DpsSignatureError({ message: "o conteúdo não é gzip em base64" })
  })
