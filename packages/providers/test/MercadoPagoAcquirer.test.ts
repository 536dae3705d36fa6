/**
 * The Mercado Pago acquirer against the fake Mercado Pago: the port's
 * contract, then what is Mercado Pago's own: a timeout retried with the same
 * idempotency key captures once, a 4xx is never retried, a 5xx is, refused
 * credentials are an outage, an undecided payment is cancelled, and the card
 * number and CVV never leave in anything but the card token request, nor
 * appear in an error or a log line of the adapter.
 */
import { assert, it } from "@effect/vitest"
import { Acquirer, type CardData, cents } from "@billing/core"
import { Effect, Layer, Logger, Redacted, References } from "effect"
import { afterAll, afterEach, beforeAll, describe, expect } from "vitest"
import { acquirerContract, newReference, type Outcome } from "../../core/test/contracts/AcquirerContract.ts"
import { AcquirerFromProviders } from "../src/card/AcquirerFromProviders.ts"
import { idempotencyKey, makeMercadoPagoAcquirer, mercadoPagoAcquirerLayer } from "../src/card/MercadoPagoAcquirer.ts"
import type { CardAcquirerConfig } from "../src/config/ProvidersConfig.ts"
import { Providers } from "../src/Providers.ts"
import { FAKE_ACCESS_TOKEN, FAKE_PUBLIC_KEY, type FakeMercadoPago, startFakeMercadoPago } from "./support/FakeMercadoPago.ts"
import { mpError } from "./support/FakeMercadoPagoBook.ts"

/** Short enough for a test, long enough for the fake on a busy machine. */
const FAST = { requestTimeout: "1 second", retries: 3, retryBackoff: "5 millis" } as const
/** The test cards page's Visa; its CVV is ours, unlike any number the tests print. */
const PAN = "4235647728025682"
const CVV = "864"

/** The holder names of the test cards page giving each outcome (BLAC: the blacklist, our `fraud_suspected`). */
const HOLDERS: Readonly<Record<Outcome, string>> = {
  approved: "APRO",
  card_declined: "OTHE",
  insufficient_funds: "FUND",
  expired_card: "EXPI",
  invalid_cvv: "SECU",
  fraud_suspected: "BLAC"
}
const card = (outcome: Outcome): CardData => ({ number: PAN, cvv: CVV, name: HOLDERS[outcome], expiration: "11/2030" })

let fake: FakeMercadoPago
beforeAll(async () => {
  fake = await startFakeMercadoPago()
})
afterAll(() => fake.close())

const config = (overrides: Partial<CardAcquirerConfig> = {}): CardAcquirerConfig => ({
  provider: "mercadopago",
  accessToken: Redacted.make(FAKE_ACCESS_TOKEN),
  publicKey: FAKE_PUBLIC_KEY,
  baseUrl: fake.baseUrl,
  ...overrides
})

const toCents = (reais: number) => Math.round(reais * 100)

acquirerContract("Mercado Pago (the fake)", () => ({
  layer: mercadoPagoAcquirerLayer(config(), FAST),
  driver: {
    card,
    books: async (reference) => {
      const payments = fake.paymentsOf(reference)
      if (payments.length === 0) return undefined
      const captured = payments.filter((payment) => payment.captured)
      return {
        captured: captured.length,
        amount: cents(captured.reduce((sum, payment) => sum + toCents(payment.transaction_amount), 0)),
        refunded: cents(captured.reduce((sum, payment) => sum + toCents(payment.transaction_amount_refunded), 0)),
        installments: payments[0]!.installments
      }
    },
    timeOutNextAuthorization: () => fake.force("payments", { kind: "timeout" })
  }
}))

describe("the Mercado Pago acquirer, Mercado Pago's own behaviour", () => {
  let acquirer: Acquirer["Service"]
  beforeAll(() => {
    acquirer = makeMercadoPagoAcquirer(config(), FAST)
  })
  const paymentCalls = (reference: string) =>
    fake.calls.filter((call) => call.method === "POST" && call.path === "/v1/payments" && call.idempotencyKey === idempotencyKey("payment", reference))
  afterEach(() => {
    fake.calls.splice(0)
  })

  it.live("captures once when the authorization timed out and was asked again with the same key", () =>
    Effect.gen(function*() {
      const reference = newReference("ch")
      const before = fake.paymentsCreated()
      fake.force("payments", { kind: "timeout" })
      const answer = yield* acquirer.authorize({ payment: { _tag: "Card", card: card("approved") }, amount: cents(15_990), installments: 3, reference })
      assert.strictEqual(answer._tag, "Approved")
      assert.strictEqual(paymentCalls(reference).length, 2)
      assert.strictEqual(fake.paymentsCreated() - before, 1)
      const [payment] = fake.paymentsOf(reference)
      assert.deepStrictEqual([payment!.status, payment!.captured, payment!.transaction_amount, payment!.installments], ["approved", true, 159.9, 3])
      assert.strictEqual(answer._tag === "Approved" && answer.acquirerId, String(payment!.id))
    }))

  it.live("retries a 5xx with the same key, and never a 4xx", () =>
    Effect.gen(function*() {
      const retried = newReference("ch")
      fake.force("payments", { kind: "answer", answer: mpError(503, "service unavailable", "internal_error") })
      assert.strictEqual((yield* acquirer.authorize({ payment: { _tag: "Card", card: card("approved") }, amount: cents(1_000), installments: 1, reference: retried }))._tag, "Approved")
      assert.strictEqual(paymentCalls(retried).length, 2)
      // A token used once is refused by Mercado Pago (400): a refusal of the card, asked once.
      const token = (yield* acquirer.tokenize(card("approved"))).token
      yield* acquirer.authorize({ payment: { _tag: "Token", token }, amount: cents(1_000), installments: 1, reference: newReference("ch") })
      const refused = newReference("ch")
      const answer = yield* acquirer.authorize({ payment: { _tag: "Token", token }, amount: cents(1_000), installments: 1, reference: refused })
      assert.deepStrictEqual(answer, { _tag: "Declined", code: "card_declined" })
      assert.strictEqual(paymentCalls(refused).length, 1)
      assert.strictEqual(fake.paymentsOf(refused).length, 0)
    }))

  it.live("answers refused credentials as an unavailable acquirer, without retrying", () =>
    Effect.gen(function*() {
      const wrong = makeMercadoPagoAcquirer(config({ accessToken: Redacted.make("TEST-wrong") }), FAST)
      const reference = newReference("ch")
      const error = yield* Effect.flip(wrong.authorize({ payment: { _tag: "Card", card: card("approved") }, amount: cents(1_000), installments: 1, reference }))
      assert.strictEqual(error._tag, "AcquirerUnavailable")
      expect(error.message).toContain("401")
      assert.strictEqual(paymentCalls(reference).length, 1)
    }))

  it.live("cancels a payment Mercado Pago leaves undecided, and refuses it", () =>
    Effect.gen(function*() {
      const reference = newReference("ch")
      const answer = yield* acquirer.authorize({ payment: { _tag: "Card", card: { ...card("approved"), name: "CONT" } }, amount: cents(2_500), installments: 1, reference })
      assert.deepStrictEqual(answer, { _tag: "Declined", code: "card_declined" })
      assert.deepStrictEqual(fake.paymentsOf(reference).map((payment) => [payment.status, payment.captured]), [["cancelled", false]])
    }).pipe(Effect.provide(Layer.succeed(References.MinimumLogLevel, "Error"))))

  it.live("refuses a refund of a charge Mercado Pago never captured", () =>
    Effect.gen(function*() {
      const paymentReference = newReference("ch")
      yield* acquirer.authorize({ payment: { _tag: "Card", card: card("insufficient_funds") }, amount: cents(2_500), installments: 1, reference: paymentReference })
      const answer = yield* acquirer.refund({ paymentReference, amount: cents(2_500), reference: newReference("rf") })
      assert.strictEqual(answer._tag, "Refused")
    }))
})

describe("card data in the Mercado Pago acquirer", () => {
  it.live("sends the number and CVV to the card token route only, and never writes them in an error or a log line", () => {
    const lines: Array<string> = []
    const logger = Logger.make(({ message }) => lines.push(JSON.stringify(message)))
    // A short timeout: this test waits out four of them.
    const quick = { ...FAST, requestTimeout: "250 millis" } as const
    const acquirer = makeMercadoPagoAcquirer(config(), quick)
    const errors: Array<string> = []
    const attempt = <A, E extends { readonly message: string }>(effect: Effect.Effect<A, E>) =>
      Effect.flip(effect).pipe(Effect.map((error) => errors.push(error.message)), Effect.catch(() => Effect.void))
    const pay = (name: string) => acquirer.authorize({ payment: { _tag: "Card", card: { ...card("approved"), name } }, amount: cents(990), installments: 1, reference: newReference("ch") })
    return Effect.gen(function*() {
      fake.calls.splice(0)
      for (const name of ["OTHE", "SECU", "CONT"]) yield* pay(name)
      // Mercado Pago echoing the card in an error, a body that is not JSON, no answer at all, refused credentials.
      fake.force("tokens", { kind: "answer", answer: mpError(400, `invalid card_number ${PAN} with security_code ${CVV}`) })
      yield* attempt(acquirer.tokenize(card("approved")))
      fake.force("tokens", { kind: "answer", answer: { status: 502, body: `<html>${PAN}</html>` } }, ...Array(3).fill({ kind: "answer", answer: { status: 502, body: `<html>${PAN}</html>` } }))
      yield* attempt(acquirer.tokenize(card("approved")))
      fake.force("payments", ...Array(4).fill({ kind: "timeout" }))
      yield* attempt(pay("APRO"))
      yield* attempt(makeMercadoPagoAcquirer(config({ accessToken: Redacted.make("TEST-wrong") }), quick).authorize({ payment: { _tag: "Card", card: card("approved") }, amount: cents(990), installments: 1, reference: newReference("ch") }))
      expect(errors.length).toBe(4)
      expect(lines.length).toBeGreaterThan(0)
      const said = [...errors, ...lines].join("\n")
      expect(said).not.toContain(PAN)
      expect(said).not.toMatch(new RegExp(`\\b${CVV}\\b`))
      const carrying = fake.calls.filter((call) => call.text.includes(PAN) || call.text.includes(`"${CVV}"`))
      expect(carrying.length).toBeGreaterThan(0)
      expect(new Set(carrying.map((call) => call.path))).toEqual(new Set(["/v1/card_tokens"]))
    }).pipe(Effect.provide(Layer.mergeAll(Logger.layer([logger]), Layer.succeed(References.MinimumLogLevel, "Debug"))))
  })
})

describe("AcquirerFromProviders", () => {
  const tokenizeWith = (card: CardAcquirerConfig | undefined) =>
    Effect.flatMap(Acquirer, (acquirer) => acquirer.tokenize({ number: "4111111111111111", cvv: "123", name: "APRO", expiration: "11/2030" })).pipe(
      Effect.provide(AcquirerFromProviders.pipe(Layer.provide(Layer.succeed(Providers, { publicUrl: "", pix: [], card }))))
    )

  it.live("is Mercado Pago with a card entry, the sandbox without one", () =>
    Effect.gen(function*() {
      const before = fake.book.tokens.size
      const production = yield* tokenizeWith(config())
      expect(production.token).toMatch(/^mp:visa:\d{32}$/)
      assert.strictEqual(fake.book.tokens.size - before, 1)
      const sandbox = yield* tokenizeWith(undefined)
      expect(sandbox.token).toMatch(/^sbx_tok_approved_/)
      assert.strictEqual(fake.book.tokens.size - before, 1)
    }))
})
