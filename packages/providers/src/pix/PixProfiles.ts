/**
 * The PSP profiles of the BCB API Pix. Every PSP exposes the same standard;
 * they differ in how a token is asked for and in a few extras. Each row says
 * where its differences come from: the PSP's public documentation, or only
 * the description (then the fake is all it was checked against;
 * docs/decisions.md, "Production providers", lists which).
 */
import { Schema } from "effect"
import { standardTokenStyle, type TokenStyle } from "../oauth/TokenStyle.ts"

export const PspProfileNames = ["bcb", "efi", "bb", "sicoob", "sicredi", "inter"] as const
export const PspProfileName = Schema.Literals(PspProfileNames).annotate({ message: `must be one of ${PspProfileNames.join(", ")}` })
export type PspProfileName = typeof PspProfileName.Type

export interface PspProfile {
  readonly token: TokenStyle
  /** The PSP needs no client secret (the certificate and the client id are the credential). */
  readonly secretless: boolean
  /** BB's developer application key, sent as `gw-dev-app-key` on every API call: required when true. */
  readonly appKey: boolean
  /** Where the differences were read, and whether more than the test's fake has checked them. */
  readonly source: string
}

/** Each profile's token request and extras. */
export const PspProfiles: Readonly<Record<PspProfileName, PspProfile>> = {
  bcb: {
    token: standardTokenStyle,
    secretless: false,
    appKey: false,
    source: "BCB API Pix 2.9.0 openapi.yaml (securitySchemes.OAuth2: clientCredentials) and RFC 6749 §2.3.1, §4.4"
  },
  efi: {
    token: { credentials: "basic", body: "json", sendsScope: false },
    secretless: false,
    appKey: false,
    source: "issue 28 (JSON body, Basic); Efí's API Pix credentials page (dev.efipay.com.br/docs/api-pix/credenciais) read only in part: checked against the fake only"
  },
  bb: {
    token: { credentials: "basic", body: "form", sendsScope: true },
    secretless: false,
    appKey: true,
    source: "issue 28 (gw-dev-app-key on every call, form body); BB's portal not reachable from here: checked against the fake only"
  },
  sicoob: {
    token: { credentials: "clientIdOnly", body: "form", sendsScope: true },
    secretless: true,
    appKey: false,
    source: "issue 28 (client id without a secret); Sicoob's portal not reachable from here: checked against the fake only"
  },
  sicredi: {
    token: standardTokenStyle,
    secretless: false,
    appKey: false,
    source: "issue 28 (the plain standard); Sicredi's guide not reachable from here: checked against the fake only"
  },
  inter: {
    token: { credentials: "body", body: "form", sendsScope: true },
    secretless: false,
    appKey: false,
    source: "issue 28 (form body with client_id, client_secret and scope); Inter's portal not reachable from here: checked against the fake only"
  }
}
