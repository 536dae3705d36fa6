/**
 * Resolves the caller of a `/v1` request: bearer token, scope of the route,
 * the account behind the credentials and the sub-account of `X-Sub-Account`.
 */
import { Clock, Context, Effect, Option } from "effect"
import type { Account } from "../domain/Account.ts"
import { AccountNotFound, NotFound, SubAccountNotOwned, Unauthorized } from "../domain/Errors.ts"
import type { Scope } from "../domain/Scope.ts"
import { Accounts } from "../ports/Accounts.ts"
import { MISSING_SCOPE_MESSAGE, MissingScope } from "./AuthErrors.ts"
import { type AccessClaims, verifyJwt } from "./Jwt.ts"
import { SigningKey } from "./SigningKey.ts"
import { AccountId } from "../domain/Ids.ts"

/**
 * Who is calling. `account` is the account the request operates on (the
 * sub-account when `X-Sub-Account` names one); `master` is the account of the
 * credentials. Use cases scope every query by `account.id`.
 */
export class Caller extends Context.Service<Caller, {
  readonly account: Account
  readonly master: Account
  readonly clientId: string
  readonly scopes: ReadonlySet<string>
}>()("@billing/core/auth/Caller") {}

// Clients reuse their token for up to an hour: once its signature checked
// out, later requests only compare the string and the expiry. Bounded, and
// emptied when full, so it cannot grow without limit.
const verified = new Map<string, AccessClaims>()
const VERIFIED_MAX = 10_000

const claimsOf = Effect.fnUntraced(function*(token: string, nowSeconds: number) {
  const known = verified.get(token)
  if (known !== undefined) return known.exp > nowSeconds ? Option.some(known) : Option.none<AccessClaims>()
  const { key } = yield* SigningKey
  const claims = yield* verifyJwt(token, key, nowSeconds)
  if (Option.isSome(claims)) {
    if (verified.size >= VERIFIED_MAX) verified.clear()
    verified.set(token, claims.value)
  }
  return claims
})

export const authenticate = Effect.fn("Auth.authenticate")(function*(request: {
  readonly bearer: string | undefined
  /** The scopes that grant the call, any one of them; empty when any valid token of the account may make it. */
  readonly requiredScopes: ReadonlyArray<Scope>
  readonly subAccount: string | undefined
}) {
  if (request.bearer === undefined || request.bearer.length === 0) {
    return yield* new Unauthorized({ message: "Token de autenticação ausente", details: null })
  }
  const now = yield* Clock.currentTimeMillis
  const claims = yield* claimsOf(request.bearer, Math.floor(now / 1000))
  if (Option.isNone(claims)) {
    return yield* new Unauthorized({ message: "Token de autenticação inválido ou expirado", details: null })
  }
  const scopes = new Set(claims.value.scope.split(" "))
  // Scope before anything else: the spec warns clients that a scope 401 must
  // not be mistaken for an expired token, and it must not cost a query.
  if (request.requiredScopes.length > 0 && !request.requiredScopes.some((scope) => scopes.has(scope))) {
    return yield* new MissingScope({ message: MISSING_SCOPE_MESSAGE })
  }
  const accounts = yield* Accounts
  // The subject of a token the engine signed is the account it was issued to.
  const master = yield* accounts.findById(AccountId.make(claims.value.sub))
  if (Option.isNone(master)) {
    return yield* new AccountNotFound({ message: "Conta não encontrada", details: null })
  }
  let account = master.value
  const header = request.subAccount?.trim()
  if (header !== undefined && header.length > 0 && header !== master.value.number) {
    const sub = yield* accounts.findSubAccount(master.value.id, header)
    if (Option.isNone(sub)) {
      // An account number that exists under another master is a permission
      // problem (401), one that exists nowhere is unknown (404), as the spec
      // lists them for X-Sub-Account.
      if (yield* accounts.numberExists(header)) {
        return yield* new SubAccountNotOwned({ message: `Subconta ${header} nao pertence a esta conta master`, details: { subAccount: header } })
      }
      return yield* new NotFound({ message: "Subconta não encontrada", details: { subAccount: header } })
    }
    account = sub.value
  }
  return Caller.of({ account, master: master.value, clientId: claims.value.cid, scopes })
})
