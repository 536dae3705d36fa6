/**
 * A charge left behind at a PSP: its creation timed out, the `GET` did not
 * find it (or failed too), and the charge went to the next PSP. The request
 * may still land at the first one, leaving a second payable copy of the same
 * charge there; so that PSP is asked again a few times in the background,
 * and a copy that turns up `ATIVA` is taken off sale.
 *
 * In memory and best effort, on purpose: a copy the watch misses (the
 * process stopped, the PSP stayed down past the watch) still carries our
 * txid, so a Pix paying it confirms the charge like any other (callback or
 * poll), and it expires with the charge's own deadline.
 */
import { Duration, Effect, Option } from "effect"
import type { PixApiClient } from "../pix/PixApiClient.ts"
import { findPspCharge, type PspCharge, removePspCharge } from "../pix/PspCharges.ts"

/** How often, and how many times, a PSP left behind is asked for the charge. */
export interface OrphanWatch {
  readonly interval: Duration.Input
  readonly times: number
}

/** Every 15 s for two minutes: a request still in a PSP's queue lands within seconds; a PSP down longer than that rarely takes it later. */
export const DEFAULT_ORPHAN_WATCH: OrphanWatch = { interval: "15 seconds", times: 8 }

/** One look: true once the question is settled (the copy removed, paid, or already off sale), false to ask again. */
const settle = (api: PixApiClient, charge: PspCharge) =>
  findPspCharge(api, charge).pipe(
    Effect.flatMap(Option.match({
      onNone: () => Effect.succeed(false),
      onSome: (found) => {
        if (found.status === "ATIVA") {
          return removePspCharge(api, charge).pipe(
            Effect.andThen(Effect.logInfo(`${api.psp.name}: removed the copy of ${charge.txid} left there when the charge moved to another PSP`)),
            Effect.as(true)
          )
        }
        // Paid there: the Pix names our txid and confirms the charge all the same, but its refunds belong to this PSP.
        const said = found.status === "CONCLUIDA"
          ? Effect.logError(`${api.psp.name}: the copy of ${charge.txid} left there was paid; the charge records another PSP`)
          : Effect.void
        return Effect.as(said, true)
      }
    })),
    Effect.catch((error) => Effect.as(Effect.logDebug(`${api.psp.name}: could not look for ${charge.txid} yet: ${error.message}`), false))
  )

/** Watches `api`'s PSP for `charge` and takes it off sale if it turns up. */
export const removeIfItTurnsUp = Effect.fn("Failover.removeIfItTurnsUp")(function*(api: PixApiClient, charge: PspCharge, watch: OrphanWatch) {
  const settled = yield* Effect.sleep(watch.interval).pipe(
    Effect.andThen(settle(api, charge)),
    Effect.repeat({ until: (done) => done, times: Math.max(0, watch.times - 1) })
  )
  if (!settled) yield* Effect.logDebug(`${api.psp.name}: ${charge.txid} never turned up after ${watch.times} looks`)
})
