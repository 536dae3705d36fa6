/**
 * Client certificates as PSPs and ICP-Brasil hand them out: PEM pairs,
 * PKCS#12, and the legacy RC2-40 `.p12` that OpenSSL 3 refuses, all read
 * into a key and chain a TLS connection takes, with subject, CNPJ and
 * validity.
 */
import { Redacted, Result } from "effect"
import { X509Certificate } from "node:crypto"
import { createSecureContext } from "node:tls"
import { describe, expect, it } from "vitest"
import { Certificates } from "@billing/core"
import { makeTestPki, MERCHANT_CNPJ } from "./support/TestCertificates.ts"

const { fromPem, fromPkcs12, validityAt } = Certificates

const pki = makeTestPki()
const DAY = 86_400_000

const expectClient = (read: ReturnType<typeof fromPem>) => {
  expect(Result.isSuccess(read), Result.isFailure(read) ? read.failure.reason : "").toBe(true)
  const certificate = Result.getOrThrow(read)
  expect(certificate.leaf.subject).toBe(`CN=LOJA EXEMPLO LTDA:${MERCHANT_CNPJ}, O=ICP-Brasil, C=BR`)
  expect(certificate.leaf.cnpj).toBe(MERCHANT_CNPJ)
  // forge writes validity to the second.
  expect(certificate.leaf.notAfter.getTime()).toBe(Math.floor(pki.notAfter.getTime() / 1000) * 1000)
  // The chain starts with the client's own certificate, whatever order the file used.
  expect(new X509Certificate(certificate.chain).fingerprint256).toBe(new X509Certificate(pki.client.certPem).fingerprint256)
  // What Node's TLS takes: the key and chain load into a secure context.
  expect(() => createSecureContext({ key: Redacted.value(certificate.key), cert: certificate.chain })).not.toThrow()
  return certificate
}

describe("client certificates", () => {
  it("reads a PEM pair: subject, the CNPJ of the ICP-Brasil otherName, validity", () => {
    expectClient(fromPem(pki.client.certPem, pki.client.keyPem))
  })

  it("reads a PKCS#12 file with its passphrase", () => {
    expectClient(fromPkcs12(pki.client.pfx, pki.passphrase))
  })

  it("reads a legacy RC2-40 .p12, which Node's own TLS (OpenSSL 3) refuses", () => {
    // The file is what it claims: OpenSSL 3 without its legacy provider cannot open it.
    expect(() => createSecureContext({ pfx: pki.client.legacyPfx, passphrase: pki.passphrase })).toThrow()
    expectClient(fromPkcs12(pki.client.legacyPfx, pki.passphrase))
  })

  it("says why a certificate cannot be read", () => {
    expect(fromPkcs12(pki.client.pfx, "wrong")).toEqual(Result.fail({ field: "pfx", reason: "wrong passphrase" }))
    expect(fromPkcs12(Buffer.from("not a pfx"), pki.passphrase)).toEqual(Result.fail({ field: "pfx", reason: "not a PKCS#12 file" }))
    expect(fromPem("hello", pki.client.keyPem)).toEqual(Result.fail({ field: "cert", reason: "not a PEM certificate" }))
    expect(fromPem(pki.client.certPem, "hello")).toEqual(Result.fail({ field: "key", reason: "not a PEM private key" }))
    expect(fromPem(pki.client.certPem, pki.server.keyPem)).toEqual(Result.fail({ field: "key", reason: "no certificate matches the private key" }))
  })

  it("a certificate is expiring within 30 days of its end, expired after it", () => {
    const leaf = Result.getOrThrow(fromPem(pki.client.certPem, pki.client.keyPem)).leaf
    const end = leaf.notAfter.getTime()
    expect(validityAt(leaf, end - 31 * DAY)).toEqual({ _tag: "Valid", days: 31 })
    expect(validityAt(leaf, end - 30 * DAY)).toEqual({ _tag: "Valid", days: 30 })
    expect(validityAt(leaf, end - 30 * DAY + 1)).toEqual({ _tag: "Expiring", days: 29 })
    expect(validityAt(leaf, end)).toEqual({ _tag: "Expiring", days: 0 })
    expect(validityAt(leaf, end + 1)).toEqual({ _tag: "Expired" })
    expect(validityAt(leaf, leaf.notBefore.getTime() - 1)).toEqual({ _tag: "NotYetValid" })
  })
})
