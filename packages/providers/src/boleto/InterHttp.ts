/**
 * Inter's HTTP: its mutual TLS agent, its token client, and `send`, which
 * makes one call under `/cobranca/v3/cobrancas` with a token (refreshed once
 * on a 401), the account header, a timeout, and retries with backoff for
 * what is worth retrying (timeouts, connection failures, 5xx; never a 4xx).
 * A call that must not be repeated blindly (a registration, which Inter
 * does not deduplicate by itself) says `retry: false` and resolves an
 * unknown outcome itself. Answers are JSON read as `unknown`, for the caller
 * to decode with its Schema (`decodeAnswer`).
 */
import { Duration, Effect, Option, Redacted, Schedule, Schema } from "effect"
import { type Dispatcher, request } from "undici"
import type { BoletoBankConfig } from "../config/ProvidersConfig.ts"
import { makeTokenClient, type TokenClient } from "../oauth/TokenClient.ts"
import { TokenRejected, type TokenRequestFailed } from "../oauth/TokenErrors.ts"
import type { TokenStyle } from "../oauth/TokenStyle.ts"
import { clip, connectionFailure, mayHaveArrived } from "../tls/ConnectionFailure.ts"
import { mutualTlsAgent } from "../tls/MutualTlsAgent.ts"
import { InterAnswerInvalid, InterProblem, InterUnreachable, isRetryable } from "./InterErrors.ts"
import { ErrorBody } from "./InterSchemas.ts"

/** Where the cobrança routes are, under the entry's base URL. */
export const COBRANCAS_PATH = "/cobranca/v3/cobrancas"
/** Inter's token route (`Constants.URL_TOKEN` in its SDKs). */
export const TOKEN_PATH = "/oauth/v2/token"
/** The scopes the boleto routes need: reading and writing cobranças. */
export const BOLETO_SCOPES = ["boleto-cobranca.read", "boleto-cobranca.write"] as const

/** Inter's SDKs post `client_id`, `client_secret`, `grant_type` and `scope` as a form (`TokenUtils.generate_token`). */
const INTER_TOKEN_STYLE: TokenStyle = { credentials: "body", body: "form", sendsScope: true }

export interface InterRequest {
  readonly method: "GET" | "POST" | "PUT"
  /** Path segments after `/cobranca/v3/cobrancas` (`[codigoSolicitacao, "cancelar"]`), each encoded here. */
  readonly path: ReadonlyArray<string>
  readonly query?: Readonly<Record<string, string>>
  /** Sent as JSON. */
  readonly body?: unknown
  /** `false`: a retryable failure is the caller's to resolve (default: asked again here). */
  readonly retry?: boolean
}

export interface InterHttpOptions {
  /** How long a call may take before its outcome counts as unknown (default 20 s). */
  readonly requestTimeout?: Duration.Input
  /** Retries of a retryable failure after the first attempt (default 3). */
  readonly retries?: number
  /** The first backoff, doubled at each retry and jittered (default 500 ms). */
  readonly retryBackoff?: Duration.Input
}

export type InterCallError = InterProblem | InterUnreachable | InterAnswerInvalid | TokenRequestFailed

export interface InterHttp {
  readonly tokens: TokenClient
  /** The call's JSON answer (undefined when it has no body), for any 2xx status. */
  readonly send: (call: InterRequest) => Effect.Effect<unknown, InterCallError>
  /** The backoff between retries, for callers that retry by themselves. */
  readonly backoff: Backoff
}

/** Exponential from `first`, jittered, at most `times` retries. */
const backoffOf = (first: Duration.Input, times: number) => Schedule.exponential(first).pipe(Schedule.jittered, Schedule.upTo({ times }))
type Backoff = ReturnType<typeof backoffOf>

/** The route a call is on, for its span (never the id in its path). */
const routeOf = (path: ReadonlyArray<string>) => path.length === 0 ? "cobrancas" : path[0] === "webhook" ? "webhook" : path[1] ?? "cobranca"

const decodeJson = Schema.decodeUnknownOption(Schema.fromJsonString(Schema.Unknown))
const decodeErrorBody = Schema.decodeUnknownOption(ErrorBody)

/** The error answer as an `InterProblem`: Inter's body, or the status alone. */
export const problemOf = (status: number, text: string): InterProblem => {
  const body = Option.getOrUndefined(decodeErrorBody(Option.getOrUndefined(decodeJson(text))))
  const title = body?.title ?? (text === "" ? `HTTP ${status}` : clip(text))
  const detail = body?.detail ?? null
  const violacoes = body?.violacoes ?? []
  const fields = violacoes.map((v) => `${v.propriedade ?? "?"}: ${v.razao ?? "inválido"}`).join("; ")
  return new InterProblem({
    status,
    title,
    detail,
    violacoes,
    message: `Inter answered ${status} ${title}${detail === null ? "" : ` (${clip(detail)})`}${fields === "" ? "" : ` [${clip(fields)}]`}`
  })
}

/** Decodes a 2xx answer with `schema`, or fails naming what did not match. */
export const decodeAnswer = <T>(what: string, schema: Schema.ConstraintDecoder<T>) => {
  const decode = Schema.decodeUnknownEffect(schema)
  return (answer: unknown): Effect.Effect<T, InterAnswerInvalid> =>
    decode(answer).pipe(Effect.mapError((error) => new InterAnswerInvalid({ message: `Inter: ${what} does not have the published shape (${clip(String(error.message))})` })))
}

const urlOf = (config: BoletoBankConfig, call: InterRequest) => {
  const url = new URL(`${config.baseUrl}${COBRANCAS_PATH}${call.path.map((segment) => `/${encodeURIComponent(segment)}`).join("")}`)
  for (const [name, value] of Object.entries(call.query ?? {})) url.searchParams.set(name, value)
  return url
}

/** One attempt with `token`: 401 is `TokenRejected` (for the token client's one refresh), other non-2xx an `InterProblem`. */
const attempt = (config: BoletoBankConfig, dispatcher: Dispatcher, timeout: Duration.Input, call: InterRequest) => (token: Redacted.Redacted<string>) =>
  Effect.tryPromise({
    try: async (signal) => {
      const headers: Record<string, string> = { authorization: `Bearer ${Redacted.value(token)}`, accept: "application/json" }
      if (call.body !== undefined) headers["content-type"] = "application/json"
      if (config.contaCorrente !== undefined) headers["x-conta-corrente"] = config.contaCorrente
      const body = call.body === undefined ? undefined : JSON.stringify(call.body)
      const answer = await request(urlOf(config, call), { method: call.method, headers, body, dispatcher, signal })
      return { status: answer.statusCode, text: await answer.body.text() }
    },
    catch: (error) => new InterUnreachable({ outcomeUnknown: mayHaveArrived(error), message: `Inter: ${connectionFailure(error)}` })
  }).pipe(
    Effect.timeoutOrElse({
      duration: timeout,
      orElse: () => Effect.fail(new InterUnreachable({ outcomeUnknown: true, message: `Inter did not answer within ${Duration.format(Duration.fromInputUnsafe(timeout))}` }))
    }),
    Effect.flatMap((answer): Effect.Effect<unknown, InterProblem | InterAnswerInvalid | TokenRejected> => {
      if (answer.status === 401) return Effect.fail(new TokenRejected({ provider: "inter" }))
      if (answer.status < 200 || answer.status > 299) return Effect.fail(problemOf(answer.status, answer.text))
      if (answer.text === "") return Effect.succeed(undefined)
      return Option.match(decodeJson(answer.text), {
        onNone: () => Effect.fail(new InterAnswerInvalid({ message: `Inter answered ${answer.status} with a body that is not JSON (${clip(answer.text)})` })),
        onSome: Effect.succeed
      })
    })
  )

/** A 401 to a token just issued: not a stale token but credentials or a certificate the API does not accept. */
const refusedFreshToken = () =>
  new InterProblem({
    status: 401,
    title: "Unauthorized",
    detail: null,
    violacoes: [],
    message: "Inter answered 401 to a token it had just issued: check the application's scopes (boleto-cobranca.read, boleto-cobranca.write) and that the certificate is the one registered with it"
  })

/** Inter's HTTP for the configured application, its agent closed with the scope. */
export const makeInterHttp = Effect.fn("InterHttp.make")(function*(config: BoletoBankConfig, options: InterHttpOptions = {}) {
  const dispatcher = yield* mutualTlsAgent(config)
  const tokens = yield* makeTokenClient({
    provider: "inter",
    tokenUrl: `${config.baseUrl}${TOKEN_PATH}`,
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    scopes: BOLETO_SCOPES,
    style: INTER_TOKEN_STYLE,
    dispatcher
  })
  const timeout = options.requestTimeout ?? "20 seconds"
  const backoff = backoffOf(options.retryBackoff ?? "500 millis", options.retries ?? 3)
  const send: InterHttp["send"] = (call) =>
    tokens.withToken(attempt(config, dispatcher, timeout, call)).pipe(
      (once) => (call.retry === false ? once : Effect.retry(once, { schedule: backoff, while: isRetryable })),
      Effect.catchTag("TokenRejected", () => Effect.fail(refusedFreshToken())),
      Effect.withSpan("InterHttp.send", { attributes: { method: call.method, route: routeOf(call.path) } })
    )
  return { tokens, send, backoff } satisfies InterHttp
})
