/**
 * Mercado Pago's HTTP: `send` makes one API call with the access token (or,
 * for card tokens, the public key), its `X-Idempotency-Key`, a timeout, and
 * retries with backoff of what is worth retrying (timeouts, connection
 * failures, 5xx; never a 4xx), always with the same key, so a retry can
 * never charge twice. Plain HTTPS with undici: the official `mercadopago`
 * SDK is not a dependency (see docs/decisions.md). Answers are JSON read as
 * `unknown`, decoded by the caller with `decodeAnswer`.
 */
import { Duration, Effect, Option, Redacted, Schedule, Schema } from "effect"
import { request } from "undici"
import type { CardAcquirerConfig } from "../config/ProvidersConfig.ts"
import { clip, connectionFailure, mayHaveArrived } from "../tls/ConnectionFailure.ts"
import { isRetryable, type MercadoPagoCallError, MercadoPagoAnswerInvalid, MercadoPagoProblem, MercadoPagoUnreachable } from "./MercadoPagoErrors.ts"
import { ErrorBody } from "./MercadoPagoSchemas.ts"

export interface MercadoPagoRequest {
  readonly method: "GET" | "POST" | "PUT"
  /** Path segments after the base URL (`["v1", "payments", id]`), each encoded here. */
  readonly path: ReadonlyArray<string>
  readonly query?: Readonly<Record<string, string>>
  /** Sent as JSON. */
  readonly body?: unknown
  /** Mandatory on every call that creates or changes something. */
  readonly idempotencyKey?: string
  /** `public`: card tokens, created with the public key as the browser SDK does; else the access token. */
  readonly credential?: "access" | "public"
}

export interface MercadoPagoHttpOptions {
  /** How long a call may take before its outcome counts as unknown (default 20 s). */
  readonly requestTimeout?: Duration.Input
  /** Retries of a retryable failure after the first attempt (default 3). */
  readonly retries?: number
  /** The first backoff, doubled at each retry and jittered (default 500 ms). */
  readonly retryBackoff?: Duration.Input
}

export type MercadoPagoSend = (call: MercadoPagoRequest) => Effect.Effect<unknown, MercadoPagoCallError>

const decodeJson = Schema.decodeUnknownOption(Schema.fromJsonString(Schema.Unknown))
const decodeErrorBody = Schema.decodeUnknownOption(ErrorBody)

/**
 * Digit runs as long as a card number, masked: an error text is Mercado
 * Pago's and might echo what it was sent; ours must never carry a PAN.
 */
export const maskCardNumbers = (text: string) => text.replace(/\d(?:[ -]?\d){11,18}/g, "[masked]")

/** The error answer as a `MercadoPagoProblem`, its text clipped and masked. */
export const problemOf = (status: number, text: string): MercadoPagoProblem => {
  const body = Option.getOrUndefined(decodeErrorBody(Option.getOrUndefined(decodeJson(text))))
  const error = body?.error ?? `http_${status}`
  const causes = (body?.cause ?? []).flatMap((cause) => (cause.code === undefined ? [] : [String(cause.code)]))
  const said = maskCardNumbers(clip(body?.message ?? (text === "" ? `HTTP ${status}` : text)))
  return new MercadoPagoProblem({
    status,
    error,
    causes,
    message: `Mercado Pago answered ${status} ${error}: ${said}${causes.length === 0 ? "" : ` (cause ${causes.join(", ")})`}`
  })
}

/** Decodes a 2xx answer with `schema`, or fails naming what did not match. */
export const decodeAnswer = <T>(what: string, schema: Schema.ConstraintDecoder<T>) => {
  const decode = Schema.decodeUnknownEffect(schema)
  return (answer: unknown): Effect.Effect<T, MercadoPagoAnswerInvalid> =>
    decode(answer).pipe(Effect.mapError((error) => new MercadoPagoAnswerInvalid({ message: `Mercado Pago: ${what} does not have the published shape (${clip(String(error.message))})` })))
}

const urlOf = (config: CardAcquirerConfig, call: MercadoPagoRequest) => {
  const url = new URL(`${config.baseUrl}/${call.path.map(encodeURIComponent).join("/")}`)
  for (const [name, value] of Object.entries(call.query ?? {})) url.searchParams.set(name, value)
  if (call.credential === "public") url.searchParams.set("public_key", config.publicKey)
  return url
}

const headersOf = (config: CardAcquirerConfig, call: MercadoPagoRequest) => {
  const headers: Record<string, string> = { accept: "application/json" }
  if (call.credential !== "public") headers.authorization = `Bearer ${Redacted.value(config.accessToken)}`
  if (call.body !== undefined) headers["content-type"] = "application/json"
  if (call.idempotencyKey !== undefined) headers["x-idempotency-key"] = call.idempotencyKey
  return headers
}

/** One attempt: a non-2xx is a `MercadoPagoProblem`, no answer in time `MercadoPagoUnreachable`. */
const attempt = (config: CardAcquirerConfig, timeout: Duration.Input, call: MercadoPagoRequest): Effect.Effect<unknown, MercadoPagoCallError> =>
  Effect.tryPromise({
    try: async (signal) => {
      const body = call.body === undefined ? undefined : JSON.stringify(call.body)
      const answer = await request(urlOf(config, call), { method: call.method, headers: headersOf(config, call), body, signal })
      return { status: answer.statusCode, text: await answer.body.text() }
    },
    catch: (error) => new MercadoPagoUnreachable({ outcomeUnknown: mayHaveArrived(error), message: `Mercado Pago: ${connectionFailure(error)}` })
  }).pipe(
    Effect.timeoutOrElse({
      duration: timeout,
      orElse: () =>
        Effect.fail(new MercadoPagoUnreachable({ outcomeUnknown: true, message: `Mercado Pago did not answer within ${Duration.format(Duration.fromInputUnsafe(timeout))}` }))
    }),
    Effect.flatMap((answer): Effect.Effect<unknown, MercadoPagoProblem | MercadoPagoAnswerInvalid> => {
      if (answer.status < 200 || answer.status > 299) return Effect.fail(problemOf(answer.status, answer.text))
      if (answer.text === "") return Effect.succeed(undefined)
      return Option.match(decodeJson(answer.text), {
        onNone: () => Effect.fail(new MercadoPagoAnswerInvalid({ message: `Mercado Pago answered ${answer.status} with a body that is not JSON (${maskCardNumbers(clip(answer.text))})` })),
        onSome: (json) => Effect.succeed(json)
      })
    })
  )

/** `send` for the configured account. */
export const makeMercadoPagoSend = (config: CardAcquirerConfig, options: MercadoPagoHttpOptions = {}): MercadoPagoSend => {
  const timeout = options.requestTimeout ?? "20 seconds"
  const backoff = Schedule.exponential(options.retryBackoff ?? "500 millis").pipe(Schedule.jittered, Schedule.upTo({ times: options.retries ?? 3 }))
  return (call) =>
    attempt(config, timeout, call).pipe(
      Effect.retry({ schedule: backoff, while: isRetryable }),
      Effect.withSpan("MercadoPago.send", { attributes: { method: call.method, route: call.path.slice(0, 2).join("/") } })
    )
}
