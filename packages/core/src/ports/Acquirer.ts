import { metered } from "../metrics/ProviderMetrics.ts"
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

/**
 * What the acquirer knows of the authorization made under a reference,
 * asked without charging anything (`lookup`): its outcome as `authorize`
 * answers it (`Unknown` while it is still in review), or `NotFound` when it
 * has no payment under that reference.
 */
export type Lookup = Authorization | { readonly _tag: "NotFound" }

/** The acquirer could not be reached, or refused us (credentials, rate); nothing was charged. */
export class AcquirerUnavailable extends Schema.TaggedError<AcquirerUnavailable>()("AcquirerUnavailable", {
  message: Schema.String
}) {}

/** A card was not kept on file (the acquirer unreachable, or refusing to keep it); its token is as it was. */
export class CardNotSaved extends Schema.TaggedError<CardNotSaved>()("CardNotSaved", {
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
  /**
   * Keeps the card of `token` on file for `payer`, so that it can be charged
   * again without its CVV (a subscription's renewals): answers the token
   * that charges the kept card, every time under its own reference. Call it
   * once the card's first payment is approved, as acquirers advise (the
   * card is then known to be good); a token already on file is answered as
   * it is, with nothing asked of the acquirer.
   */
  readonly saveCard: (request: { readonly account: Account; readonly token: string; readonly payer: Payer }) => Effect.Effect<{ readonly token: string }, CardNotSaved>
  /**
   * The outcome of the authorization made under `reference` (the charge's
   * id), asked of the acquirer's books, charging nothing: how a charge whose
   * authorization went unanswered is settled when the card it was made with
   * is no longer at hand (a typed card is never kept).
   */
  readonly lookup: (request: { readonly account: Account; readonly reference: string }) => Effect.Effect<Lookup, AcquirerUnavailable>
}>()("@billing/core/ports/Acquirer") {
  /**
   * Sandbox accounts on `sandbox`, production accounts on `production`: a
   * sandbox account's card never reaches a real acquirer, and a production
   * account's is never decided by the sandbox's card table.
   */
  static readonly byEnvironment = (sandbox: Acquirer["Service"], production: Acquirer["Service"]): Acquirer["Service"] => {
    const live = metered("card", production)
    const of = (account: Account) => (account.sandbox ? sandbox : live)
    return Acquirer.of({
      tokenize: (input) => of(input.account).tokenize(input),
      authorize: (request) => of(request.account).authorize(request),
      refund: (request) => of(request.account).refund(request),
      saveCard: (request) => of(request.account).saveCard(request),
      lookup: (request) => of(request.account).lookup(request)
    })
  }
}
