/**
 * The billing cycle state machine, in one table as the charge's
 * (`ChargeTransitions.ts`): use cases name the trigger, storage applies the
 * move as one conditional UPDATE (`WHERE status IN from`), so two triggers
 * racing on one cycle (a payment and a dunning's end) cannot both win. A
 * cycle moves with its own invoice (`invoice`): the one whose charge is the
 * cycle's, never a plan change's prorata on the same cycle.
 *
 * Spec: Cycle status values. The card's retry schedule (`RETRY_SCHEDULED`,
 * `DUNNING`) is the engine's: see `RetrySchedule.ts` and docs/decisions.md.
 */
import type { CycleStatus } from "../domain/Subscription.ts"
import { type InvoiceTransition, InvoiceTransitions } from "./InvoiceTransitions.ts"

/** Cycles planned and not issued yet: what they bill can still change, and a billing run issues them. */
export const SCHEDULED_CYCLE_STATUSES: ReadonlyArray<CycleStatus> = ["SCHEDULED"]

/** Cycles issued and not settled: their charge waits for a payment, an answer or a retry. */
export const UNPAID_CYCLE_STATUSES: ReadonlyArray<CycleStatus> = ["PENDING", "AWAITING_PAYMENT", "PROCESSING", "RETRY_SCHEDULED", "DUNNING"]

/** Cycles not settled yet, issued or not: a cancel cancels them, a payment pays them. */
export const OPEN_CYCLE_STATUSES: ReadonlyArray<CycleStatus> = [...SCHEDULED_CYCLE_STATUSES, ...UNPAID_CYCLE_STATUSES]

/** Cycles whose card was refused and that a manual retry (`POST /v1/subscriptions/{id}/retry`) may attempt again. */
export const RETRYABLE_CYCLE_STATUSES: ReadonlyArray<CycleStatus> = ["RETRY_SCHEDULED", "DUNNING"]

export type CycleTrigger =
  /** The billing run issued its Pix or boleto charge. */
  | "issued"
  /** The billing run attempted its card on the due date. */
  | "cardAttempted"
  /** The billing run attempted its card again on a retry day. */
  | "retried"
  /** The acquirer refused a billing run's card attempt, and the schedule has another one. */
  | "attemptRefused"
  /** The acquirer refused the last automatic attempt: dunning, only a manual retry or a new card can save it. */
  | "lastAttemptRefused"
  /** Its charge was paid. */
  | "paid"
  /** A checkout's own first card was refused: never retried (spec, Versioning 3). */
  | "firstCardRefused"
  /** Its dunning window ended unpaid. */
  | "dunningEnded"
  /** Its Pix or boleto charge expired unpaid. */
  | "expired"
  /** The subscription was canceled. */
  | "canceled"

export interface CycleTransition {
  readonly trigger: CycleTrigger
  readonly from: ReadonlyArray<CycleStatus>
  readonly to: CycleStatus
  /** The move of the cycle's own invoice with it, or null when the invoice stays as it is. */
  readonly invoice: InvoiceTransition | null
}

export const CycleTransitions = {
  issued: { trigger: "issued", from: SCHEDULED_CYCLE_STATUSES, to: "AWAITING_PAYMENT", invoice: null },
  cardAttempted: { trigger: "cardAttempted", from: SCHEDULED_CYCLE_STATUSES, to: "PROCESSING", invoice: null },
  retried: { trigger: "retried", from: ["RETRY_SCHEDULED"], to: "PROCESSING", invoice: null },
  attemptRefused: { trigger: "attemptRefused", from: ["PROCESSING"], to: "RETRY_SCHEDULED", invoice: null },
  lastAttemptRefused: { trigger: "lastAttemptRefused", from: ["PROCESSING"], to: "DUNNING", invoice: null },
  paid: { trigger: "paid", from: OPEN_CYCLE_STATUSES, to: "PAID", invoice: InvoiceTransitions.paid },
  firstCardRefused: { trigger: "firstCardRefused", from: OPEN_CYCLE_STATUSES, to: "FAILED", invoice: InvoiceTransitions.uncollectible },
  dunningEnded: { trigger: "dunningEnded", from: ["DUNNING"], to: "FAILED", invoice: InvoiceTransitions.uncollectible },
  expired: { trigger: "expired", from: ["PENDING", "AWAITING_PAYMENT"], to: "EXPIRED", invoice: InvoiceTransitions.expired },
  canceled: { trigger: "canceled", from: OPEN_CYCLE_STATUSES, to: "CANCELED", invoice: InvoiceTransitions.canceled }
} as const satisfies { readonly [T in CycleTrigger]: CycleTransition & { readonly trigger: T } }

/** The status `trigger` moves a cycle in `from` to, or `undefined` when the table has no such move. */
export const nextCycleStatus = (from: CycleStatus, trigger: CycleTrigger): CycleStatus | undefined => {
  const transition: CycleTransition = CycleTransitions[trigger]
  return transition.from.includes(from) ? transition.to : undefined
}
