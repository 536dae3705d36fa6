/** The providers file after loading: secrets resolved, certificates read, ready for the provider layers. */
import type { Certificates, PixKey } from "@billing/core"
import type { Redacted } from "effect"
import type { PspProfileName } from "../pix/PixProfiles.ts"

/** One PSP, everything read. */
export interface PixPsp {
  readonly name: string
  readonly profile: PspProfileName
  /** Up to and including `/v2`, no trailing slash. */
  readonly baseUrl: string
  readonly tokenUrl: string
  readonly clientId: string
  readonly clientSecret: Redacted.Redacted<string> | undefined
  readonly pixKey: PixKey
  readonly certificate: Certificates.ClientCertificate
  /** The PSP's CA certificates, PEM, when the file names one; else the public roots. */
  readonly ca: string | undefined
  readonly scopes: ReadonlyArray<string>
  readonly appKey: string | undefined
}

/** The card acquirer, everything read. */
export interface CardAcquirerConfig {
  readonly provider: "mercadopago"
  readonly accessToken: Redacted.Redacted<string>
  readonly publicKey: string
  /** Without a trailing slash. */
  readonly baseUrl: string
}

/** The boleto bank, everything read: what `InterBoletoIssuer` takes. */
export interface BoletoBankConfig {
  readonly provider: "inter"
  readonly clientId: string
  readonly clientSecret: Redacted.Redacted<string>
  readonly certificate: Certificates.ClientCertificate
  /** The bank's CA certificates, PEM, when the entry names one; else the public roots. */
  readonly ca: string | undefined
  readonly contaCorrente: string | undefined
  /** Without a trailing slash. */
  readonly baseUrl: string
}

/** The city of production accounts' notes, everything read. */
export interface NfseCityConfig {
  readonly provider: "nacional"
  /** 1 production, 2 homologation ("produção restrita"). */
  readonly ambiente: 1 | 2
  readonly signatureAlgorithm: "RSA-SHA1" | "RSA-SHA256"
  /** Without a trailing slash. */
  readonly baseUrl: string
  readonly danfseUrl: string
  readonly parametersUrl: string
  /** How long a call may take before its outcome counts as unknown. */
  readonly timeoutMillis: number
  /** The system's CA certificates, PEM, when the file names them; else the public roots. */
  readonly ca: string | undefined
}

export interface ProvidersConfig {
  /** The engine's base URL as PSPs reach it, without a trailing slash. */
  readonly publicUrl: string
  /** In the order PSPs are tried. */
  readonly pix: ReadonlyArray<PixPsp>
  /** The card acquirer of the file's `card` entry; none: card payments stay the sandbox's. */
  readonly card?: CardAcquirerConfig | undefined
  /** The bank of the file's `boleto` entry; none: production accounts' boletos are refused. */
  readonly boleto?: BoletoBankConfig | undefined
  /** The national NFS-e system of the file's `nfse` entry; none: production accounts' notes are refused. */
  readonly nfse?: NfseCityConfig | undefined
}
