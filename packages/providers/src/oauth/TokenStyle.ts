/**
 * How a token endpoint wants the OAuth2 client-credentials request: RFC 6749
 * allows the client to authenticate with HTTP Basic or with body parameters,
 * and PSPs differ on that and on the body's encoding.
 */

export interface TokenStyle {
  /**
   * `basic`: `Authorization: Basic base64(id:secret)` (RFC 6749 §2.3.1, the
   * recommended way); `body`: `client_id` and `client_secret` in the body;
   * `clientIdOnly`: `client_id` in the body and no secret (the mutual TLS
   * certificate is the credential, RFC 8705).
   */
  readonly credentials: "basic" | "body" | "clientIdOnly"
  /** `form`: `application/x-www-form-urlencoded` (RFC 6749 §4.4.2); `json`: a JSON object. */
  readonly body: "form" | "json"
  /** Whether `scope` is sent (space-separated) when the PSP entry lists scopes. */
  readonly sendsScope: boolean
}

/** The plain standard: Basic credentials and a form body, as RFC 6749 §4.4.2 shows. */
export const standardTokenStyle: TokenStyle = { credentials: "basic", body: "form", sendsScope: true }
