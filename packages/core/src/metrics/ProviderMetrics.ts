/**
 * Calls to the outside providers (the PSPs, the acquirer, the bank, the
 * city), counted by provider, operation and outcome, timed, and traced as
 * client spans: what tells an
 * operator that a provider slows down or fails before the merchants do. Only
 * production accounts' calls are metered (the sandbox layers answer from
 * memory); each port's `byEnvironment` applies it to its production side.
 */
import { Clock, Effect, Exit, Metric } from "effect"

const calls = Metric.counter("billing_provider_calls_total", {
  description: "Calls to production providers, by provider, operation and outcome (ok, error)",
  incremental: true
})

const duration = Metric.histogram("billing_provider_call_duration_seconds", {
  description: "Time a production provider's call took, by provider and operation",
  // 10 ms to about 80 s: a token is a few milliseconds, a national system's answer can take tens of seconds.
  boundaries: Metric.exponentialBoundaries({ start: 0.01, factor: 2, count: 14 })
})

/** `effect`, counted and timed as `operation` of `provider`, in a client span of its own (what a trace shows of the call). */
const timed = <A, E, R>(provider: string, operation: string, effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const started = yield* Clock.currentTimeNanos
    const exit = yield* Effect.exit(effect)
    const seconds = Number((yield* Clock.currentTimeNanos) - started) / 1e9
    yield* Metric.update(Metric.withAttributes(calls, { provider, operation, outcome: Exit.isSuccess(exit) ? "ok" : "error" }), 1)
    yield* Metric.update(Metric.withAttributes(duration, { provider, operation }), seconds)
    return yield* exit
  }).pipe(Effect.withSpan(`provider.${provider}.${operation}`, { kind: "client", attributes: { "billing.provider": provider } }))

/** `service` (a port's), each of its operations counted and timed under `provider`. */
export const metered = <S extends object>(provider: string, service: S): S =>
  Object.fromEntries(Object.entries(service).map(([operation, member]) => [
    operation,
    typeof member === "function"
      ? (...args: ReadonlyArray<unknown>) => timed(provider, operation, (member as (...args: ReadonlyArray<unknown>) => Effect.Effect<unknown, unknown, unknown>)(...args))
      : member
  ])) as S
