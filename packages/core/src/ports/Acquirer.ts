import { Context, type Effect, Schema } from "effect"
import type { Account } from "../domain/Account.ts"
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

/**
 * Who pays, from the charge's customer: a real acquirer's risk analysis asks
 * for them (Mercado Pago requires `payer.email`, and its identification by
 * CPF or CNPJ). `document` is the CPF's or CNPJ's digits.
 */
export interface Payer {
  readonly name: string
  readonly email: string | null
  readonly document: string
}

/**
 * The acquirer's answer to an authorization:
 * - `Approved`, captured, under the acquirer's payment id;
 * - `Declined`, nothing captured;
 * - `ActionRequired`: the issuer asks the buyer to authenticate (3-D Secure)
 *   at `url` before it decides; nothing is captured unless the challenge is
 *   passed;
 * - `Unknown`: asked, but no outcome came back (a timeout, a connection cut
 *   after the request left, a payment still in review). The card may have
 *   been charged: the charge is not failed but asked about again under the
 *   same reference, which answers the first payment's outcome.
 */
export type Authorization =
  | { readonly _tag: "Approved"; readonly acquirerId: string }
  | { readonly _tag: "Declined"; readonly code: DeclineCode }
  | { readonly _tag: "ActionRequired"; readonly acquirerId: string; readonly url: string }
  | { readonly _tag: "Unknown"; readonly reason: string }

/** The acquirer's answer to a refund: done (with its id for the payment, the spec's `providerChargeId`), or refused. */
export type RefundAnswer =
  | { readonly _tag: "Refunded"; readonly providerChargeId: string }
  | { readonly _tag: "Refused"; readonly reason: string }

/** The acquirer could not be reached, or refused us (credentials, rate); nothing was charged. */
export class AcquirerUnavailable extends Schema.TaggedError<AcquirerUnavailable>()("AcquirerUnavailable", {
  message: Schema.String
}) {}

/**
 * The card acquirer: tokenizes cards and authorizes (and captures) card
 * payments. Every call names the account that receives the money, so one
 * engine serves sandbox accounts (whose card numbers decide the outcome,
 * spec: Sandbox card rule) and production ones (a real acquirer) alike:
 * see `byEnvironment`.
 */
export class Acquirer extends Context.Service<Acquirer, {
  readonly tokenize: (input: { readonly account: Account; readonly card: CardData }) => Effect.Effect<{ readonly token: string; readonly brand: string }, AcquirerUnavailable>
  /**
   * Authorizes and captures `amount`. `reference` (the charge's id) is the
   * idempotency key: asked again for the same reference, an acquirer answers
   * its first payment's outcome and charges nothing more (the billing run
   * asks again for a charge whose answer was `Unknown`, or whose worker
   * stopped before recording it).
   */
  readonly authorize: (request: {
    readonly account: Account
    readonly payment: { readonly _tag: "Card"; readonly card: CardData } | { readonly _tag: "Token"; readonly token: string }
    readonly amount: Cents
    readonly installments: number
    readonly reference: string
    readonly payer: Payer
  }) => Effect.Effect<Authorization, AcquirerUnavailable>
  /**
   * Refunds `amount` of the payment made under `paymentReference` (the
   * charge's id). `reference` (the refund's id) is the idempotency key.
   */
  readonly refund: (request: {
    readonly account: Account
    readonly paymentReference: string
    readonly amount: Cents
    readonly reference: string
  }) => Effect.Effect<RefundAnswer, AcquirerUnavailable>
}>()("@billing/core/ports/Acquirer") {
  /**
   * Sandbox accounts on `sandbox`, production accounts on `production`: a
   * sandbox account's card never reaches a real acquirer, and a production
   * account's is never decided by the sandbox's card table.
   */
  static readonly byEnvironment = (sandbox: Acquirer["Service"], production: Acquirer["Service"]): Acquirer["Service"] => {
    const of = (account: Account) => (account.sandbox ? sandbox : production)
    return Acquirer.of({
      tokenize: (input) => of(input.account).tokenize(input),
      authorize: (request) => of(request.account).authorize(request),
      refund: (request) => of(request.account).refund(request)
    })
  }
}
