import { Accounts, Billing, Caller, MISSING_SCOPE_MESSAGE, SigningKey } from "@billing/core"
import { Context, Effect, Layer, Option, Redacted, SchemaIssue } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiMiddleware, type HttpApiError } from "effect/http-api"
import { InvalidTokenRequest } from "./api/Auth.ts"
import { Authentication, ForeignSubAccountCode, InvalidInput, InvalidInputCode, RequiredScope } from "./api/Common.ts"
import { envelopeResponse } from "./ErrorEnvelope.ts"
import { recordAccount } from "./RequestLog.ts"

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

/** A decoding path as the use cases name fields: `split[0].amount`. */
const fieldOf = (path: ReadonlyArray<unknown>) =>
  path.map((p) => (typeof p === "object" && p !== null && "key" in p ? p.key : p)).reduce<string>(
    (field, key) => (typeof key === "number" ? `${field}[${key}]` : field === "" ? String(key) : `${field}.${String(key)}`),
    ""
  )

/** Each problem of a decoding `issue`: which field, and what is wrong with it. */
export const issueFields = (issue: SchemaIssue.Issue) =>
  formatter(issue).issues.map((issue) => ({ field: fieldOf(issue.path ?? []), message: issue.message }))

/** `details` of a 400 `INVALID_DATA`: which field, and what is wrong with it. */
export const issueDetails = (error: HttpApiError.HttpApiSchemaError) => issueFields(error.cause.issue)

const describe = (details: ReadonlyArray<{ field: string; message: string }>) =>
  details.length === 0
    ? "Dados inválidos"
    : `Dados inválidos: ${details.map((d) => (d.field ? `${d.field}: ${d.message}` : d.message)).join("; ")}`

export const InvalidInputLive = HttpApiMiddleware.layerSchemaErrorTransform(InvalidInput, (error, { endpoint, group }) => {
  const details = issueDetails(error)
  const code = Context.getOption(endpoint.annotations, InvalidInputCode).pipe(
    Option.orElse(() => Context.getOption(group.annotations, InvalidInputCode)),
    Option.getOrElse(() => "INVALID_DATA")
  )
  return envelopeResponse(400, code, describe(details), details)
})

export const InvalidTokenRequestLive = HttpApiMiddleware.layerSchemaErrorTransform(InvalidTokenRequest, (error) =>
  Effect.succeed(HttpServerResponse.jsonUnsafe({
    error: "invalid_request",
    error_description: describe(issueDetails(error))
  }, { status: 400 })))

/**
 * The `Authentication` middleware. The builder hands it the credential of the
 * `Bearer` scheme (empty when the header is absent or not `Bearer`); the
 * core decides the rest (token, scope, account, `X-Sub-Account`).
 */
export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function*() {
    const services = yield* Effect.context<SigningKey | Accounts>()
    return Authentication.of({
      oauth2: (httpEffect, { credential, endpoint, group }) =>
        Effect.gen(function*() {
          const request = yield* HttpServerRequest.HttpServerRequest
          const caller = yield* Billing.authenticate({
            bearer: Redacted.value(credential),
            requiredScopes: Option.getOrElse(Context.getOption(endpoint.annotations, RequiredScope), () => []),
            subAccount: request.headers["x-sub-account"]
          }).pipe(Effect.provideContext(services))
          yield* recordAccount(caller.account.id)
          // From here on "now" is the account's: a sandbox account's test clock when it has one.
          return yield* Effect.provideService(httpEffect, Caller, caller).pipe(
            Billing.withAccountClock(caller.account),
            Effect.provideService(Accounts, Context.get(services, Accounts))
          )
        }).pipe(
          // The spec's bare body for a token that lacks the route's scope.
          Effect.catchTag("MissingScope", () =>
            Effect.succeed(HttpServerResponse.jsonUnsafe({ message: MISSING_SCOPE_MESSAGE }, { status: 401 }))),
          // Another master's sub-account: 401 in the group's words, `UNAUTHORIZED` unless it says `OWNERSHIP_MISMATCH` (the wallet's).
          Effect.catchTag("OWNERSHIP_MISMATCH", (e) =>
            Option.getOrUndefined(Context.getOption(group.annotations, ForeignSubAccountCode)) === "OWNERSHIP_MISMATCH"
              ? envelopeResponse(401, "OWNERSHIP_MISMATCH", e.message, e.details)
              : envelopeResponse(401, "UNAUTHORIZED", "Sem permissão sobre a subconta informada", e.details))
        )
    })
  })
)
