/**
 * The failures of a PSP call, each naming the PSP. Only `PspUnreachable` and
 * a `PspProblem` of status 5xx are worth asking again (`isRetryable`); a 4xx
 * says the request itself is refused and is never repeated.
 */
import { Schema } from "effect"

/** One `violacoes` item of an RFC 7807 problem (the BCB's `Violacao`). */
export const Violacao = Schema.Struct({
  razao: Schema.optional(Schema.String),
  propriedade: Schema.optional(Schema.String),
  valor: Schema.optional(Schema.String)
})
export type Violacao = typeof Violacao.Type

/**
 * The PSP answered with an error status: its RFC 7807 problem (`type`,
 * `title`, `detail`, `correlationId` for its support desk, `violacoes`), or
 * what could be read of another body (`type` is then `about:blank`, RFC 7807
 * §4.2).
 */
export class PspProblem extends Schema.TaggedError<PspProblem>()("PspProblem", {
  psp: Schema.String,
  status: Schema.Number,
  type: Schema.String,
  title: Schema.String,
  detail: Schema.NullOr(Schema.String),
  correlationId: Schema.NullOr(Schema.String),
  violacoes: Schema.Array(Violacao),
  message: Schema.String
}) {}

/**
 * No answer. `outcomeUnknown`: the request may have reached the PSP and been
 * done there (a timeout, a connection closed midway), so it may only be
 * repeated as it was (same txid, same id); otherwise it never arrived (a
 * refused connection, a failed handshake), a definite failure.
 */
export class PspUnreachable extends Schema.TaggedError<PspUnreachable>()("PspUnreachable", {
  psp: Schema.String,
  outcomeUnknown: Schema.Boolean,
  message: Schema.String
}) {}

/** A success answer that does not have the standard's shape (the PSP drifted, or a gateway answered for it). */
export class PspAnswerInvalid extends Schema.TaggedError<PspAnswerInvalid>()("PspAnswerInvalid", {
  psp: Schema.String,
  message: Schema.String
}) {}

/** The PSP's profile has no route for what the port asks (DICT look-ups, Pix Automático, payouts outside Efí). */
export class PixOperationUnsupported extends Schema.TaggedError<PixOperationUnsupported>()("PixOperationUnsupported", {
  psp: Schema.String,
  profile: Schema.String,
  operation: Schema.String,
  message: Schema.String
}) {}

/** A devolução or a payout the PSP accepted and has not finished (`EM_PROCESSAMENTO`): ask again later by the same id. */
export class PspStillProcessing extends Schema.TaggedError<PspStillProcessing>()("PspStillProcessing", {
  psp: Schema.String,
  message: Schema.String
}) {}

/** A charge this PSP cannot take as given (a txid we cannot derive one from, a `cobv` without its payer). */
export class ChargeNotRegistrable extends Schema.TaggedError<ChargeNotRegistrable>()("ChargeNotRegistrable", {
  psp: Schema.String,
  message: Schema.String
}) {}

/** Timeouts, connection failures and 5xx answers: the only failures asked again. */
export const isRetryable = (error: { readonly _tag: string; readonly status?: number }) =>
  error._tag === "PspUnreachable" || (error._tag === "PspProblem" && (error.status ?? 0) >= 500)
