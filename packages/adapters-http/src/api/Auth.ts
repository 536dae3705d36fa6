/**
 * `POST /auth/token`: the OAuth 2.0 client-credentials token route, public,
 * answering its refusals in the RFC 6749 body rather than the envelope.
 */
import {
  OAuthInvalidClient,
  OAuthInvalidRequest,
  OAuthInvalidScope,
  OAuthTooManyRequests,
  OAuthUnsupportedGrant,
  optional
} from "@billing/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiMiddleware, HttpApiSchema, OpenApi } from "effect/http-api"
import { oauthBody } from "../OAuthBody.ts"

/** Turns token-request decoding failures into the OAuth `invalid_request` body. */
export class InvalidTokenRequest extends HttpApiMiddleware.Service<InvalidTokenRequest>()(
  "@billing/adapters-http/InvalidTokenRequest",
  { error: oauthBody(OAuthInvalidRequest, 400, "invalid_request") }
) {}

const TokenFields = {
  grant_type: optional(Schema.String),
  client_id: optional(Schema.String),
  client_secret: optional(Schema.String),
  scope: optional(Schema.String)
}

/**
 * 429 of the throttle: the OAuth body, and the seconds to wait in
 * `Retry-After` (RFC 9110), which is what HTTP clients and proxies honour.
 */
const TooManyRequestsBody = Schema.Struct({
  error: Schema.Literal("too_many_requests"),
  error_description: Schema.optionalKey(Schema.String)
}).pipe(HttpApiSchema.status(429)).annotate({ identifier: "OAuthTooManyRequests" })

const TooManyRequests = OAuthTooManyRequests.pipe(
  HttpApiSchema.encodeToWithHeaders({
    body: TooManyRequestsBody,
    headers: { "retry-after": Schema.FiniteFromString }
  }, {
    decode: ({ body, headers }) => new OAuthTooManyRequests({ ...body, retryAfter: Math.ceil(headers["retry-after"]) }),
    encode: (e) => ({
      body: { error: "too_many_requests" as const, ...(e.error_description === undefined ? {} : { error_description: e.error_description }) },
      headers: { "retry-after": e.retryAfter }
    })
  })
)

export const TokenResponse = Schema.Struct({
  access_token: Schema.String,
  expires_in: Schema.Number,
  token_type: Schema.Literal("Bearer")
})

export class AuthGroup extends HttpApiGroup.make("auth", { topLevel: true })
  .add(
    HttpApiEndpoint.post("token", "/auth/token", {
      // Form-urlencoded per the spec; JSON too, because the real provider's
      // published collection sends JSON and its users' clients must work.
      payload: [
        Schema.Struct(TokenFields).pipe(HttpApiSchema.asFormUrlEncoded()),
        Schema.Struct(TokenFields)
      ],
      success: TokenResponse,
      error: [
        oauthBody(OAuthUnsupportedGrant, 400, "unsupported_grant_type"),
        oauthBody(OAuthInvalidRequest, 400, "invalid_request"),
        oauthBody(OAuthInvalidClient, 401, "invalid_client"),
        oauthBody(OAuthInvalidScope, 403, "invalid_scope"),
        TooManyRequests
      ]
    }).annotate(OpenApi.Summary, "Issue an access token (client credentials)")
  )
  .middleware(InvalidTokenRequest)
  .annotateMerge(OpenApi.annotations({ title: "Token", description: "OAuth 2.0 client credentials" }))
{}
