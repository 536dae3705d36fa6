/**
 * The failures of a Mercado Pago call. Only `MercadoPagoUnreachable` and a
 * `MercadoPagoProblem` of status 5xx are asked again (`isRetryable`), with
 * the same `X-Idempotency-Key`; a 4xx refuses the request itself.
 */
import { Schema } from "effect"

/**
 * No answer. `outcomeUnknown`: the request may have reached Mercado Pago and
 * been done there (a timeout, a connection closed midway).
 */
export class MercadoPagoUnreachable extends Schema.TaggedError<MercadoPagoUnreachable>()("MercadoPagoUnreachable", {
  outcomeUnknown: Schema.Boolean,
  message: Schema.String
}) {}

/** An error status with Mercado Pago's body (`message`, `error`, `cause[].code`), or what could be read of another. */
export class MercadoPagoProblem extends Schema.TaggedError<MercadoPagoProblem>()("MercadoPagoProblem", {
  status: Schema.Number,
  error: Schema.String,
  causes: Schema.Array(Schema.String),
  message: Schema.String
}) {}

/** A success answer without the published shape (the API drifted, or a gateway answered for it). */
export class MercadoPagoAnswerInvalid extends Schema.TaggedError<MercadoPagoAnswerInvalid>()("MercadoPagoAnswerInvalid", {
  message: Schema.String
}) {}

export type MercadoPagoCallError = MercadoPagoUnreachable | MercadoPagoProblem | MercadoPagoAnswerInvalid

/** Timeouts, connection failures and 5xx answers: the only failures asked again. */
export const isRetryable = (error: MercadoPagoCallError) =>
  error._tag === "MercadoPagoUnreachable" || (error._tag === "MercadoPagoProblem" && error.status >= 500)

/**
 * `error` with `secrets` (a card's number and CVV) masked wherever its text
 * has them as a whole run of digits: Mercado Pago may echo what it was sent,
 * and a CVV is too short to be caught by a pattern.
 */
export const withoutSecrets = <E extends MercadoPagoCallError>(error: E, secrets: ReadonlyArray<string>): E => {
  let message = error.message
  for (const secret of secrets) message = message.replace(new RegExp(`(?<!\\d)${secret.replace(/\D/g, "")}(?!\\d)`, "g"), "[masked]")
  if (message === error.message) return error
  if (error._tag === "MercadoPagoUnreachable") return new MercadoPagoUnreachable({ outcomeUnknown: error.outcomeUnknown, message }) as E
  if (error._tag === "MercadoPagoProblem") return new MercadoPagoProblem({ status: error.status, error: error.error, causes: error.causes, message }) as E
  return new MercadoPagoAnswerInvalid({ message }) as E
}

/**
 * A 4xx about the request itself (a used token, more than is left to
 * refund): Mercado Pago's "no" to this one request. 401, 403 (our
 * credentials) and 429 (our rate) say nothing of the request: outages.
 */
export const isRefusal = (error: MercadoPagoCallError): error is MercadoPagoProblem =>
  error._tag === "MercadoPagoProblem" && error.status >= 400 && error.status < 500 && ![401, 403, 429].includes(error.status)
