/**
 * Paid sandbox charges contested, through the sandbox's triggers: a MED
 * infraction on a Pix (the amount blocked in the RETAINED book, then
 * released to the merchant or returned to the payer) and a card dispute
 * (won, or lost as a chargeback). A production account has no such
 * trigger: its MED and disputes come from its providers, not simulated.
 */
import { Billing, DisputeId, DisputeRequest, MedInfractionId, MedInfractionRequest } from "@billing/core"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import * as Random from "./Random.ts"
import { step } from "./Steps.ts"
import { as, decode, type Merchant, type Workload } from "./Workload.ts"

const REASONS = ["FRAUD", "NOT_RECEIVED", "DUPLICATED"] as const

type Kind = "med" | "dispute"

/** The merchant's open contests of `kind`, oldest first. */
const openOf = Effect.fn("Contests.openOf")(function*(m: Merchant, kind: Kind) {
  const sql = yield* SqlClient.SqlClient
  const rows = kind === "med"
    ? sql<{ id: string }>`SELECT id FROM med_infractions WHERE account_id = ${m.accountId} AND status = 'OPEN' ORDER BY id`
    : sql<{ id: string }>`SELECT id FROM disputes WHERE account_id = ${m.accountId} AND status = 'OPEN' ORDER BY id`
  return (yield* Effect.orDie(rows)).map((r) => r.id)
})

/** The merchant's paid charges a contest of `kind` may name: Pix for MED, card for a dispute (the engine refuses what is not contestable). */
const contestable = Effect.fn("Contests.contestable")(function*(m: Merchant, kind: Kind) {
  const sql = yield* SqlClient.SqlClient
  const type = kind === "med" ? "PIX" : "CREDIT_CARD"
  return yield* sql<{ id: string; amountCents: string }>`
    SELECT id, amount_cents::text AS "amountCents" FROM charges
    WHERE account_id = ${m.accountId} AND payment_type = ${type} AND status IN ('PAID', 'PARTIALLY_REFUNDED') ORDER BY id`.pipe(Effect.orDie)
})

/** Opens a contest of `kind` on a paid charge: all of it, or a part. */
const open = Effect.fn("Contests.open")(function*(w: Workload, m: Merchant, kind: Kind) {
  const charges = yield* contestable(m, kind)
  if (charges.length === 0) return void w.log.lines.push(`${kind}: nothing contestable at ${m.accountId}`)
  const charge = Random.pick(w.random, charges)
  const amount = Number(charge.amountCents)
  const part = Random.chance(w.random, 0.4) && amount > 1 ? Random.int(w.random, 1, amount - 1) : undefined
  const body = { chargeId: charge.id, reason: Random.pick(w.random, REASONS), ...(part === undefined ? {} : { amount: part / 100 }) }
  const label = `open ${kind} ${part ?? "all"} of ${charge.id}`
  if (kind === "med") {
    return yield* step(w.log, label, Effect.flatMap(decode(MedInfractionRequest, body), Billing.openInfraction).pipe(as(m)), (r) => `${r.infractionId} ${r.status}`)
  }
  yield* step(w.log, label, Effect.flatMap(decode(DisputeRequest, body), Billing.openDispute).pipe(as(m)), (r) => `${r.disputeId} ${r.status}`)
})

/** Decides an open contest of `kind`: released or returned (MED), won or lost (dispute). */
const decide = Effect.fn("Contests.decide")(function*(w: Workload, m: Merchant, kind: Kind, id: string) {
  const favourable = Random.chance(w.random, 0.5)
  if (kind === "med") {
    const use = favourable ? Billing.releaseInfraction : Billing.returnInfraction
    return yield* step(w.log, `${favourable ? "release" : "return"} med ${id}`, use(MedInfractionId.make(id)).pipe(as(m)), (r) => `${r.status} ${r.refundId ?? "-"}`)
  }
  const use = favourable ? Billing.winDispute : Billing.loseDispute
  yield* step(w.log, `${favourable ? "win" : "lose"} dispute ${id}`, use(DisputeId.make(id)).pipe(as(m)), (r) => `${r.status} ${r.refundId ?? "-"}`)
})

/** A sandbox merchant's charge contested, or an open contest decided. */
export const contest = Effect.fn("Contests.contest")(function*(w: Workload, m: Merchant) {
  if (!m.sandbox) return void w.log.lines.push(`contest: ${m.accountId} is a production account, with no sandbox trigger`)
  const kind = Random.pick(w.random, ["med", "dispute"] as const)
  const pending = yield* openOf(m, kind)
  if (pending.length > 0 && Random.chance(w.random, 0.7)) return yield* decide(w, m, kind, Random.pick(w.random, pending))
  yield* open(w, m, kind)
})
