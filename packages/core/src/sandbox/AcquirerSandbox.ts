import { Effect, Layer } from "effect"
import { Acquirer, type Authorization, type DeclineCode, type Lookup } from "../ports/Acquirer.ts"
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

/** The most answers a sandbox acquirer keeps for `lookup`. */
const REMEMBERED = 10_000

/**
 * The answers given, by reference, for `lookup`: the sandbox decides at
 * once, so only a charge whose worker stopped between its answer and its
 * record is ever looked up, in the same process; the oldest are forgotten
 * past `REMEMBERED` (a lookup then finds nothing, and the charge expires).
 * One memory per layer built (an engine, a test, a simulated world), never
 * shared between them.
 */
const answersMemory = () => {
  const answered = new Map<string, Authorization>()
  return {
    get: (reference: string) => answered.get(reference),
    remember: (reference: string, answer: Authorization) => {
      answered.delete(reference)
      answered.set(reference, answer)
      if (answered.size > REMEMBERED) answered.delete(answered.keys().next().value!)
      return answer
    }
  }
}

/**
 * Sandbox acquirer: no charge reaches an acquirer and the card number decides
 * the result. A tokenized card keeps only its outcome inside the token, so a
 * `pm_` behaves as the card it came from without the number being kept, as
 * often as it is charged: kept on file, it is the same token, and a
 * subscription's renewals go as its number says.
 * Its answers are the spec's card table's: approved or declined, never an
 * unknown outcome nor a 3-D Secure challenge, which no card there gives.
 */
export const AcquirerSandbox = Layer.sync(Acquirer, () => {
  let sequence = 0
  const answers = answersMemory()
  return Acquirer.of({
    tokenize: ({ card }) =>
      Effect.sync(() => ({ token: `sbx_tok_${outcomeOf(card.number)}_${(++sequence).toString(36)}`, brand: cardBrand(card.number) })),
    authorize: (request) =>
      Effect.sync((): Authorization => {
        const first = answers.get(request.reference)
        if (first !== undefined) return first
        const outcome = request.payment._tag === "Card"
          ? outcomeOf(request.payment.card.number)
          : (/^sbx_tok_([a-z_]+)_[0-9a-z]+$/.exec(request.payment.token)?.[1] as DeclineCode | "approved" | undefined) ?? "card_declined"
        return answers.remember(
          request.reference,
          outcome === "approved" ? { _tag: "Approved", acquirerId: `sbx_auth_${request.reference}` } : { _tag: "Declined", code: outcome }
        )
      }),
    // Every card refund succeeds in the sandbox, at once.
    refund: (request) => Effect.succeed({ _tag: "Refunded", providerChargeId: `sbx_auth_${request.paymentReference}` }),
    saveCard: ({ token }) => Effect.succeed({ token }),
    lookup: ({ reference }) => Effect.sync((): Lookup => answers.get(reference) ?? { _tag: "NotFound" })
  })
})
