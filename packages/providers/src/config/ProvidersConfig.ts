/** The providers file after loading: secrets resolved, certificates read, ready for the provider layers. */
import type { PixKey } from "@billing/core"
import type { Redacted } from "effect"
import type { ClientCertificate } from "../certificates/ClientCertificate.ts"
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
  readonly certificate: ClientCertificate
  /** The PSP's CA certificates, PEM, when the file names one; else the public roots. */
  readonly ca: string | undefined
  readonly scopes: ReadonlyArray<string>
  readonly appKey: string | undefined
}

export interface ProvidersConfig {
  /** The engine's base URL as PSPs reach it, without a trailing slash. */
  readonly publicUrl: string
  /** In the order PSPs are tried. */
  readonly pix: ReadonlyArray<PixPsp>
}
