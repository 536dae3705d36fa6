/**
 * Calls to Sefin Nacional and the DANFSe service over mutual TLS with the
 * issuer's own certificate (the system knows the issuer by it). One agent
 * per operation: an issuer sends a few notes a day, so a handshake per
 * note costs nothing worth a cache of keys per configuration, and a
 * replaced certificate is used from the next note on.
 *
 * A POST is made once: after a timeout or a 5xx the DPS may have been
 * issued, and sending it again could only earn a "DPS already exists"
 * refusal for a note that exists. The outcome is asked by the DPS's `Id`
 * instead. GETs are asked again with backoff.
 */
import { type Certificates } from "@billing/core"
import { Duration, Effect, Schedule, Schema, type Scope } from "effect"
import { type Dispatcher, request } from "undici"
import { clip, connectionFailure, mayHaveArrived } from "../tls/ConnectionFailure.ts"
import { mutualTlsAgent } from "../tls/MutualTlsAgent.ts"

export interface SefinHttpOptions {
  /** Trusted roots for the system's servers (PEM); the public roots when absent. */
  readonly ca?: string
  /** How long a call may take before its outcome counts as unknown (default 30 s). */
  readonly requestTimeout?: Duration.Input
  /** Retries of a GET after the first attempt (default 2). */
  readonly retries?: number
  /** The first backoff, doubled at each retry and jittered (default 500 ms). */
  readonly retryBackoff?: Duration.Input
}

/**
 * No answer, or a 5xx. `outcomeUnknown`: the request may have been done
 * (a timeout, a connection closed midway, a server error); otherwise it
 * never arrived (refused, unknown host, failed handshake).
 */
export class SefinUnreachable extends Schema.TaggedError<SefinUnreachable>()("SefinUnreachable", {
  outcomeUnknown: Schema.Boolean,
  message: Schema.String
}) {}

export interface SefinAnswer {
  readonly status: number
  readonly body: Uint8Array
  /** The body as UTF-8 text. */
  readonly text: string
}

export interface SefinSession {
  /** One POST of `body` as JSON; 5xx answers fail as `SefinUnreachable`. */
  readonly post: (url: string, body: unknown) => Effect.Effect<SefinAnswer, SefinUnreachable>
  /** A GET, asked again on timeouts, connection failures and 5xx. */
  readonly get: (url: string, accept?: string) => Effect.Effect<SefinAnswer, SefinUnreachable>
}

const attempt = (dispatcher: Dispatcher, timeout: Duration.Input, url: string, init: { readonly method: "GET" | "POST"; readonly body?: string; readonly accept: string }) =>
  Effect.tryPromise({
    try: async (signal) => {
      const headers: Record<string, string> = { accept: init.accept }
      if (init.body !== undefined) headers["content-type"] = "application/json"
      const answer = await request(url, { method: init.method, headers, body: init.body, dispatcher, signal })
      const body = new Uint8Array(await answer.body.arrayBuffer())
      return { status: answer.statusCode, body, text: new TextDecoder().decode(body) } satisfies SefinAnswer
    },
    catch: (error) => new SefinUnreachable({ outcomeUnknown: mayHaveArrived(error), message: `Sefin Nacional: ${connectionFailure(error)}` })
  }).pipe(
    Effect.timeoutOrElse({
      duration: timeout,
      orElse: () => Effect.fail(new SefinUnreachable({ outcomeUnknown: true, message: `Sefin Nacional não respondeu em ${Duration.format(Duration.fromInputUnsafe(timeout))}` }))
    }),
    Effect.flatMap((answer) =>
      answer.status >= 500
        ? Effect.fail(new SefinUnreachable({ outcomeUnknown: true, message: `Sefin Nacional respondeu ${answer.status} (${clip(answer.text)})` }))
        : Effect.succeed(answer)
    )
  )

/** A session over mutual TLS with `certificate`, its connections closed with the scope. */
export const sefinSession = (certificate: Certificates.ClientCertificate, options: SefinHttpOptions): Effect.Effect<SefinSession, never, Scope.Scope> =>
  Effect.map(mutualTlsAgent({ certificate, ca: options.ca }), (dispatcher) => {
    const timeout = options.requestTimeout ?? "30 seconds"
    const backoff = Schedule.exponential(options.retryBackoff ?? "500 millis").pipe(Schedule.jittered, Schedule.upTo({ times: options.retries ?? 2 }))
    return {
      post: (url, body) =>
        attempt(dispatcher, timeout, url, { method: "POST", body: JSON.stringify(body), accept: "application/json" }).pipe(
          Effect.withSpan("SefinHttp.post", { attributes: { url } })
        ),
      get: (url, accept = "application/json") =>
        attempt(dispatcher, timeout, url, { method: "GET", accept }).pipe(
          Effect.retry({ schedule: backoff }),
          Effect.withSpan("SefinHttp.get", { attributes: { url } })
        )
    }
  })
