/**
 * Certificates made in the test, no files shipped: a CA, the fake PSP's
 * server certificate (for `localhost` and 127.0.0.1), and the merchant's
 * client certificate (an ICP-Brasil style e-CNPJ, the CNPJ in an otherName
 * 2.16.76.1.3.3) as PEM, as a PKCS#12 file and as a legacy RC2-40 `.p12`
 * that OpenSSL 3 refuses. Keys come from Node's crypto (fast); forge signs
 * and packs.
 */
import forge from "node-forge"
import { generateKeyPairSync } from "node:crypto"

const { asn1, pki } = forge

/** forge's PKCS#12 key derivation (RFC 7292 appendix B), which its type definitions leave out. */
const pbe = (pki as unknown as {
  readonly pbe: {
    readonly generatePkcs12Key: (password: string, salt: forge.util.ByteStringBuffer, id: number, iterations: number, bytes: number) => forge.util.ByteStringBuffer
  }
}).pbe

export interface KeyPair {
  readonly privateKeyPem: string
  readonly key: forge.pki.rsa.PrivateKey
  readonly publicKey: forge.pki.rsa.PublicKey
}

export const keyPair = (): KeyPair => {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
  const privateKeyPem = privateKey.export({ type: "pkcs8", format: "pem" }).toString()
  const key = pki.privateKeyFromPem(privateKeyPem) as forge.pki.rsa.PrivateKey
  return { privateKeyPem, key, publicKey: pki.setRsaPublicKey(key.n, key.e) }
}

/** A subjectAltName with ICP-Brasil's CNPJ otherName (value a PrintableString, as DOC-ICP-04 allows). */
export const cnpjAltName = (cnpj: string) =>
  asn1.toDer(
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
      asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [
        asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer("2.16.76.1.3.3").getBytes()),
        asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [asn1.create(asn1.Class.UNIVERSAL, asn1.Type.PRINTABLESTRING, false, cnpj)])
      ])
    ])
  ).getBytes()

export interface CertificateOptions {
  readonly subject: ReadonlyArray<{ readonly shortName: string; readonly value: string }>
  readonly notBefore: Date
  readonly notAfter: Date
  readonly serial: string
  readonly isCa?: boolean
  /** Extensions besides basic constraints. */
  readonly extensions?: ReadonlyArray<object>
}

export const issue = (pair: KeyPair, issuer: { readonly cert: forge.pki.Certificate; readonly key: KeyPair } | undefined, options: CertificateOptions) => {
  const cert = pki.createCertificate()
  cert.publicKey = pair.publicKey
  cert.serialNumber = options.serial
  cert.validity.notBefore = options.notBefore
  cert.validity.notAfter = options.notAfter
  cert.setSubject(options.subject.map((attribute) => ({ ...attribute })))
  cert.setIssuer(issuer === undefined ? options.subject.map((attribute) => ({ ...attribute })) : issuer.cert.subject.attributes)
  cert.setExtensions([{ name: "basicConstraints", cA: options.isCa === true }, ...(options.extensions ?? [])])
  cert.sign((issuer?.key ?? pair).key, forge.md.sha256.create())
  return cert
}

export const toPem = (cert: forge.pki.Certificate) => pki.certificateToPem(cert)

/** A PKCS#12 file as OpenSSL 3 writes by default in spirit: key and certificates encrypted with AES (forge's PBES2), SHA-1 MAC. */
export const pkcs12 = (pair: KeyPair, chain: ReadonlyArray<forge.pki.Certificate>, passphrase: string) =>
  Buffer.from(asn1.toDer(forge.pkcs12.toPkcs12Asn1(pair.key, [...chain], passphrase, { algorithm: "aes256" })).getBytes(), "binary")

/**
 * A legacy `.p12` as OpenSSL 1.x wrote by default: the certificates in an
 * `encryptedData` under pbeWithSHAAnd40BitRC2-CBC, the key under
 * pbeWithSHAAnd3-KeyTripleDES-CBC, a SHA-1 MAC. forge writes no RC2, so the
 * certificate safe is encrypted here with its primitives (PKCS#12 §B key
 * derivation, RFC 7292 appendix C).
 */
export const legacyPkcs12 = (pair: KeyPair, chain: ReadonlyArray<forge.pki.Certificate>, passphrase: string) => {
  const modern = forge.pkcs12.toPkcs12Asn1(pair.key, [...chain], passphrase, { algorithm: "3des" })
  // PFX ::= { version, authSafe ContentInfo(data, [0] OCTET STRING AuthenticatedSafe), macData }
  const authSafeOctets = ((modern.value[1] as forge.asn1.Asn1).value[1] as forge.asn1.Asn1).value[0] as forge.asn1.Asn1
  const authenticatedSafe = asn1.fromDer(authSafeOctets.value as string)
  const [certificateInfo, keyInfo] = authenticatedSafe.value as Array<forge.asn1.Asn1>
  // The plain `data` ContentInfo of the certificates: its SafeContents, DER.
  const certificateSafe = (((certificateInfo!.value[1] as forge.asn1.Asn1).value[0] as forge.asn1.Asn1).value) as string

  const salt = forge.random.getBytesSync(8)
  const iterations = 2048
  const key = pbe.generatePkcs12Key(passphrase, forge.util.createBuffer(salt), 1, iterations, 5)
  const iv = pbe.generatePkcs12Key(passphrase, forge.util.createBuffer(salt), 2, iterations, 8)
  const cipher = forge.rc2.createEncryptionCipher(key, 40)
  cipher.start(iv)
  cipher.update(forge.util.createBuffer(certificateSafe))
  cipher.finish()
  const encryptedInfo = asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(pki.oids.encryptedData!).getBytes()),
    asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [
      asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
        asn1.create(asn1.Class.UNIVERSAL, asn1.Type.INTEGER, false, asn1.integerToDer(0).getBytes()),
        asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
          asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(pki.oids.data!).getBytes()),
          asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
            asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer("1.2.840.113549.1.12.1.6").getBytes()),
            asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
              asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, salt),
              asn1.create(asn1.Class.UNIVERSAL, asn1.Type.INTEGER, false, asn1.integerToDer(iterations).getBytes())
            ])
          ]),
          asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, false, cipher.output.getBytes())
        ])
      ])
    ])
  ])
  const safe = asn1.toDer(asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [encryptedInfo, keyInfo!])).getBytes()

  const macSalt = forge.random.getBytesSync(8)
  const macKey = pbe.generatePkcs12Key(passphrase, forge.util.createBuffer(macSalt), 3, iterations, 20)
  const hmac = forge.hmac.create()
  hmac.start("sha1", macKey)
  hmac.update(safe)
  const pfx = asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.INTEGER, false, asn1.integerToDer(3).getBytes()),
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
      asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(pki.oids.data!).getBytes()),
      asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, safe)])
    ]),
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
      asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
        asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
          asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(pki.oids.sha1!).getBytes()),
          asn1.create(asn1.Class.UNIVERSAL, asn1.Type.NULL, false, "")
        ]),
        asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, hmac.digest().getBytes())
      ]),
      asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, macSalt),
      asn1.create(asn1.Class.UNIVERSAL, asn1.Type.INTEGER, false, asn1.integerToDer(iterations).getBytes())
    ])
  ])
  return Buffer.from(asn1.toDer(pfx).getBytes(), "binary")
}

/** The merchant's CNPJ in the client certificate (check digits valid: 11.444.777/0001-61). */
export const MERCHANT_CNPJ = "11444777000161"

export interface TestPki {
  readonly caPem: string
  readonly server: { readonly keyPem: string; readonly certPem: string }
  readonly client: { readonly keyPem: string; readonly certPem: string; readonly pfx: Buffer; readonly legacyPfx: Buffer; readonly cert: forge.pki.Certificate }
  /** The same client, its certificate expiring in `days` days from `now`. */
  readonly clientExpiringIn: (days: number) => { readonly keyPem: string; readonly certPem: string }
  readonly passphrase: string
  readonly notAfter: Date
}

const DAY = 86_400_000

/** Everything a test needs, valid from a day before `now` to a year after. */
export const makeTestPki = (now = Date.now()): TestPki => {
  const caKey = keyPair()
  const caCert = issue(caKey, undefined, {
    subject: [{ shortName: "C", value: "BR" }, { shortName: "O", value: "Fake PSP" }, { shortName: "CN", value: "Fake PSP Root CA" }],
    notBefore: new Date(now - DAY),
    notAfter: new Date(now + 3650 * DAY),
    serial: "01",
    isCa: true,
    extensions: [{ name: "keyUsage", keyCertSign: true, cRLSign: true, digitalSignature: true }]
  })
  const ca = { cert: caCert, key: caKey }
  const serverKey = keyPair()
  const serverCert = issue(serverKey, ca, {
    subject: [{ shortName: "CN", value: "localhost" }],
    notBefore: new Date(now - DAY),
    notAfter: new Date(now + 365 * DAY),
    serial: "02",
    extensions: [{ name: "subjectAltName", altNames: [{ type: 2, value: "localhost" }, { type: 7, ip: "127.0.0.1" }] }, { name: "extKeyUsage", serverAuth: true }]
  })
  const clientKey = keyPair()
  const notAfter = new Date(now + 365 * DAY)
  const clientCertificate = (expires: Date, serial: string) =>
    issue(clientKey, ca, {
      subject: [{ shortName: "C", value: "BR" }, { shortName: "O", value: "ICP-Brasil" }, { shortName: "CN", value: `LOJA EXEMPLO LTDA:${MERCHANT_CNPJ}` }],
      notBefore: new Date(now - DAY),
      notAfter: expires,
      serial,
      extensions: [{ id: "2.5.29.17", value: cnpjAltName(MERCHANT_CNPJ) }, { name: "extKeyUsage", clientAuth: true }]
    })
  const clientCert = clientCertificate(notAfter, "03")
  const passphrase = "senha-do-certificado"
  return {
    caPem: toPem(caCert),
    server: { keyPem: serverKey.privateKeyPem, certPem: toPem(serverCert) },
    client: {
      keyPem: clientKey.privateKeyPem,
      certPem: toPem(clientCert),
      pfx: pkcs12(clientKey, [clientCert, caCert], passphrase),
      legacyPfx: legacyPkcs12(clientKey, [clientCert, caCert], passphrase),
      cert: clientCert
    },
    clientExpiringIn: (days) => ({ keyPem: clientKey.privateKeyPem, certPem: toPem(clientCertificate(new Date(now + days * DAY), "04")) }),
    passphrase,
    notAfter
  }
}
