/**
 * The invoice state machine, in one table as the charge's
 * (`ChargeTransitions.ts`). An invoice follows its cycle, or a plan change's
 * prorata follows its own charge; storage applies a move as one conditional
 * UPDATE (`WHERE status IN from`), so an invoice settled once is never
 * settled again.
 *
 * Spec: Invoice status values. The statuses it leaves open to the engine are
 * recorded in docs/decisions.md.
 */
import type { InvoiceStatus } from "../domain/Subscription.ts"

/** Invoices still waiting for their money: paying, canceling or giving up on one settles it. */
export const OPEN_INVOICE_STATUSES: ReadonlyArray<InvoiceStatus> = ["PENDING", "AWAITING_PAYMENT", "OVERDUE"]

export type InvoiceTrigger =
  /** The cycle's due date passed unpaid (`payment.overdue`). */
  | "overdue"
  /** Its charge was paid. */
  | "paid"
  /** The subscription, or the plan change it billed, was canceled. */
  | "canceled"
  /** Its charge expired unpaid. */
  | "expired"
  /** Its charge was refused for good (a first card, a plan change's card, or dunning ended). */
  | "uncollectible"

export interface InvoiceTransition {
  readonly trigger: InvoiceTrigger
  readonly from: ReadonlyArray<InvoiceStatus>
  readonly to: InvoiceStatus
  /** The instant the move records on the invoice (the payment's, the cancel's), if any. */
  readonly stamps: "paidAt" | "canceledAt" | null
}

export const InvoiceTransitions = {
  // Not from `OVERDUE` itself: an invoice is marked overdue once, as its cycle is.
  overdue: { trigger: "overdue", from: ["PENDING", "AWAITING_PAYMENT"], to: "OVERDUE", stamps: null },
  paid: { trigger: "paid", from: OPEN_INVOICE_STATUSES, to: "PAID", stamps: "paidAt" },
  canceled: { trigger: "canceled", from: OPEN_INVOICE_STATUSES, to: "CANCELED", stamps: "canceledAt" },
  expired: { trigger: "expired", from: OPEN_INVOICE_STATUSES, to: "EXPIRED", stamps: null },
  uncollectible: { trigger: "uncollectible", from: OPEN_INVOICE_STATUSES, to: "UNCOLLECTIBLE", stamps: null }
} as const satisfies { readonly [T in InvoiceTrigger]: InvoiceTransition & { readonly trigger: T } }

/** The status `trigger` moves an invoice in `from` to, or `undefined` when the table has no such move. */
export const nextInvoiceStatus = (from: InvoiceStatus, trigger: InvoiceTrigger): InvoiceStatus | undefined => {
  const transition: InvoiceTransition = InvoiceTransitions[trigger]
  return transition.from.includes(from) ? transition.to : undefined
}
