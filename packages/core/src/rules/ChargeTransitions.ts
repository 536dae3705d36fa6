/**
 * The charge state machine: every status change a charge can make, in one
 * table. Use cases name the trigger; storage applies the move as one
 * conditional UPDATE (`WHERE status IN from`), so two triggers racing on one
 * charge (a payment and an expiry) can never both win. A pair that is not in
 * the table is refused: `nextChargeStatus` answers `undefined` for it.
 *
 * Spec: States and transitions, Charge status values. The moves the spec
 * leaves open (cancel, archive, the card attempt) are recorded in
 * docs/decisions.md.
 */
import { type ChargeStatus, OPEN_STATUSES } from "../domain/Charge.ts"
import type { EventName } from "../domain/Events.ts"

/** What moves a charge. */
export type ChargeTrigger =
  /** `POST /v1/wallet/pay/{id}`: the sandbox payment is requested and in flight. */
  | "paymentRequested"
  /** The bank (or the sandbox worker) confirms a Pix or boleto payment. */
  | "paymentConfirmed"
  /** The deadline passed unpaid. */
  | "expired"
  /** `DELETE /v1/charges/{id}`. */
  | "canceled"
  /** `POST /v1/charges/{id}/archive`. */
  | "archived"
  /** The acquirer approved the card. */
  | "cardApproved"
  /** The acquirer refused the card, or could not be reached. */
  | "cardFailed"
  /** A refund of part of what was paid is confirmed. */
  | "partiallyRefunded"
  /** Refunds confirmed reach the whole amount paid. */
  | "refunded"
  /** The cardholder's bank contests a paid card charge. */
  | "disputed"
  /** The dispute is decided for the merchant: the charge is paid again, */
  | "disputeWon"
  /** or partially refunded, when refunds were confirmed before the dispute. */
  | "disputeWonAfterRefund"
  /** The dispute is decided for the cardholder: the acquirer takes the amount back. */
  | "chargedBack"

export interface ChargeTransition {
  readonly trigger: ChargeTrigger
  readonly from: ReadonlyArray<ChargeStatus>
  readonly to: ChargeStatus
  /** The event the move records in the outbox, if any. */
  readonly event: EventName | null
}

const OPEN = OPEN_STATUSES

/** The table: one row per trigger. Its `event`s are the names use cases append to the outbox. */
export const ChargeTransitions = {
  paymentRequested: { trigger: "paymentRequested", from: ["PENDING", "AWAITING_PAYMENT", "PROCESSING"], to: "PROCESSING", event: null },
  paymentConfirmed: { trigger: "paymentConfirmed", from: OPEN, to: "PAID", event: "payment.success" },
  expired: { trigger: "expired", from: OPEN, to: "EXPIRED", event: "charge.expired" },
  canceled: { trigger: "canceled", from: OPEN, to: "CANCELED", event: null },
  archived: { trigger: "archived", from: ["CANCELED"], to: "ARCHIVED", event: null },
  cardApproved: { trigger: "cardApproved", from: ["PROCESSING"], to: "PAID", event: "payment.success" },
  cardFailed: { trigger: "cardFailed", from: ["PROCESSING"], to: "FAILED", event: null },
  // The refund's own events (`refund.*`) tell of these moves.
  partiallyRefunded: { trigger: "partiallyRefunded", from: ["PAID", "PARTIALLY_REFUNDED"], to: "PARTIALLY_REFUNDED", event: null },
  refunded: { trigger: "refunded", from: ["PAID", "PARTIALLY_REFUNDED"], to: "REFUNDED", event: null },
  // The dispute's own event (`charge.dispute.updated`, the engine's) tells of these.
  disputed: { trigger: "disputed", from: ["PAID", "PARTIALLY_REFUNDED"], to: "DISPUTE", event: null },
  disputeWon: { trigger: "disputeWon", from: ["DISPUTE"], to: "PAID", event: null },
  disputeWonAfterRefund: { trigger: "disputeWonAfterRefund", from: ["DISPUTE"], to: "PARTIALLY_REFUNDED", event: null },
  chargedBack: { trigger: "chargedBack", from: ["DISPUTE"], to: "CHARGED_BACK", event: null }
} as const satisfies { readonly [T in ChargeTrigger]: ChargeTransition & { readonly trigger: T } }

/** The status `trigger` moves a charge in `from` to, or `undefined` when the table has no such move. */
export const nextChargeStatus = (from: ChargeStatus, trigger: ChargeTrigger): ChargeStatus | undefined => {
  const transition: ChargeTransition = ChargeTransitions[trigger]
  return transition.from.includes(from) ? transition.to : undefined
}
