/**
 * One PSP's HTTP: its mutual TLS agent, its token client, and `send`, which
 * makes one API call with a token (refreshed once on a 401), the profile's
 * extras, a timeout, and retries with backoff for what is worth retrying
 * (timeouts, connection failures, 5xx; never a 4xx). Answers are JSON read
 * as `unknown`, for the caller to decode with its Schema (`decodeAnswer`).
 */
import { Duration, Effect, Option, Redacted, Schedule, Schema } from "effect"
import { type Dispatcher, request } from "undici"
import type { PixPsp } from "../config/ProvidersConfig.ts"
import { makeTokenClient, type TokenClient } from "../oauth/TokenClient.ts"
import { TokenRejected, type TokenRequestFailed } from "../oauth/TokenErrors.ts"
import { clip, connectionFailure, mayHaveArrived } from "../tls/ConnectionFailure.ts"
import { mutualTlsAgent } from "../tls/MutualTlsAgent.ts"
import { EfiError, Problema } from "./PixApiSchemas.ts"
import { PspProfiles } from "./PixProfiles.ts"
import { isRetryable, PspAnswerInvalid, PspProblem, PspUnreachable } from "./PspErrors.ts"

export interface PspRequest {
  readonly method: "GET" | "PUT" | "PATCH" | "POST"
  /** Path segments after the base URL (`["cob", txid]`), each encoded here. */
  readonly path: ReadonlyArray<string>
  readonly query?: Readonly<Record<string, string>>
  /** Sent as JSON. */
  readonly body?: unknown
}

export interface PspHttpOptions {
  /** How long a call may take before its outcome counts as unknown (default 20 s). */
  readonly requestTimeout?: Duration.Input
  /** Retries of a retryable failure after the first attempt (default 3). */
  readonly retries?: number
  /** The first backoff, doubled at each retry and jittered (default 500 ms). */
  readonly retryBackoff?: Duration.Input
}

export type PspCallError = PspProblem | PspUnreachable | PspAnswerInvalid | TokenRequestFailed

export interface PspHttp {
  readonly psp: PixPsp
  readonly tokens: TokenClient
  /** The call's JSON answer (undefined when it has no body), for any 2xx status. */
  readonly send: (request: PspRequest) => Effect.Effect<unknown, PspCallError>
}

const decodeJson = Schema.decodeUnknownOption(Schema.fromJsonString(Schema.Unknown))
const decodeProblema = Schema.decodeUnknownOption(Problema)
const decodeEfiError = Schema.decodeUnknownOption(EfiError)

/** The error answer as a `PspProblem`: the standard's problem, Efí's `{ nome, mensagem }`, or the status alone. */
export const problemOf = (psp: string, status: number, text: string): PspProblem => {
  const json = Option.getOrUndefined(decodeJson(text))
  const problem = Option.getOrUndefined(decodeProblema(json))
  const efi = Option.getOrUndefined(decodeEfiError(json))
  const type = problem?.type ?? (efi === undefined ? "about:blank" : efi.nome)
  const title = problem?.title ?? efi?.mensagem ?? (text === "" ? `HTTP ${status}` : clip(text))
  const correlationId = problem?.correlationId ?? null
  const detail = problem?.detail ?? null
  return new PspProblem({
    psp,
    status,
    type,
    title,
    detail,
    correlationId,
    violacoes: problem?.violacoes ?? [],
    message: `${psp} answered ${status} ${type}: ${title}${detail === null ? "" : ` (${clip(detail)})`}${
      correlationId === null ? "" : ` [correlationId ${correlationId}]`
    }`
  })
}

/** Decodes a 2xx answer with `schema`, or fails naming the PSP and what did not match. */
export const decodeAnswer = <T>(psp: string, what: string, schema: Schema.ConstraintDecoder<T>) => {
  const decode = Schema.decodeUnknownEffect(schema)
  return (answer: unknown): Effect.Effect<T, PspAnswerInvalid> =>
    decode(answer).pipe(
      Effect.mapError((error) => new PspAnswerInvalid({ psp, message: `${psp}: ${what} does not have the standard's shape (${clip(String(error.message))})` }))
    )
}

const urlOf = (psp: PixPsp, call: PspRequest) => {
  const url = new URL(`${psp.baseUrl}/${call.path.map(encodeURIComponent).join("/")}`)
  for (const [name, value] of Object.entries(call.query ?? {})) url.searchParams.set(name, value)
  const appKey = PspProfiles[psp.profile].appKeyParameter
  if (appKey !== undefined && psp.appKey !== undefined) url.searchParams.set(appKey, psp.appKey)
  return url
}

/** One attempt with `token`: 401 is `TokenRejected` (for the token client's one refresh), other non-2xx a `PspProblem`. */
const attempt = (psp: PixPsp, dispatcher: Dispatcher, timeout: Duration.Input, call: PspRequest) => (token: Redacted.Redacted<string>) =>
  Effect.tryPromise({
    try: async (signal) => {
      const headers: Record<string, string> = { authorization: `Bearer ${Redacted.value(token)}`, accept: "application/json, application/problem+json" }
      if (call.body !== undefined) headers["content-type"] = "application/json"
      const body = call.body === undefined ? undefined : JSON.stringify(call.body)
      const answer = await request(urlOf(psp, call), { method: call.method, headers, body, dispatcher, signal })
      return { status: answer.statusCode, text: await answer.body.text() }
    },
    catch: (error) => new PspUnreachable({ psp: psp.name, outcomeUnknown: mayHaveArrived(error), message: `${psp.name}: ${connectionFailure(error)}` })
  }).pipe(
    Effect.timeoutOrElse({
      duration: timeout,
      orElse: () => Effect.fail(new PspUnreachable({ psp: psp.name, outcomeUnknown: true, message: `${psp.name} did not answer within ${Duration.format(Duration.fromInputUnsafe(timeout))}` }))
    }),
    Effect.flatMap((answer): Effect.Effect<unknown, PspProblem | PspAnswerInvalid | TokenRejected> => {
      if (answer.status === 401) return Effect.fail(new TokenRejected({ provider: psp.name }))
      if (answer.status < 200 || answer.status > 299) return Effect.fail(problemOf(psp.name, answer.status, answer.text))
      if (answer.text === "") return Effect.succeed(undefined)
      return Option.match(decodeJson(answer.text), {
        onNone: () => Effect.fail(new PspAnswerInvalid({ psp: psp.name, message: `${psp.name} answered ${answer.status} with a body that is not JSON (${clip(answer.text)})` })),
        onSome: Effect.succeed
      })
    })
  )

/** A 401 to a token just issued: not a stale token but credentials the API does not accept. */
const refusedFreshToken = (psp: string) =>
  new PspProblem({
    psp,
    status: 401,
    type: "about:blank",
    title: "Unauthorized",
    detail: null,
    correlationId: null,
    violacoes: [],
    message: `${psp} answered 401 to a token it had just issued: check the application's scopes and that the certificate is the one registered with it`
  })

/** The token client of `psp` over `dispatcher` (its mutual TLS agent), in the way its profile asks for tokens. */
export const pspTokenClient = (psp: PixPsp, dispatcher: Dispatcher) =>
  makeTokenClient({
    provider: psp.name,
    tokenUrl: psp.tokenUrl,
    clientId: psp.clientId,
    clientSecret: psp.clientSecret,
    scopes: psp.scopes,
    style: PspProfiles[psp.profile].token,
    dispatcher
  })

/** The PSP's HTTP, its agent closed with the scope. */
export const makePspHttp = Effect.fn("PspHttp.make")(function*(psp: PixPsp, options: PspHttpOptions = {}) {
  const dispatcher = yield* mutualTlsAgent(psp)
  const tokens = yield* pspTokenClient(psp, dispatcher)
  const timeout = options.requestTimeout ?? "20 seconds"
  const backoff = Schedule.exponential(options.retryBackoff ?? "500 millis").pipe(
    Schedule.jittered,
    Schedule.upTo({ times: options.retries ?? 3 })
  )
  const send: PspHttp["send"] = (call) =>
    tokens.withToken(attempt(psp, dispatcher, timeout, call)).pipe(
      Effect.retry({ schedule: backoff, while: isRetryable }),
      Effect.catchTag("TokenRejected", () => Effect.fail(refusedFreshToken(psp.name))),
      Effect.withSpan("PspHttp.send", { attributes: { psp: psp.name, method: call.method, route: call.path[0] } })
    )
  return { psp, tokens, send } satisfies PspHttp
})
