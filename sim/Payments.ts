/**
 * The buyers paying, and the PSPs telling the engine. A sandbox account's
 * charge is paid in the sandbox (`requestSandboxPayment`, confirmed by the
 * worker). A production account's Pix is paid at the PSP that holds it:
 * the PSP's books take the money, and the PSP calls the engine back
 * (`Billing.receivePix`, as its callback route does), sometimes twice,
 * sometimes never; the reconciliation poll (`pollReceivedPix` over the
 * simulated PSPs' statements) must find what no callback brought.
 */
import { Billing, ChargeId, OPEN_STATUSES } from "@billing/core"
import { pollReceivedPix } from "@billing/providers"
import { Clock, Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import { callBack } from "./Engine.ts"
import { Faults } from "./Faults.ts"
import { Psps } from "./Psps.ts"
import * as Random from "./Random.ts"
import { step } from "./Steps.ts"
import { planPayment, type Workload } from "./Workload.ts"

/** The payers' banks (ISPBs) of Pix paid at a PSP. */
const PAYER_BANKS = ["60701190", "00360305", "90400888", "00000000", "60746948"] as const

/** How far back each poll looks past the last one that reached every PSP: the worker's own window, for the overlap it gives. */
const POLL_OVERLAP = 10 * 60_000

interface OpenCharge {
  readonly id: string
  readonly accountId: string
  readonly sandbox: boolean
  readonly paymentType: string
  readonly txid: string
  readonly psp: string | null
}

/** A production Pix paid at its PSP, and the PSP's callbacks of it (none, one, or two). */
const payAtPsp = Effect.fn("Payments.payAtPsp")(function*(w: Workload, charge: OpenCharge) {
  const psps = yield* Psps
  const faults = yield* Faults
  const txid = `BLNG${charge.txid}`
  // The buyer who paid the moment the PSP registered the charge (`callbackEarly`) pays no more, whatever PSP the charge came to record.
  const early = psps.books.flatMap((b) => b.pix).find((pix) => pix.txid === txid)
  if (early !== undefined) return void w.log.lines.push(`pay ${charge.id} -> paid already by ${early.endToEndId} at ${early.psp}`)
  const book = psps.books.find((b) => b.name === charge.psp)
  const paid = book?.pay(txid, Random.pick(w.random, PAYER_BANKS), yield* Clock.currentTimeMillis)
  if (paid === undefined) return void w.log.lines.push(`pay ${charge.id} at ${charge.psp ?? "no PSP"} -> not payable`)
  w.log.lines.push(`pay ${charge.id} at ${paid.psp} -> ${paid.endToEndId}`)
  if (yield* faults.roll("callbackLost")) return void w.log.lines.push(`  callback of ${paid.endToEndId} lost`)
  const times = (yield* faults.roll("callbackDuplicate")) ? 2 : 1
  for (let i = 0; i < times; i++) yield* step(w.log, `  callback of ${paid.endToEndId}`, callBack(paid))
})

/**
 * The buyers' payments due by `day`: charges the billing run opened since
 * the last look get their plan first (in id order), then every charge due
 * is paid, in id order; a late one may find it expired.
 */
export const payDue = Effect.fn("Payments.payDue")(function*(w: Workload, day: number) {
  const sql = yield* SqlClient.SqlClient
  const open = yield* sql<OpenCharge>`
    SELECT c.id, c.account_id AS "accountId", a.sandbox, c.payment_type AS "paymentType", c.txid, c.psp FROM charges c JOIN accounts a ON a.id = c.account_id
    WHERE c.status IN ${sql.in(OPEN_STATUSES as Array<string>)} AND c.payment_type <> 'CREDIT_CARD' ORDER BY c.id`.pipe(Effect.orDie)
  const byId = new Map(open.map((c) => [c.id, c]))
  for (const charge of open) if (!w.payDays.has(charge.id)) planPayment(w, charge.id, day)
  const due = [...w.payDays].filter(([, on]) => on !== null && on <= day).map(([id]) => id).sort()
  for (const chargeId of due) {
    w.payDays.delete(chargeId)
    const charge = byId.get(chargeId)
    // No longer open (expired, canceled): the buyer comes too late and nothing is asked.
    if (charge === undefined) continue
    if (!charge.sandbox && charge.paymentType === "PIX") yield* payAtPsp(w, charge)
    else yield* step(w.log, `pay ${chargeId}`, Billing.requestSandboxPayment(ChargeId.make(chargeId)).pipe(Billing.asAccount(charge.accountId)), () => "requested")
  }
})

/**
 * The reconciliation poll, as the worker runs it every minute: every PSP's
 * Pix since the last poll that reached them all (and the usual overlap),
 * handed to `Billing.receivePix`. A PSP down at the time is polled again
 * from the same point next time.
 */
export const pollPix = Effect.fn("Payments.pollPix")(function*(w: Workload, label: string) {
  const psps = yield* Psps
  const now = yield* Clock.currentTimeMillis
  const window = now - psps.polledUntil() + POLL_OVERLAP
  const polled = yield* step(w.log, `${label} poll`, pollReceivedPix(window), (r) =>
    `confirmed=${r.outcomes.confirmed} duplicate=${r.outcomes.duplicate} notOpen=${r.outcomes.chargeNotOpen} unknown=${r.outcomes.unknownTxid} unreachable=${r.unreachable.length}`)
  if (Option.isSome(polled) && polled.value.unreachable.length === 0) psps.setPolledUntil(now)
})
