/**
 * The faults a seed injects, drawn from their own stream: turning a rate up
 * or down changes which calls fail, never the workload's choices.
 */
import { Context, Effect, Layer } from "effect"
import * as Random from "./Random.ts"

/** How often each fault strikes: a probability per call (per day for outages, per engine call for crashes). */
export interface FaultRates {
  /** The sandbox Pix provider times out before it registered the charge. */
  readonly pixLostBefore: number
  /** The sandbox Pix provider registered the charge, and its answer was lost on the way back. */
  readonly pixLostAfter: number
  /** The acquirer cannot be reached for an authorization. */
  readonly acquirerDown: number
  /** The webhook receiver has an outage (HTTP 500 or no answer) some hours of the day. */
  readonly receiverOutage: number
  /** A production PSP times out on a new charge before registering it. */
  readonly pspLostBefore: number
  /** A production PSP registers a new charge and its answer is lost. */
  readonly pspLostAfter: number
  /** After a lost answer, the PSP cannot be asked whether it holds the charge either (the failover moves on). */
  readonly pspLookupFails: number
  /** One of the PSPs is down for an hour of the day (per day). */
  readonly pspDown: number
  /** The PSP repeats its callback of a Pix received. */
  readonly callbackDuplicate: number
  /** The payer pays, and the PSP calls back, before the PSP's answer to the charge's creation reached the engine. */
  readonly callbackEarly: number
  /** The PSP's callback never comes: only the poll can find the Pix. */
  readonly callbackLost: number
  /** The production acquirer answers nothing to an authorization (its outcome unknown to the engine). */
  readonly cardUnknown: number
  /** The production city takes a DPS but decides hours later. */
  readonly cityLate: number
  /** The production city's answer is lost, before or after it took the DPS. */
  readonly cityLost: number
  /** The engine's process dies at a point inside a use case (per engine call). */
  readonly crash: number
}

export type FaultKind = keyof FaultRates

export const defaultRates: FaultRates = {
  pixLostBefore: 0.04,
  pixLostAfter: 0.04,
  acquirerDown: 0.05,
  receiverOutage: 0.3,
  pspLostBefore: 0.05,
  pspLostAfter: 0.05,
  pspLookupFails: 0.5,
  pspDown: 0.3,
  callbackDuplicate: 0.15,
  callbackEarly: 0.05,
  callbackLost: 0.15,
  cardUnknown: 0.2,
  cityLate: 0.2,
  cityLost: 0.1,
  crash: 0.02
}

/** No fault at all: what the final pass of a run gets once every fault has healed. */
export const noFaults: FaultRates = Object.fromEntries(Object.keys(defaultRates).map((k) => [k, 0])) as unknown as FaultRates

export class Faults extends Context.Service<Faults, {
  /** Whether the fault `kind` strikes this time; counted when it does. */
  readonly roll: (kind: FaultKind) => Effect.Effect<boolean>
  /** The faults' stream, for the shape of a fault once it struck (an outage's hours). */
  readonly random: Random.Random
  /** How many of each fault struck so far. */
  readonly injected: () => Readonly<Record<FaultKind, number>>
  /** From now on no fault strikes (the end of a run, once the world has healed). */
  readonly heal: Effect.Effect<void>
}>()("sim/Faults") {
  static readonly layer = (seed: number, rates: FaultRates = defaultRates) =>
    Layer.sync(Faults, () => {
      const random = Random.stream(seed, "faults")
      const counts = Object.fromEntries(Object.keys(defaultRates).map((k) => [k, 0])) as Record<FaultKind, number>
      let current = rates
      return Faults.of({
        roll: (kind) =>
          Effect.sync(() => {
            const struck = Random.chance(random, current[kind])
            if (struck) counts[kind]++
            return struck
          }),
        random,
        injected: () => ({ ...counts }),
        heal: Effect.sync(() => void (current = noFaults))
      })
    })
}
