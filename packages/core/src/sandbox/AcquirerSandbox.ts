import { Effect, Layer } from "effect"
import { Acquirer, type Authorization, type DeclineCode } from "../ports/Acquirer.ts"
import { cardBrand } from "../brazil/Cards.ts"

/** The card table of the spec: these numbers decline; any other 16 digits approve. */
export const SANDBOX_DECLINING_CARDS: Readonly<Record<string, DeclineCode>> = {
  "4000000000000002": "card_declined",
  "4000000000000004": "insufficient_funds",
  "4000000000000006": "expired_card",
  "4000000000000008": "invalid_cvv",
  "4000000000000010": "fraud_suspected"
}

const outcomeOf = (number: string): DeclineCode | "approved" => SANDBOX_DECLINING_CARDS[number] ?? "approved"

let sequence = 0

/**
 * Sandbox acquirer: no charge reaches an acquirer and the card number decides
 * the result. A tokenized card keeps only its outcome inside the token, so a
 * `pm_` behaves as the card it came from without the number being kept.
 * Its answers are the spec's card table's: approved or declined, never an
 * unknown outcome nor a 3-D Secure challenge, which no card there gives.
 */
export const AcquirerSandbox = Layer.succeed(Acquirer, {
  tokenize: ({ card }) =>
    Effect.sync(() => ({ token: `sbx_tok_${outcomeOf(card.number)}_${(++sequence).toString(36)}`, brand: cardBrand(card.number) })),
  authorize: (request) =>
    Effect.sync((): Authorization => {
      const outcome = request.payment._tag === "Card"
        ? outcomeOf(request.payment.card.number)
        : (/^sbx_tok_([a-z_]+)_[0-9a-z]+$/.exec(request.payment.token)?.[1] as DeclineCode | "approved" | undefined) ?? "card_declined"
      return outcome === "approved"
        ? { _tag: "Approved", acquirerId: `sbx_auth_${request.reference}` }
        : { _tag: "Declined", code: outcome }
    }),
  // Every card refund succeeds in the sandbox, at once.
  refund: (request) => Effect.succeed({ _tag: "Refunded", providerChargeId: `sbx_auth_${request.paymentReference}` })
})
