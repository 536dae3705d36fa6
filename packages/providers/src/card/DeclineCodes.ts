/**
 * Mercado Pago's refusal reasons (`status_detail` of a `rejected` payment)
 * as the port's decline codes; docs/acquirer-decline-codes.md has the table
 * with its sources. Anything not listed is `card_declined`: a new reason of
 * theirs must refuse the card, never approve it or fail the request.
 */
import type { DeclineCode } from "@billing/core"

export const MERCADO_PAGO_DECLINES: Readonly<Record<string, DeclineCode>> = {
  cc_rejected_insufficient_amount: "insufficient_funds",
  cc_rejected_bad_filled_date: "expired_card",
  cc_rejected_bad_filled_security_code: "invalid_cvv",
  cc_rejected_high_risk: "fraud_suspected",
  cc_rejected_blacklist: "fraud_suspected"
}

export const declineCodeOf = (statusDetail: string | null | undefined): DeclineCode =>
  (statusDetail === null || statusDetail === undefined ? undefined : MERCADO_PAGO_DECLINES[statusDetail]) ?? "card_declined"
