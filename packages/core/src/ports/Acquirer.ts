import { Context, type Effect, Schema } from "effect"
import type { Cents } from "../money/Money.ts"

/** Card data as the buyer typed it; it only passes through, it is never stored or logged. */
export interface CardData {
  readonly number: string
  readonly cvv: string
  readonly name: string
  /** `MM/YYYY`. */
  readonly expiration: string
}

/** Why an acquirer refused a card: the codes of the spec. */
export type DeclineCode = "card_declined" | "insufficient_funds" | "expired_card" | "invalid_cvv" | "fraud_suspected"

export type Authorization =
  | { readonly _tag: "Approved"; readonly acquirerId: string }
  | { readonly _tag: "Declined"; readonly code: DeclineCode }

/** The acquirer's answer to a refund: done (with its id for the payment, the spec's `providerChargeId`), or refused. */
export type RefundAnswer =
  | { readonly _tag: "Refunded"; readonly providerChargeId: string }
  | { readonly _tag: "Refused"; readonly reason: string }

/** The acquirer could not be reached; nothing was charged. */
export class AcquirerUnavailable extends Schema.TaggedError<AcquirerUnavailable>()("AcquirerUnavailable", {
  message: Schema.String
}) {}

/**
 * The card acquirer: tokenizes cards and authorizes (and captures) card
 * payments. Sandbox accounts use the sandbox layer, whose card numbers decide
 * the outcome (spec: Sandbox card rule); production plugs a real acquirer.
 */
export class Acquirer extends Context.Service<Acquirer, {
  readonly tokenize: (card: CardData) => Effect.Effect<{ readonly token: string; readonly brand: string }, AcquirerUnavailable>
  /**
   * Authorizes and captures `amount`. `reference` (the charge's id) is the
   * idempotency key: asked again for the same reference, an acquirer answers
   * its first answer and charges nothing more (the billing run asks again
   * for a charge whose worker stopped before recording the answer).
   */
  readonly authorize: (request: {
    readonly payment: { readonly _tag: "Card"; readonly card: CardData } | { readonly _tag: "Token"; readonly token: string }
    readonly amount: Cents
    readonly installments: number
    readonly reference: string
  }) => Effect.Effect<Authorization, AcquirerUnavailable>
  /**
   * Refunds `amount` of the payment made under `paymentReference` (the
   * charge's id). `reference` (the refund's id) is the idempotency key.
   */
  readonly refund: (request: {
    readonly paymentReference: string
    readonly amount: Cents
    readonly reference: string
  }) => Effect.Effect<RefundAnswer, AcquirerUnavailable>
}>()("@billing/core/ports/Acquirer") {}
