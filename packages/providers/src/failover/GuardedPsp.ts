/**
 * A PSP's client behind its circuit (`Circuit.ts`, held in a `Ref`): a call
 * goes only when the circuit admits it, and how it ends moves the circuit.
 * What a failure says is read once here (`failureKind`), for the circuit and
 * for the failover's choice of moving on or not.
 */
import { Cause, Clock, Effect, Exit, Metric, Option, Ref, Schema } from "effect"
import type { PixApiClient } from "../pix/PixApiClient.ts"
import { admit, CLOSED, type CircuitState, COOL_DOWN_MILLIS, failed, succeeded } from "./Circuit.ts"

/** The PSP was skipped: its circuit is open, or a probe is in flight. */
export class CircuitOpen extends Schema.TaggedError<CircuitOpen>()("CircuitOpen", {
  psp: Schema.String,
  message: Schema.String
}) {}

/**
 * What a failed call says. `refused`: the PSP answered about the request (a
 * 4xx, an answer we cannot read, a charge no PSP could take), so another PSP
 * would say the same and the PSP is healthy. `down`: the request never got
 * done (a refused connection, a failed handshake, a 5xx after the client's
 * retries, no token), so the next PSP may take it. `unknown`: no answer, the
 * request may have been done (a timeout), so ask before moving on.
 */
export type FailureKind = "refused" | "down" | "unknown"

export const failureKind = (error: { readonly _tag: string; readonly status?: number; readonly outcomeUnknown?: boolean }): FailureKind => {
  switch (error._tag) {
    case "PspUnreachable":
      return error.outcomeUnknown === true ? "unknown" : "down"
    case "TokenRequestFailed":
      return "down"
    case "PspProblem":
      return (error.status ?? 0) >= 500 ? "down" : "refused"
    default:
      return "refused"
  }
}

export interface GuardedPsp {
  readonly api: PixApiClient
  readonly circuit: Ref.Ref<CircuitState>
  /** The cool-down this PSP's circuit opens for (the recorded thirty seconds but in tests). */
  readonly coolDownMillis: number
}

export const guardPsp = (api: PixApiClient, coolDownMillis = COOL_DOWN_MILLIS): Effect.Effect<GuardedPsp> =>
  Effect.map(Ref.make(CLOSED), (circuit) => ({ api, circuit, coolDownMillis }))

/** The circuit after the call ended with `exit`, from `current`; an interrupted probe gives the circuit back as it was (`before`). */
const afterCall = <A, E extends { readonly _tag: string }>(exit: Exit.Exit<A, E>, current: CircuitState, before: CircuitState, now: number, coolDownMillis: number) => {
  if (Exit.isSuccess(exit)) return succeeded(current)
  const error = Cause.findErrorOption(exit.cause)
  // Interrupted or died: the PSP's health is not known, and a probe must not stay in flight for ever.
  if (Option.isNone(error)) return current._tag === "Probing" ? before : current
  return failureKind(error.value) === "refused" ? succeeded(current) : failed(current, now, coolDownMillis)
}

/** `call` at the PSP when its circuit admits it, else `CircuitOpen`; its end moves the circuit. */
export const throughCircuit = <A, E extends { readonly _tag: string }, R>(guarded: GuardedPsp, call: Effect.Effect<A, E, R>): Effect.Effect<A, E | CircuitOpen, R> =>
  Effect.gen(function*() {
    const now = yield* Clock.currentTimeMillis
    const { admission, before } = yield* Ref.modify(guarded.circuit, (state) => {
      const admission = admit(state, now)
      return [{ admission, before: state }, admission._tag === "Go" ? admission.state : state]
    })
    if (admission._tag === "Skip") {
      return yield* new CircuitOpen({ psp: guarded.api.psp.name, message: `${guarded.api.psp.name}: skipped, its circuit is open after failures in a row` })
    }
    return yield* call.pipe(Effect.onExit((exit) =>
      Effect.flatMap(Clock.currentTimeMillis, (end) => Ref.updateAndGet(guarded.circuit, (current) => afterCall(exit, current, before, end, guarded.coolDownMillis))).pipe(
        Effect.flatMap((state) => Metric.update(Metric.withAttributes(circuitOpen, { psp: guarded.api.psp.name }), state._tag === "Closed" ? 0 : 1))
      )
    ))
  })

/** The operator's view of each PSP's circuit: 1 while it is open or probing (the failover sends charges elsewhere), 0 while closed. */
const circuitOpen = Metric.gauge("billing_psp_circuit_open", { description: "Whether a PSP's circuit is open (1) or closed (0), by PSP" })
