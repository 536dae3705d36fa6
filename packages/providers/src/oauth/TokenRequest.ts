/** The HTTP request of an OAuth2 client-credentials grant, in a PSP's style. */
import { Redacted } from "effect"
import type { TokenStyle } from "./TokenStyle.ts"

export interface TokenCredentials {
  readonly clientId: string
  readonly clientSecret: Redacted.Redacted<string> | undefined
  readonly scopes: ReadonlyArray<string>
}

export interface TokenHttpRequest {
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/** Headers and body for `style`; the secret appears only inside them. */
export const tokenRequest = (style: TokenStyle, credentials: TokenCredentials): TokenHttpRequest => {
  const secret = credentials.clientSecret === undefined ? "" : Redacted.value(credentials.clientSecret)
  const fields: Array<[string, string]> = [["grant_type", "client_credentials"]]
  if (style.credentials === "body") fields.push(["client_id", credentials.clientId], ["client_secret", secret])
  if (style.credentials === "clientIdOnly") fields.push(["client_id", credentials.clientId])
  if (style.sendsScope && credentials.scopes.length > 0) fields.push(["scope", credentials.scopes.join(" ")])
  const headers: Record<string, string> = {
    accept: "application/json",
    "content-type": style.body === "json" ? "application/json" : "application/x-www-form-urlencoded"
  }
  if (style.credentials === "basic") {
    headers.authorization = `Basic ${Buffer.from(`${credentials.clientId}:${secret}`).toString("base64")}`
  }
  const body = style.body === "json" ? JSON.stringify(Object.fromEntries(fields)) : new URLSearchParams(fields).toString()
  return { headers, body }
}
