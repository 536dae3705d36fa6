/**
 * The Mercado Pago acquirer against the fake Mercado Pago: the port's
 * contract (with its unknown outcome and its 3-D Secure challenge), then
 * what is Mercado Pago's own: a timeout retried with the same idempotency key
 * captures once, a 4xx is never retried, a 5xx is, refused credentials are
 * an outage, a payment in review is an unknown outcome (never cancelled), the
 * payer goes with its e-mail and CPF or CNPJ, a card is kept under one
 * customer per payer and renewed by a fresh token of the kept card with no
 * CVV, a lookup is one search, and the card number and CVV never leave in
 * anything but the card token request, nor appear in an error or a log line
 * of the adapter.
 */
import { assert, it } from "@effect/vitest"
import { Acquirer, type CardData, cents } from "@billing/core"
import { Effect, Layer, Logger, Redacted, References } from "effect"
import { afterAll, afterEach, beforeAll, describe, expect } from "vitest"
import { acquirerContract, contractAccount, type ContractAcquirer, forAccount, newReference, type Outcome } from "../../core/test/contracts/AcquirerContract.ts"
import { AcquirerFromProviders } from "../src/card/AcquirerFromProviders.ts"
import { idempotencyKey, makeMercadoPagoAcquirer, mercadoPagoAcquirerLayer } from "../src/card/MercadoPagoAcquirer.ts"
import type { CardAcquirerConfig } from "../src/config/ProvidersConfig.ts"
import { Providers } from "../src/Providers.ts"
import { FAKE_ACCESS_TOKEN, FAKE_PUBLIC_KEY, type FakeMercadoPago, startFakeMercadoPago } from "./support/FakeMercadoPago.ts"
import { FAKE_CHALLENGE_URL, mpError } from "./support/FakeMercadoPagoBook.ts"

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

/** Mercado Pago serves production accounts. */
const PRODUCTION = contractAccount(false)

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
  account: PRODUCTION,
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
    timeOutNextAuthorization: () => fake.force("payments", { kind: "timeout" }),
    // The first attempt and its three retries each done and cut before the answer.
    silenceNextAuthorization: () => fake.force("payments", ...Array(1 + FAST.retries).fill({ kind: "drop" })),
    challengeNextAuthorization: () => fake.force("payments", { kind: "challenge" })
  }
}), ["unknown", "3-D Secure"])

describe("the Mercado Pago acquirer, Mercado Pago's own behaviour", () => {
  let acquirer: ContractAcquirer
  beforeAll(() => {
    acquirer = forAccount(makeMercadoPagoAcquirer(config(), FAST), PRODUCTION)
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
      const wrong = forAccount(makeMercadoPagoAcquirer(config({ accessToken: Redacted.make("TEST-wrong") }), FAST), PRODUCTION)
      const reference = newReference("ch")
      const error = yield* Effect.flip(wrong.authorize({ payment: { _tag: "Card", card: card("approved") }, amount: cents(1_000), installments: 1, reference }))
      assert.strictEqual(error._tag, "AcquirerUnavailable")
      expect(error.message).toContain("401")
      assert.strictEqual(paymentCalls(reference).length, 1)
    }))

  it.live("answers a payment in review as an unknown outcome, leaves it be, and answers its decision when asked again", () =>
    Effect.gen(function*() {
      const reference = newReference("ch")
      const request = { payment: { _tag: "Card" as const, card: { ...card("approved"), name: "CONT" } }, amount: cents(2_500), installments: 1, reference }
      const answer = yield* acquirer.authorize(request)
      assert.strictEqual(answer._tag, "Unknown")
      const [payment] = fake.paymentsOf(reference)
      assert.deepStrictEqual([payment!.status, payment!.status_detail], ["in_process", "pending_contingency"])
      assert.isFalse(fake.calls.some((call) => call.method === "PUT"))
      // Mercado Pago approves it later; the same key answers the payment as first answered, so the adapter reads it again.
      Object.assign(payment!, { status: "approved", status_detail: "accredited", captured: true })
      assert.deepStrictEqual(yield* acquirer.authorize(request), { _tag: "Approved", acquirerId: String(payment!.id) })
      assert.strictEqual(fake.paymentsOf(reference).length, 1)
    }).pipe(Effect.provide(Layer.succeed(References.MinimumLogLevel, "Error"))))

  it.live("answers 5xx past its retries as an unknown outcome, and a refused connection as unavailable", () =>
    Effect.gen(function*() {
      const failing = newReference("ch")
      fake.force("payments", ...Array(1 + FAST.retries).fill({ kind: "answer", answer: mpError(500, "internal error", "internal_error") }))
      const answer = yield* acquirer.authorize({ payment: { _tag: "Card", card: card("approved") }, amount: cents(1_000), installments: 1, reference: failing })
      assert.strictEqual(answer._tag, "Unknown")
      assert.strictEqual(paymentCalls(failing).length, 1 + FAST.retries)
      // Port 9 on loopback: nothing listens, the connection is refused, no request can have left.
      const closed = forAccount(makeMercadoPagoAcquirer(config({ baseUrl: "http://127.0.0.1:9" }), FAST), PRODUCTION)
      const error = yield* Effect.flip(closed.authorize({ payment: { _tag: "Token", token: "mp:visa:1" }, amount: cents(1_000), installments: 1, reference: newReference("ch") }))
      assert.strictEqual(error._tag, "AcquirerUnavailable")
    }).pipe(Effect.provide(Layer.succeed(References.MinimumLogLevel, "Error"))))

  it.live("sends the payer's e-mail and its CPF or CNPJ", () =>
    Effect.gen(function*() {
      const byPerson = newReference("ch")
      yield* acquirer.authorize({ payment: { _tag: "Card", card: card("approved") }, amount: cents(1_000), installments: 1, reference: byPerson })
      assert.deepStrictEqual(fake.paymentsOf(byPerson)[0]!.payer, { email: "maria.silva@example.com", identification: { type: "CPF", number: "52998224725" } })
      const company = { name: "Padaria Central Ltda", email: "financeiro@padaria.example", document: "11222333000181" }
      const byCompany = newReference("ch")
      const production = makeMercadoPagoAcquirer(config(), FAST)
      yield* production.authorize({ account: PRODUCTION, payer: company, payment: { _tag: "Card", card: card("approved") }, amount: cents(1_000), installments: 1, reference: byCompany })
      assert.deepStrictEqual(fake.paymentsOf(byCompany)[0]!.payer, { email: "financeiro@padaria.example", identification: { type: "CNPJ", number: "11222333000181" } })
    }))

  it.live("answers a 3-D Secure challenge with the issuer's URL, and never captures it", () =>
    Effect.gen(function*() {
      const reference = newReference("ch")
      fake.force("payments", { kind: "challenge" })
      const answer = yield* acquirer.authorize({ payment: { _tag: "Card", card: card("approved") }, amount: cents(45_000), installments: 1, reference })
      const [payment] = fake.paymentsOf(reference)
      assert.deepStrictEqual(answer, { _tag: "ActionRequired", acquirerId: String(payment!.id), url: FAKE_CHALLENGE_URL })
      assert.deepStrictEqual([payment!.status, payment!.captured], ["pending", false])
    }))

  it.live("refuses a refund of a charge Mercado Pago never captured", () =>
    Effect.gen(function*() {
      const paymentReference = newReference("ch")
      yield* acquirer.authorize({ payment: { _tag: "Card", card: card("insufficient_funds") }, amount: cents(2_500), installments: 1, reference: paymentReference })
      const answer = yield* acquirer.refund({ paymentReference, amount: cents(2_500), reference: newReference("rf") })
      assert.strictEqual(answer._tag, "Refused")
    }))
})

describe("cards kept on file at Mercado Pago", () => {
  let mp: Acquirer["Service"]
  beforeAll(() => {
    mp = makeMercadoPagoAcquirer(config(), FAST)
  })
  let payers = 0
  /** A payer no earlier test used, so its customer is this test's alone. */
  const newPayer = () => ({ name: "Joana Lima", email: `joana.${Date.now().toString(36)}.${++payers}@example.com`, document: "39053344705" })
  const since = (from: number) => fake.calls.slice(from).map((call) => ({ ...call, body: call.text === "" ? undefined : JSON.parse(call.text) }))
  const tokenIdOf = (token: string) => token.split(":").at(-1)!

  it.live("keeps a payer's cards under one customer found by e-mail, from each first payment's token, and renews by a fresh token of the kept card with the customer as payer and no CVV", () =>
    Effect.gen(function*() {
      const payer = newPayer()
      const from = fake.calls.length
      const { token } = yield* mp.tokenize({ account: PRODUCTION, card: card("approved") })
      const first = yield* mp.authorize({ account: PRODUCTION, payer, payment: { _tag: "Token", token }, amount: cents(4_990), installments: 1, reference: newReference("ch") })
      assert.strictEqual(first._tag, "Approved")
      const kept = yield* mp.saveCard({ account: PRODUCTION, token, payer })
      const [customer, ...others] = fake.customersOf(payer.email)
      assert.deepStrictEqual(others, [])
      const [keptCard] = customer!.cards
      assert.strictEqual(kept.token, `mp:cof:${customer!.id}:${keptCard!.id}:visa`)
      const keeping = since(from).filter((call) => call.path.startsWith("/v1/customers"))
      assert.deepStrictEqual(keeping.map(({ body, method, path }) => ({ method, path, body })), [
        { method: "GET", path: "/v1/customers/search", body: undefined },
        { method: "POST", path: "/v1/customers", body: { email: payer.email, identification: { type: "CPF", number: payer.document } } },
        { method: "POST", path: `/v1/customers/${customer!.id}/cards`, body: { token: tokenIdOf(token) } }
      ])

      // A second card of the same payer: the customer is found, not made again.
      const again = fake.calls.length
      const second = yield* mp.tokenize({ account: PRODUCTION, card: card("approved") })
      yield* mp.saveCard({ account: PRODUCTION, token: second.token, payer })
      assert.deepStrictEqual(fake.customersOf(payer.email).map((c) => [c.id, c.cards.length]), [[customer!.id, 2]])
      assert.deepStrictEqual(since(again).filter((call) => call.method === "POST" && call.path === "/v1/customers"), [])

      // The renewal: no buyer, no CVV; a fresh token of the kept card, the customer as payer.
      const renewalFrom = fake.calls.length
      const reference = newReference("ch")
      const renewal = yield* mp.authorize({ account: PRODUCTION, payer, payment: { _tag: "Token", token: kept.token }, amount: cents(4_990), installments: 1, reference })
      const [payment] = fake.paymentsOf(reference)
      assert.deepStrictEqual(renewal, { _tag: "Approved", acquirerId: String(payment!.id) })
      const [tokenCall, paymentCall, ...more] = since(renewalFrom)
      assert.deepStrictEqual(more, [])
      assert.deepStrictEqual([tokenCall!.path, tokenCall!.body], ["/v1/card_tokens", { card_id: keptCard!.id, customer_id: customer!.id }])
      assert.strictEqual(paymentCall!.path, "/v1/payments")
      assert.deepStrictEqual(paymentCall!.body.payer, { type: "customer", id: customer!.id })
      assert.strictEqual(paymentCall!.idempotencyKey, idempotencyKey("payment", reference))
      assert.deepStrictEqual([payment!.status, payment!.captured, payment!.card.id, payment!.transaction_amount], ["approved", true, keptCard!.id, 49.9])
      assert.isFalse(since(renewalFrom).some((call) => call.text.includes("security_code") || call.text.includes(PAN)))
    }))

  it.live("finds the customer another request made meanwhile (Mercado Pago's cause 101) instead of failing to keep the card", () =>
    Effect.gen(function*() {
      const payer = newPayer()
      yield* mp.saveCard({ account: PRODUCTION, token: (yield* mp.tokenize({ account: PRODUCTION, card: card("approved") })).token, payer })
      // The search misses the customer made a moment before (another worker's): the creation is refused, and the search asked again.
      fake.force("customerSearch", { kind: "answer", answer: { status: 200, body: { paging: { limit: 10, offset: 0, total: 0 }, results: [] } } })
      const kept = yield* mp.saveCard({ account: PRODUCTION, token: (yield* mp.tokenize({ account: PRODUCTION, card: card("approved") })).token, payer })
      const [customer, ...others] = fake.customersOf(payer.email)
      assert.deepStrictEqual(others, [])
      assert.strictEqual(customer!.cards.length, 2)
      assert.isTrue(kept.token.startsWith(`mp:cof:${customer!.id}:`))
    }))

  it.live("keeps no card of a payer without an e-mail, asking Mercado Pago nothing", () =>
    Effect.gen(function*() {
      const { token } = yield* mp.tokenize({ account: PRODUCTION, card: card("approved") })
      const from = fake.calls.length
      const error = yield* Effect.flip(mp.saveCard({ account: PRODUCTION, token, payer: { ...newPayer(), email: null } }))
      assert.strictEqual(error._tag, "CardNotSaved")
      assert.strictEqual(fake.calls.length, from)
    }))

  it.live("looks a payment up with one search and nothing else: one in review is still unknown", () =>
    Effect.gen(function*() {
      const reference = newReference("ch")
      yield* mp.authorize({ account: PRODUCTION, payer: newPayer(), payment: { _tag: "Card", card: { ...card("approved"), name: "CONT" } }, amount: cents(2_500), installments: 1, reference })
      const from = fake.calls.length
      const found = yield* mp.lookup({ account: PRODUCTION, reference })
      assert.strictEqual(found._tag, "Unknown")
      assert.deepStrictEqual(since(from).map((call) => [call.method, call.path]), [["GET", "/v1/payments/search"]])
    }).pipe(Effect.provide(Layer.succeed(References.MinimumLogLevel, "Error"))))
})

describe("card data in the Mercado Pago acquirer", () => {
  it.live("sends the number and CVV to the card token route only, and never writes them in an error or a log line", () => {
    const lines: Array<string> = []
    const logger = Logger.make(({ message }) => lines.push(JSON.stringify(message)))
    // A short timeout: this test waits out four of them.
    const quick = { ...FAST, requestTimeout: "250 millis" } as const
    const acquirer = forAccount(makeMercadoPagoAcquirer(config(), quick), PRODUCTION)
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
      // No answer at all: the outcome unknown, its reason is Mercado Pago's error text.
      const unknown = yield* pay("APRO")
      if (unknown._tag === "Unknown") errors.push(unknown.reason)
      yield* attempt(forAccount(makeMercadoPagoAcquirer(config({ accessToken: Redacted.make("TEST-wrong") }), quick), PRODUCTION).authorize({ payment: { _tag: "Card", card: card("approved") }, amount: cents(990), installments: 1, reference: newReference("ch") }))
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
  const tokenizeWith = (card: CardAcquirerConfig | undefined, account = PRODUCTION) =>
    Effect.flatMap(Acquirer, (acquirer) => acquirer.tokenize({ account, card: { number: "4111111111111111", cvv: "123", name: "APRO", expiration: "11/2030" } })).pipe(
      Effect.provide(AcquirerFromProviders.pipe(Layer.provide(Layer.succeed(Providers, { publicUrl: "", pix: [], card }))))
    )

  it.live("puts production accounts on Mercado Pago with a card entry, and sandbox accounts, or every account without one, on the sandbox", () =>
    Effect.gen(function*() {
      const before = fake.book.tokens.size
      const production = yield* tokenizeWith(config())
      expect(production.token).toMatch(/^mp:visa:\d{32}$/)
      assert.strictEqual(fake.book.tokens.size - before, 1)
      const sandboxAccount = yield* tokenizeWith(config(), contractAccount(true))
      expect(sandboxAccount.token).toMatch(/^sbx_tok_approved_/)
      const noEntry = yield* tokenizeWith(undefined)
      expect(noEntry.token).toMatch(/^sbx_tok_approved_/)
      assert.strictEqual(fake.book.tokens.size - before, 1)
    }))
})
