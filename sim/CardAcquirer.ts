/**
 * The production accounts' card acquirer: the spec's card table decides
 * (a number of `SANDBOX_DECLINING_CARDS` declines, any other approves), and
 * the acquirer keeps its own books by the engine's reference (the charge's
 * id), outside the engine, as Mercado Pago does: asked again under a
 * reference, it answers the first payment's outcome and charges nothing
 * more; `lookup` reads the books.
 *
 * The seed's faults: out of reach (`AcquirerUnavailable`, nothing charged),
 * and no answer (`Unknown`) in three ways: the request never arrived
 * (nothing in the books: `lookup` says `NotFound`), it was decided and the
 * answer lost, or the payment is in review for hours (`Unknown` until it is
 * decided). `resolveCardOutcomes` and the billing run's stalled cards must
 * settle each the way the books say.
 */
import { type Acquirer, AcquirerUnavailable, type Authorization, type DeclineCode, SANDBOX_DECLINING_CARDS } from "@billing/core"
import { Clock, Context, Effect, Layer } from "effect"
import { Crash } from "./Crash.ts"
import { Faults } from "./Faults.ts"
import * as Random from "./Random.ts"

const HOUR = 3_600_000

/** One payment in the acquirer's books. */
export interface CardPayment {
  readonly reference: string
  readonly amount: number
  readonly answer: Exclude<Authorization, { readonly _tag: "Unknown" }>
  /** Until when the payment is in review (`Unknown` to every question); 0 when decided at once. */
  reviewUntil: number
  /** Refunds by their reference (the refund's id): asked twice, one refund. */
  readonly refunds: Map<string, number>
}

type Service = Acquirer["Service"]

const outcomeOfToken = (token: string): DeclineCode | "approved" =>
  (/^simtok_([a-z_]+)_\d+$/.exec(token)?.[1] as DeclineCode | "approved" | undefined) ?? "card_declined"

export class CardBook extends Context.Service<CardBook, {
  readonly payments: ReadonlyMap<string, CardPayment>
  /** The acquirer of production accounts over these books. */
  readonly acquirer: Service
  /** Ends every review: each payment is decided now (the end of a run). */
  readonly heal: Effect.Effect<void>
}>()("sim/CardBook") {
  static readonly layer = Layer.effect(
    CardBook,
    Effect.gen(function*() {
      const [faults, crash] = [yield* Faults, yield* Crash]
      const payments = new Map<string, CardPayment>()
      let tokens = 0
      const asked = (payment: CardPayment, now: number): Authorization =>
        now < payment.reviewUntil ? { _tag: "Unknown", reason: "simulated: payment in review" } : payment.answer
      const decide = (request: Parameters<Service["authorize"]>[0]): CardPayment["answer"] => {
        const outcome = request.payment._tag === "Card" ? (SANDBOX_DECLINING_CARDS[request.payment.card.number] ?? "approved") : outcomeOfToken(request.payment.token)
        return outcome === "approved" ? { _tag: "Approved", acquirerId: `sim_pay_${request.reference}` } : { _tag: "Declined", code: outcome }
      }
      const authorize: Service["authorize"] = Effect.fn("CardAcquirer.authorize")(function*(request) {
        yield* crash.point("acquirer authorize")
        const now = yield* Clock.currentTimeMillis
        const first = payments.get(request.reference)
        if (first !== undefined) return asked(first, now)
        if (yield* faults.roll("acquirerDown")) return yield* new AcquirerUnavailable({ message: "simulated: the acquirer is unreachable" })
        const unknown = (yield* faults.roll("cardUnknown")) ? Random.pick(faults.random, ["neverArrived", "answerLost", "review"] as const) : undefined
        if (unknown === "neverArrived") return { _tag: "Unknown", reason: "simulated: no answer" } satisfies Authorization
        const reviewUntil = unknown === "review" ? now + Random.int(faults.random, 1, 30) * HOUR : 0
        const payment: CardPayment = { reference: request.reference, amount: request.amount, answer: decide(request), reviewUntil, refunds: new Map() }
        payments.set(request.reference, payment)
        yield* crash.point("acquirer authorized")
        return unknown === "answerLost" ? { _tag: "Unknown", reason: "simulated: the answer was lost" } : asked(payment, now)
      })
      const acquirer: Service = {
        tokenize: ({ card }) =>
          Effect.sync(() => ({ token: `simtok_${SANDBOX_DECLINING_CARDS[card.number] ?? "approved"}_${++tokens}`, brand: card.number.startsWith("4") ? "visa" : "mastercard" })),
        authorize,
        refund: (request) =>
          Effect.gen(function*() {
            yield* crash.point("acquirer refund")
            const payment = payments.get(request.paymentReference)
            if (payment === undefined || payment.answer._tag !== "Approved") return { _tag: "Refused", reason: "simulated: no approved payment under the reference" } as const
            payment.refunds.set(request.reference, request.amount)
            return { _tag: "Refunded", providerChargeId: payment.answer.acquirerId } as const
          }),
        saveCard: ({ token }) => Effect.succeed({ token }),
        lookup: ({ reference }) =>
          Effect.andThen(crash.point("acquirer lookup"), Clock.currentTimeMillis).pipe(Effect.map((now) => {
            const payment = payments.get(reference)
            return payment === undefined ? { _tag: "NotFound" as const } : asked(payment, now)
          }))
      }
      return CardBook.of({
        payments,
        acquirer,
        heal: Effect.sync(() => {
          for (const payment of payments.values()) payment.reviewUntil = 0
        })
      })
    })
  )
}
