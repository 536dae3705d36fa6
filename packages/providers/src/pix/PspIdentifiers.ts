/**
 * The identifiers the engine gives a PSP, each derived from one of ours so
 * that asking again (a retry after a timeout, a worker after a crash) repeats
 * the same request instead of making a second charge, refund or payout.
 *
 * A charge's txid at the PSP must have 26 to 35 letters and digits (the BCB's
 * `TxId`), while the engine's (`PixRegistration.txid`) has 25, the most a
 * BR Code of our own takes. The PSP's is ours behind a fixed prefix: the same
 * charge always gets the same txid, and a callback's txid maps back to our
 * charge by dropping the prefix (a txid without it was not made by us).
 */
import { Option } from "effect"
import { createHash } from "node:crypto"

/** Marks a txid as the engine's; four characters, so a 22 to 31 character txid of ours fits the PSP's 26 to 35. */
export const PSP_TXID_PREFIX = "BLNG"

const ALNUM = /^[A-Za-z0-9]+$/
const PSP_TXID = /^[A-Za-z0-9]{26,35}$/

/** The txid a charge has at the PSP, or none when ours cannot make one (not letters and digits, or too short or long). */
export const pspTxid = (txid: string): Option.Option<string> => {
  const candidate = `${PSP_TXID_PREFIX}${txid}`
  return PSP_TXID.test(candidate) ? Option.some(candidate) : Option.none()
}

/** The engine's txid behind a PSP's, or none when the PSP's was not made by `pspTxid`. */
export const engineTxid = (txid: string): Option.Option<string> =>
  PSP_TXID.test(txid) && txid.startsWith(PSP_TXID_PREFIX) ? Option.some(txid.slice(PSP_TXID_PREFIX.length)) : Option.none()

/**
 * An id of 1 to 35 letters and digits from one of ours (a refund's or a
 * withdrawal's, `ref_…`, `SANDBOX_wdr_…`): its letters and digits when they
 * fit (our ids differ in them, the underscores only separate fixed parts),
 * else 35 hex digits of its SHA-256.
 */
export const pspReference = (reference: string): string => {
  const letters = reference.replace(/[^A-Za-z0-9]/g, "")
  return letters.length > 0 && letters.length <= 35 && ALNUM.test(letters)
    ? letters
    : createHash("sha256").update(reference).digest("hex").slice(0, 35)
}
