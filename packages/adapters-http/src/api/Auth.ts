/**
 * `POST /auth/token`: the OAuth 2.0 client-credentials token route, public,
 * answering its refusals in the RFC 6749 body rather than the envelope.
 */
import { OAuthInvalidClient, OAuthInvalidRequest, OAuthInvalidScope, OAuthUnsupportedGrant, optional } from "@billing/core"
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
        oauthBody(OAuthInvalidScope, 403, "invalid_scope")
      ]
    }).annotate(OpenApi.Summary, "Issue an access token (client credentials)")
  )
  .middleware(InvalidTokenRequest)
  .annotateMerge(OpenApi.annotations({ title: "Token", description: "OAuth 2.0 client credentials" }))
{}
