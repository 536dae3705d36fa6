/**
 * How long a Pix's money may still go back to its payer by a devolução: 90
 * days from the Pix's settlement (the Pix regulation; the BCB API Pix
 * refuses a later `PUT /pix/{e2eid}/devolucao/{id}` with
 * `PixDevolucaoInvalida`). The engine refuses such a refund at the request,
 * before any money moves, and reads a PSP's statement of a day from 90 days
 * before it, so each devolução's Pix is listed beside it.
 *
 * Found by a year-long simulation (seed 1): devoluções of Pix older than 90
 * days were in our books but absent from the statements we reconcile with.
 */

/** The window, in milliseconds, from a Pix's settlement. */
export const PIX_RETURN_WINDOW_MILLIS = 90 * 24 * 60 * 60 * 1000

/** The last instant a Pix settled at `settledAt` may be returned. */
export const pixReturnableUntil = (settledAt: Date): Date => new Date(settledAt.getTime() + PIX_RETURN_WINDOW_MILLIS)

/** Whether a Pix settled at `settledAt` may still be returned at `at` (the window's last instant included). */
export const isPixReturnable = (settledAt: Date, at: Date): boolean => at.getTime() <= pixReturnableUntil(settledAt).getTime()
