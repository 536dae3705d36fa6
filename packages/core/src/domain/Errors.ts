/**
 * The error codes of the spec that every module shares. Each code is a
 * `Schema.TaggedError` whose tag IS the wire code, and whose `httpApiStatus`
 * annotation is the status the spec documents, so the HTTP edge maps any of
 * them to the envelope `{ error: { message, code, details, timestamp } }`
 * with one generic function and no table to keep in sync.
 *
 * Module-specific codes live next to their module (for example
 * `webhooks/WebhookErrors.ts`) and follow the same shape.
 */
import { Schema } from "effect"

/** Fields every enveloped error carries; `details` is null, an object or an array. */
export const ErrorFields = {
  message: Schema.String,
  details: Schema.optionalKey(Schema.Unknown)
}

/** 400: a field is invalid; `details` names the field(s) and what is wrong. */
export class InvalidData extends Schema.TaggedError<InvalidData>()("INVALID_DATA", ErrorFields, {
  httpApiStatus: 400
}) {}

/** `INVALID_DATA` naming the field that is wrong. */
export const invalidData = (field: string, message: string) => new InvalidData({ message, details: { field } })

/** 401: token missing, expired or invalid, or no permission on the sub-account. */
export class Unauthorized extends Schema.TaggedError<Unauthorized>()("UNAUTHORIZED", ErrorFields, {
  httpApiStatus: 401
}) {}

/** 404: the account behind the credentials does not exist any more. */
export class AccountNotFound extends Schema.TaggedError<AccountNotFound>()("ACCOUNT_NOT_FOUND", ErrorFields, {
  httpApiStatus: 404
}) {}

/** 404: generic, e.g. the sub-account named in `X-Sub-Account` does not exist. */
export class NotFound extends Schema.TaggedError<NotFound>()("NOT_FOUND", ErrorFields, {
  httpApiStatus: 404
}) {}

/**
 * 403: the token is valid, but its account may not do this (a sub-account's
 * own credentials opening sub-accounts). 403 rather than 401, which would
 * send a client to renew a token that is fine (spec: Authentication 3).
 */
export class Forbidden extends Schema.TaggedError<Forbidden>()("FORBIDDEN", ErrorFields, {
  httpApiStatus: 403
}) {}

/** 500: an unexpected failure; the message never leaks internals. */
export class InternalError extends Schema.TaggedError<InternalError>()("INTERNAL_ERROR", ErrorFields, {
  httpApiStatus: 500
}) {}

/**
 * 401 `OWNERSHIP_MISMATCH`: the sub-account named (a wallet route's
 * `accountId`, or its `X-Sub-Account`) belongs to another master. The same
 * code as a Pix key of another holder (400), with the status the provider
 * gives each; named apart in the OpenAPI document.
 */
export class SubAccountNotOwned extends Schema.TaggedError<SubAccountNotOwned>()("OWNERSHIP_MISMATCH", ErrorFields, {
  httpApiStatus: 401,
  envelopeIdentifier: "OWNERSHIP_MISMATCH_SUBACCOUNT"
}) {}
