/**
 * The PSP profiles of the BCB API Pix. Every PSP exposes the same standard;
 * they differ in how a token is asked for and in a few extras (BB's
 * application key on every call, Efí's route for sending Pix, the
 * institution's ISPB). Each row says where its differences come from: the
 * PSP's public documentation, or only the issue's description (then the fake
 * is all it was checked against; docs/decisions.md, "Production providers",
 * lists which).
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
  /**
   * The query parameter that carries the entry's `appKey` on every API call
   * (BB's `gw-dev-app-key`); the entry must give an `appKey` when set.
   */
  readonly appKeyParameter: string | undefined
  /**
   * The PSP's route for sending a Pix to a key (payouts), which the BCB
   * standard does not have: `efi` is Efí's `PUT /gn/pix/{idEnvio}`; none
   * means payouts are refused.
   */
  readonly sendPix: "efi" | undefined
  /** The institution's ISPB (the port's `ispb`), when the profile is one institution; the plain standard names none. */
  readonly ispb: string | undefined
  /** Where the differences were read, and whether more than the test's fake has checked them. */
  readonly source: string
}

/** Each profile's token request and extras. */
export const PspProfiles: Readonly<Record<PspProfileName, PspProfile>> = {
  bcb: {
    token: standardTokenStyle,
    secretless: false,
    appKeyParameter: undefined,
    sendPix: undefined,
    ispb: undefined,
    source: "BCB API Pix 2.9.0 openapi.yaml (securitySchemes.OAuth2: clientCredentials) and RFC 6749 §2.3.1, §4.4"
  },
  efi: {
    token: { credentials: "basic", body: "json", sendsScope: false },
    secretless: false,
    appKeyParameter: undefined,
    sendPix: "efi",
    ispb: "09089356",
    source: "issue 28 (JSON body, Basic); Efí's API Pix credentials page (dev.efipay.com.br/docs/api-pix/credenciais) read only in part; sending Pix from Efí's 'Envio e pagamento Pix' page (PUT /v2/gn/pix/:idEnvio answering 201 { idEnvio, e2eId, valor, horario, status }, 409 id_envio_duplicado, GET /v2/gn/pix/enviados/id-envio/:idEnvio), read in a public copy of Efí's documentation; ISPB 09089356 as in that page's e2eIds: checked against the fake only"
  },
  bb: {
    token: { credentials: "basic", body: "form", sendsScope: true },
    secretless: false,
    appKeyParameter: "gw-dev-app-key",
    sendPix: undefined,
    ispb: "00000000",
    source: "issue 28 (gw-dev-app-key on every call, form body); BB's portal not reachable from here; ISPB from the BCB's list of Pix participants, not re-read here: checked against the fake only"
  },
  sicoob: {
    token: { credentials: "clientIdOnly", body: "form", sendsScope: true },
    secretless: true,
    appKeyParameter: undefined,
    sendPix: undefined,
    ispb: "02038232",
    source: "issue 28 (client id without a secret); Sicoob's portal not reachable from here; ISPB from the BCB's list of Pix participants, not re-read here: checked against the fake only"
  },
  sicredi: {
    token: standardTokenStyle,
    secretless: false,
    appKeyParameter: undefined,
    sendPix: undefined,
    ispb: "01181521",
    source: "issue 28 (the plain standard); Sicredi's guide not reachable from here; ISPB from the BCB's list of Pix participants, not re-read here: checked against the fake only"
  },
  inter: {
    token: { credentials: "body", body: "form", sendsScope: true },
    secretless: false,
    appKeyParameter: undefined,
    sendPix: undefined,
    ispb: "00416968",
    source: "issue 28 (form body with client_id, client_secret and scope); Inter's portal not reachable from here; ISPB from the BCB's list of Pix participants, not re-read here: checked against the fake only"
  }
}
