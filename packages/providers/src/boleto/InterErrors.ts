/**
 * The failures of a call to Inter's API. Only `InterUnreachable` and an
 * `InterProblem` of status 5xx are worth asking again (`isRetryable`); a 4xx
 * refuses the request itself and is never repeated.
 */
import { Schema } from "effect"

/** One `violacoes` item of Inter's error body: which field, why, with what value. */
export const InterViolacao = Schema.Struct({
  razao: Schema.optional(Schema.String),
  propriedade: Schema.optional(Schema.String),
  valor: Schema.optional(Schema.String)
})
export type InterViolacao = typeof InterViolacao.Type

/**
 * Inter answered with an error status: its body's `title`, `detail` and
 * `violacoes` (the SDKs' `Error` model), or what could be read of another
 * body (a gateway's).
 */
export class InterProblem extends Schema.TaggedError<InterProblem>()("InterProblem", {
  status: Schema.Number,
  title: Schema.String,
  detail: Schema.NullOr(Schema.String),
  violacoes: Schema.Array(InterViolacao),
  message: Schema.String
}) {}

/**
 * No answer. `outcomeUnknown`: the request may have reached Inter and been
 * done there (a timeout, a connection closed midway); otherwise it never
 * arrived (a refused connection, a failed handshake).
 */
export class InterUnreachable extends Schema.TaggedError<InterUnreachable>()("InterUnreachable", {
  outcomeUnknown: Schema.Boolean,
  message: Schema.String
}) {}

/** A success answer without the published shape (the API drifted, or a gateway answered for it). */
export class InterAnswerInvalid extends Schema.TaggedError<InterAnswerInvalid>()("InterAnswerInvalid", {
  message: Schema.String
}) {}

/** Timeouts, connection failures and 5xx answers: the only failures asked again. */
export const isRetryable = (error: { readonly _tag: string; readonly status?: number }) =>
  error._tag === "InterUnreachable" || (error._tag === "InterProblem" && (error.status ?? 0) >= 500)

/**
 * A 4xx about the request itself (a field Inter rejects, a boleto that can
 * no longer be cancelled): Inter's "no" to this one request. 401, 403 (our
 * credentials or scopes) and 429 (our rate) say nothing of the request.
 */
export const isRefusal = (error: { readonly _tag: string }): error is InterProblem =>
  error._tag === "InterProblem" && (error as InterProblem).status >= 400 && (error as InterProblem).status < 500 &&
  ![401, 403, 429].includes((error as InterProblem).status)

/** A registration Inter accepted and has not finished (`EM_PROCESSAMENTO`, no codes yet): asked again by the same reference, it is found. */
export class InterStillProcessing extends Schema.TaggedError<InterStillProcessing>()("InterStillProcessing", {
  codigoSolicitacao: Schema.String,
  message: Schema.String
}) {}
