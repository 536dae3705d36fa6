/**
 * The DPS signature as a verifier outside the engine sees it: `xml-crypto`
 * (its own parser and canonicalizer) verifies it with the issuer
 * certificate's public key for both algorithms and both kinds of PKCS#12
 * file, a changed value breaks it, the signed DPS still validates against
 * the official schema, and the `dpsXmlGZipB64` form gives back the same
 * bytes.
 */
import { DOMParser, type Element } from "@xmldom/xmldom"
import { Redacted, Result } from "effect"
import { gunzipSync } from "node:zlib"
import { describe, expect, it } from "vitest"
import type { StoredCertificate } from "@billing/core"
import { dpsXml } from "@billing/core/nfse/DpsXml"
import { nota, options, settings } from "../../../core/test/nfse/DpsFixtures.ts"
import { validateAgainst } from "../../../core/test/nfse/NfseSchemas.ts"
import { gunzipBase64, gzipBase64, readCertificate, type SignatureAlgorithm, signDps } from "../../src/nfse/DpsSignature.ts"
import { makeTestPki, MERCHANT_CNPJ } from "../support/TestCertificates.ts"
import { DSIG, verifies as verifiesWith } from "./SignatureCheck.ts"

const pki = makeTestPki()

const stored = (pfx: Buffer): StoredCertificate => ({
  pfxBase64: Redacted.make(pfx.toString("base64")),
  password: Redacted.make(pki.passphrase),
  cnpj: MERCHANT_CNPJ,
  expiresAt: pki.notAfter
})

const unsigned = (() => {
  const built = dpsXml(
    settings,
    { ...nota, descricao: `Consultoria <fase 1> & "suporte"\r\nação e manutenção`, tomador: { ...nota.tomador, name: "José D'Ávila & Filhos" } },
    options
  )
  if (Result.isFailure(built)) throw new Error(built.failure.message)
  return built.success
})()

const sign = (pfx: Buffer, algorithm: SignatureAlgorithm) => {
  const certificate = readCertificate(stored(pfx))
  if (Result.isFailure(certificate)) throw new Error(certificate.failure.message)
  const signed = signDps(unsigned.xml, certificate.success, algorithm)
  if (Result.isFailure(signed)) throw new Error(signed.failure.message)
  return signed.success
}

/** Whether xml-crypto accepts the signature with the certificate made in the test (not the one in KeyInfo). */
const verifies = (xml: string) => verifiesWith(xml, pki.client.certPem)

const cases: ReadonlyArray<readonly [string, Buffer, SignatureAlgorithm, string, string]> = [
  ["modern PKCS#12, RSA-SHA1", pki.client.pfx, "RSA-SHA1", `${DSIG}rsa-sha1`, `${DSIG}sha1`],
  ["modern PKCS#12, RSA-SHA256", pki.client.pfx, "RSA-SHA256", "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256", "http://www.w3.org/2001/04/xmlenc#sha256"],
  ["legacy RC2-40 PKCS#12, RSA-SHA1", pki.client.legacyPfx, "RSA-SHA1", `${DSIG}rsa-sha1`, `${DSIG}sha1`],
  ["legacy RC2-40 PKCS#12, RSA-SHA256", pki.client.legacyPfx, "RSA-SHA256", "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256", "http://www.w3.org/2001/04/xmlenc#sha256"]
]

describe("DPS signature", () => {
  it.each(cases)("%s: xml-crypto verifies it and the signed DPS validates", async (_, pfx, algorithm, signatureUri, digestUri) => {
    const signed = sign(pfx, algorithm)
    expect(verifies(signed)).toBe(true)
    expect(await validateAgainst("DPS_v1.01.xsd", signed)).toEqual({ valid: true, errors: [] })

    const doc = new DOMParser().parseFromString(signed, "text/xml")
    const root = doc.documentElement!
    // infDPS, then Signature, nothing else.
    expect(Array.from(root.childNodes).map((node) => (node as Element).localName)).toEqual(["infDPS", "Signature"])
    const attribute = (name: string) => doc.getElementsByTagNameNS(DSIG, name)[0]!.getAttribute("Algorithm")
    expect(attribute("SignatureMethod")).toBe(signatureUri)
    expect(attribute("DigestMethod")).toBe(digestUri)
    expect(attribute("CanonicalizationMethod")).toBe("http://www.w3.org/TR/2001/REC-xml-c14n-20010315")
    expect(Array.from(doc.getElementsByTagNameNS(DSIG, "Transform")).map((node) => node.getAttribute("Algorithm"))).toEqual([
      "http://www.w3.org/2000/09/xmldsig#enveloped-signature",
      "http://www.w3.org/TR/2001/REC-xml-c14n-20010315"
    ])
    expect(doc.getElementsByTagNameNS(DSIG, "Reference")[0]!.getAttribute("URI")).toBe(`#${unsigned.id}`)
    const keyInfoCertificate = doc.getElementsByTagNameNS(DSIG, "X509Certificate")[0]!.textContent
    expect(keyInfoCertificate).toBe(pki.client.certPem.replace(/-----[A-Z ]+-----|\s/g, ""))
  })

  it("fails once a signed value changes, or the signature was made by another key", () => {
    const signed = sign(pki.client.pfx, "RSA-SHA256")
    expect(signed).toContain("<vServ>1234.56</vServ>")
    expect(verifies(signed.replace("<vServ>1234.56</vServ>", "<vServ>1234.57</vServ>"))).toBe(false)
    expect(verifies(signed.replace("<nDPS>42</nDPS>", "<nDPS>43</nDPS>"))).toBe(false)
    const other = makeTestPki()
    const certificate = readCertificate({ ...stored(other.client.pfx), password: Redacted.make(other.passphrase) })
    const byOther = Result.flatMap(certificate, (read) => signDps(unsigned.xml, read, "RSA-SHA256"))
    expect(Result.isSuccess(byOther) && verifies(byOther.success)).toBe(false)
  })

  it("refuses a certificate it cannot open", () => {
    const wrong = readCertificate({ ...stored(pki.client.pfx), password: Redacted.make("errada") })
    expect(Result.isFailure(wrong) && wrong.failure.message).toMatch(/wrong passphrase/)
  })

  it("gzip + base64 of the signed DPS round-trips byte for byte", () => {
    const signed = sign(pki.client.legacyPfx, "RSA-SHA1")
    const body = gzipBase64(signed)
    expect(body).toMatch(/^[A-Za-z0-9+/]+=*$/)
    // Decoded by zlib directly, not by our own inverse.
    expect(gunzipSync(Buffer.from(body, "base64")).equals(Buffer.from(signed, "utf8"))).toBe(true)
    expect(gunzipBase64(body)).toEqual(Result.succeed(signed))
    expect(Result.isFailure(gunzipBase64("bm90IGd6aXA="))).toBe(true)
  })
})
