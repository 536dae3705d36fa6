/**
 * Client certificates (A1, PKCS#12 or PEM): read in-process, legacy RC2-40
 * files included, with the holder's CNPJ and validity. One definition for
 * the PSPs' mutual TLS (`@billing/providers`) and the NFS-e issuers'
 * certificates (`nfse/`).
 */
export * from "./CertificateInfo.ts"
export * from "./ClientCertificate.ts"
export * from "./IcpBrasil.ts"
export * from "./Pkcs12.ts"
