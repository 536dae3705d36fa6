/**
 * The reconciliation poll: what each PSP lists as received (`GET /pix`, all
 * pages) over the last `window` goes to `Billing.receivePix`, which confirms
 * the charges a callback missed and takes the rest as duplicates (one Pix,
 * one charge, by its end-to-end id). The window overlaps from one poll to the
 * next on purpose: a Pix listed late, or a poll that failed, is caught by the
 * next one, and overlap costs only duplicates.
 *
 * A PSP that cannot be asked is logged and named in the report, and the
 * others are polled all the same; a failure to record (the database) fails
 * the poll, for the worker to try again at its next tick.
 */
import { Billing } from "@billing/core"
import { Clock, Duration, Effect, Option, Result } from "effect"
import { receivedPixOf } from "../callback/ReceivedPix.ts"
import type { PixApiClient } from "../pix/PixApiClient.ts"
import { PspClients } from "../pix/PspClients.ts"

/** Ten minutes, polled every minute (`ReconcilePixJob`): each Pix is seen by ten polls, so a few failed polls in a row still miss nothing. */
export const DEFAULT_POLL_WINDOW: Duration.Input = "10 minutes"

/** What confirms the Pix: `Billing.receivePix`, or a stand-in in a test. */
export type PixReceiver<E, R> = (received: ReadonlyArray<Billing.ReceivedPix>) => Effect.Effect<ReadonlyArray<Billing.ReceivedPixOutcome>, E, R>

type ReceiveError = Effect.Error<ReturnType<typeof Billing.receivePix>>
type ReceiveServices = Effect.Services<ReturnType<typeof Billing.receivePix>>

/** What one poll did: how many Pix had each outcome, how many were not the engine's, and which PSPs could not be asked (with why). */
export interface PollReport {
  readonly outcomes: Readonly<Record<Billing.ReceivedPixOutcome, number>>
  readonly notOurs: number
  readonly unreachable: ReadonlyArray<string>
}

const NO_OUTCOMES = { confirmed: 0, duplicate: 0, unknownTxid: 0, amountMismatch: 0, chargeNotOpen: 0 } satisfies Record<Billing.ReceivedPixOutcome, number>

/** One PSP's Pix over [`from`, `to`], confirmed; a PSP that could not be asked is named with why. */
const pollPsp = Effect.fnUntraced(function*<E, R>(api: PixApiClient, from: Date, to: Date, receive: PixReceiver<E, R>) {
  const listed = yield* Effect.result(api.receivedPix(from, to))
  if (Result.isFailure(listed)) {
    yield* Effect.logWarning(`reconciliation: ${api.psp.name} could not be polled: ${listed.failure.message}`)
    return { outcomes: [], notOurs: 0, unreachable: [listed.failure.message] }
  }
  const ours = listed.success.flatMap((pix) => Option.toArray(receivedPixOf(pix, api.psp.name)))
  const outcomes = ours.length === 0 ? [] : yield* receive(ours)
  return { outcomes, notOurs: listed.success.length - ours.length, unreachable: [] }
})

const poll = Effect.fn("Reconciliation.pollReceivedPix")(function*<E, R>(window: Duration.Input, receive: PixReceiver<E, R>) {
  const clients = yield* PspClients
  const now = yield* Clock.currentTimeMillis
  const from = new Date(now - Duration.toMillis(window))
  const to = new Date(now)
  const outcomes: Record<Billing.ReceivedPixOutcome, number> = { ...NO_OUTCOMES }
  let notOurs = 0
  const unreachable: Array<string> = []
  for (const api of clients) {
    const polled = yield* pollPsp(api, from, to, receive)
    for (const outcome of polled.outcomes) outcomes[outcome]++
    notOurs += polled.notOurs
    unreachable.push(...polled.unreachable)
  }
  return { outcomes, notOurs, unreachable } satisfies PollReport
})

/** Polls every PSP of the providers file over the last `window` (default ten minutes) and confirms what it lists through `receive` (default `Billing.receivePix`). */
export function pollReceivedPix(window?: Duration.Input): Effect.Effect<PollReport, ReceiveError, PspClients | ReceiveServices>
export function pollReceivedPix<E, R>(window: Duration.Input, receive: PixReceiver<E, R>): Effect.Effect<PollReport, E, PspClients | R>
export function pollReceivedPix(window: Duration.Input = DEFAULT_POLL_WINDOW, receive: PixReceiver<unknown, unknown> = Billing.receivePix): Effect.Effect<PollReport, unknown, unknown> {
  return poll(window, receive)
}
