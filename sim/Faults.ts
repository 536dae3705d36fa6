/**
 * The faults a seed injects, drawn from their own stream: turning a rate up
 * or down changes which calls fail, never the workload's choices.
 */
import { Context, Effect, Layer } from "effect"
import * as Random from "./Random.ts"

/** How often each fault strikes: a probability per call (per day for the receiver's outages). */
export interface FaultRates {
  /** The Pix provider times out before it registered the charge. */
  readonly pixLostBefore: number
  /** The Pix provider registered the charge, and its answer was lost on the way back. */
  readonly pixLostAfter: number
  /** The acquirer cannot be reached for an authorization. */
  readonly acquirerDown: number
  /** The webhook receiver has an outage (HTTP 500 or no answer) some hours of the day. */
  readonly receiverOutage: number
}

export type FaultKind = keyof FaultRates

export const defaultRates: FaultRates = {
  pixLostBefore: 0.04,
  pixLostAfter: 0.04,
  acquirerDown: 0.05,
  receiverOutage: 0.3
}

export class Faults extends Context.Service<Faults, {
  /** Whether the fault `kind` strikes this time; counted when it does. */
  readonly roll: (kind: FaultKind) => Effect.Effect<boolean>
  /** The faults' stream, for the shape of a fault once it struck (an outage's hours). */
  readonly random: Random.Random
  /** How many of each fault struck so far. */
  readonly injected: () => Readonly<Record<FaultKind, number>>
}>()("sim/Faults") {
  static readonly layer = (seed: number, rates: FaultRates = defaultRates) =>
    Layer.sync(Faults, () => {
      const random = Random.stream(seed, "faults")
      const counts: Record<FaultKind, number> = { pixLostBefore: 0, pixLostAfter: 0, acquirerDown: 0, receiverOutage: 0 }
      return Faults.of({
        roll: (kind) =>
          Effect.sync(() => {
            const struck = Random.chance(random, rates[kind])
            if (struck) counts[kind]++
            return struck
          }),
        random,
        injected: () => ({ ...counts })
      })
    })
}
