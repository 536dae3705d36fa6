import { Context, type Effect, type Option } from "effect"
import type { IssuedToken } from "../domain/ApiClient.ts"

/** Issued access tokens (their hashes and claims), kept so that a repeated token request reuses one. */
export class AccessTokens extends Context.Service<AccessTokens, {
  /** The newest token of this client and scope set that is still valid after `validAfter`. */
  readonly findReusable: (clientId: string, scopeKey: string, validAfter: Date) => Effect.Effect<Option.Option<IssuedToken>>
  readonly insert: (token: IssuedToken) => Effect.Effect<void>
}>()("@billing/core/ports/AccessTokens") {}
