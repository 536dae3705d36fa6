/**
 * A new charge across the PSPs of the list, in order: the first whose
 * circuit admits it takes it. A PSP that is down (refused connection, failed
 * handshake, 5xx after the client's retries) costs the charge nothing but
 * time: it goes to the next PSP within the same call, so the merchant's
 * request succeeds while one PSP is down. A timeout may have created the
 * charge, so that PSP is asked (`GET`) first: what it holds is used; when it
 * holds nothing, or cannot say, the charge moves on and the PSP left behind
 * is watched for a copy turning up (`OrphanCharges.ts`). A PSP's refusal of
 * the request itself (a 4xx) is the answer: another PSP would refuse it too.
 *
 * The circuit judges each PSP's whole try: a timeout whose charge the `GET`
 * then finds counts as answered (the PSP is up, only slow), one that moves
 * the charge on counts as a failure.
 */
import { PixProviderError, type PixRegistered, type PixRegistration } from "@billing/core"
import { Clock, Effect, FiberSet, Option, Result } from "effect"
import type { PixApiClient, PixApiError } from "../pix/PixApiClient.ts"
import { toPort } from "../pix/PixProviderPsp.ts"
import { createPspCharge, foundPspCharge, type PspCharge, pspChargeOf } from "../pix/PspCharges.ts"
import { failureKind, type GuardedPsp, throughCircuit } from "./GuardedPsp.ts"
import { type OrphanWatch, removeIfItTurnsUp } from "./OrphanCharges.ts"

export interface ChargeFailover {
  /** The PSPs in the providers file's order. */
  readonly psps: ReadonlyArray<GuardedPsp>
  /** The background watches of PSPs left behind; closed with the layer. */
  readonly watches: FiberSet.FiberSet<void, never>
  readonly orphanWatch: OrphanWatch
}

/** After a timeout: the charge the PSP holds, or (none found, or no answer) the watch started and the timeout kept as the failure. */
const lookBeforeMoving = (failover: ChargeFailover, api: PixApiClient, charge: PspCharge, timeout: PixApiError): Effect.Effect<PixRegistered, PixApiError> =>
  foundPspCharge(api, charge).pipe(
    Effect.catch(() => Effect.succeedNone),
    Effect.flatMap((found: Option.Option<PixRegistered>) =>
      Option.isSome(found)
        ? Effect.succeed(found.value)
        : FiberSet.run(failover.watches, removeIfItTurnsUp(api, charge, failover.orphanWatch)).pipe(Effect.andThen(Effect.fail(timeout)))
    )
  )

/** The charge at one PSP: created, or found there after a timeout. */
const createAt = Effect.fnUntraced(function*(failover: ChargeFailover, api: PixApiClient, input: PixRegistration) {
  const charge = yield* Effect.fromResult(pspChargeOf(api.psp, input, yield* Clock.currentTimeMillis))
  return yield* createPspCharge(api, charge).pipe(
    Effect.catchIf((error) => failureKind(error) === "unknown", (timeout) => lookBeforeMoving(failover, api, charge, timeout))
  )
})

/** The port's `createCharge` over the list: the registered charge names the PSP that took it. */
export const createChargeFailover = (failover: ChargeFailover) =>
  Effect.fn("Failover.createCharge")(function*(input: PixRegistration) {
    const reasons: Array<string> = []
    for (const guarded of failover.psps) {
      const attempt = yield* Effect.result(throughCircuit(guarded, createAt(failover, guarded.api, input)))
      if (Result.isSuccess(attempt)) return attempt.success satisfies PixRegistered
      const error = attempt.failure
      if (error._tag !== "CircuitOpen" && failureKind(error) === "refused") return yield* toPort(error)
      if (error._tag !== "CircuitOpen") yield* Effect.logWarning(`Pix charge ${input.txid} moves on from ${guarded.api.psp.name}: ${error.message}`)
      reasons.push(error.message)
    }
    return yield* new PixProviderError({ message: `no PSP took the Pix charge ${input.txid}: ${reasons.join("; ")}` })
  })
