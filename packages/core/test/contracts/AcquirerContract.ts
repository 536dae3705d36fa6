/**
 * The `Acquirer` port's contract, written once and run on every layer: the
 * sandbox and each production acquirer (a new acquirer is a new layer plus
 * one call of `acquirerContract`). What the core relies on:
 * - an approval names the acquirer's payment, a refusal one of the spec's
 *   decline codes, whichever way the card comes (typed or tokenized);
 * - `reference` is the idempotency key: asked again (after a timeout, or by
 *   the billing run after a stop), the acquirer answers its first answer and
 *   never charges twice;
 * - refunds, partial and total, and never above what was captured;
 * - 1 to 12 installments;
 * - a card kept on file after its first payment charges again and again,
 *   as its card would, each time under its own reference (a subscription's
 *   renewals); a card kept already is answered as it is;
 * - an authorization looked up by its reference, charging nothing, answers
 *   its first outcome, and a reference never authorized none;
 * - where the layer can be made to give them: an unknown outcome (no answer
 *   after the request left) resolved by asking again under the same
 *   reference, or by looking it up, charging once; a 3-D Secure challenge,
 *   capturing nothing.
 *
 * Expected values come from the driver's cards (the outcome each one is
 * known to give), never from the layer under test.
 */
import { assert, it } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import { describe } from "vitest"
import { Account, AccountId } from "../../src/domain/Account.ts"
import { cents, type Cents } from "../../src/money/Money.ts"
import { Acquirer, type CardData, type DeclineCode, type Payer } from "../../src/ports/Acquirer.ts"

export type Outcome = "approved" | DeclineCode

export const DECLINE_CODES: ReadonlyArray<DeclineCode> = ["card_declined", "insufficient_funds", "expired_card", "invalid_cvv", "fraud_suspected"]

/** What the acquirer's own books say of the payments made under one reference. */
export interface Books {
  /** Payments captured under the reference (never more than one). */
  readonly captured: number
  readonly amount: Cents
  readonly refunded: Cents
  readonly installments: number
}

/** How a test drives a layer's outcomes and, where the acquirer keeps books, reads them. */
export interface AcquirerDriver {
  /** A Visa card the layer answers with `outcome`. */
  readonly card: (outcome: Outcome) => CardData
  /**
   * The acquirer's books for a reference, when it keeps any. The sandbox
   * keeps none (it must answer the same after a restart), so there the
   * refundable amount is the core's check alone.
   */
  readonly books?: (reference: string) => Promise<Books | undefined>
  /** Makes the next authorization time out after the acquirer did the work, when the layer can be timed out. */
  readonly timeOutNextAuthorization?: () => void
  /** Makes the next authorization give no answer at all, however often the layer retries it, after the acquirer did the work. */
  readonly silenceNextAuthorization?: () => void
  /** Makes the next authorization's issuer ask for 3-D Secure, when the layer can be made to. */
  readonly challengeNextAuthorization?: () => void
}

export interface ContractSubject {
  readonly layer: Layer.Layer<Acquirer, unknown>
  readonly driver: AcquirerDriver
  /** The account every call names: one the layer serves (a sandbox account for the sandbox, a production one for a real acquirer). */
  readonly account: Account
}

/** A test account, sandbox or production. */
export const contractAccount = (sandbox: boolean) =>
  new Account({
    id: AccountId.make(sandbox ? "SANDBOX_acc_contract" : "acc_contract"),
    number: sandbox ? "900001" : "100001",
    name: "Loja Contrato",
    document: "11444777000161",
    personType: "PJ",
    sandbox,
    parentId: null,
    pixKey: null,
    city: "SAO PAULO",
    email: null,
    internal: false,
    createdAt: new Date("2026-01-01T00:00:00Z")
  })

/** The payer of every authorization (a valid CPF). */
export const CONTRACT_PAYER: Payer = { name: "Maria Silva", email: "maria.silva@example.com", document: "52998224725" }

let sequence = 0
/** A reference no earlier test of this process used, as the core's charge ids never repeat. */
export const newReference = (what: string) => `${what}_${Date.now().toString(36)}${(++sequence).toString(36).padStart(4, "0")}`

type Requests<K extends "authorize" | "refund"> = Omit<Parameters<Acquirer["Service"][K]>[0], "account" | "payer">

/** The port with the account (and payer) filled in. */
export interface ContractAcquirer {
  readonly tokenize: (card: CardData) => ReturnType<Acquirer["Service"]["tokenize"]>
  readonly authorize: (request: Requests<"authorize">) => ReturnType<Acquirer["Service"]["authorize"]>
  readonly refund: (request: Requests<"refund">) => ReturnType<Acquirer["Service"]["refund"]>
  readonly saveCard: (token: string) => ReturnType<Acquirer["Service"]["saveCard"]>
  readonly lookup: (reference: string) => ReturnType<Acquirer["Service"]["lookup"]>
}

export const forAccount = (acquirer: Acquirer["Service"], account: Account): ContractAcquirer => ({
  tokenize: (card) => acquirer.tokenize({ account, card }),
  authorize: (request) => acquirer.authorize({ ...request, account, payer: CONTRACT_PAYER }),
  refund: (request) => acquirer.refund({ ...request, account }),
  saveCard: (token) => acquirer.saveCard({ account, token, payer: CONTRACT_PAYER }),
  lookup: (reference) => acquirer.lookup({ account, reference })
})

/** Outcomes a layer can be driven to give beyond approvals and refusals (`AcquirerDriver`'s `silence…` and `challenge…`). */
export type DrivenOutcome = "unknown" | "3-D Secure"

/**
 * Runs the contract on the layer `subject()` gives (called inside each test,
 * after the suite's `beforeAll`); `driven`: the outcomes its driver can make
 * it give, whose tests run only then.
 */
export const acquirerContract = (name: string, subject: () => ContractSubject, driven: ReadonlyArray<DrivenOutcome> = []) => {
  /** The layer's acquirer, every call naming the subject's account, every authorization the contract's payer. */
  const run = <A, E>(use: (acquirer: ContractAcquirer, driver: AcquirerDriver) => Effect.Effect<A, E>) => {
    const { account, driver, layer } = subject()
    return Effect.flatMap(Acquirer, (acquirer) => use(forAccount(acquirer, account), driver)).pipe(Effect.provide(layer))
  }
  const books = (driver: AcquirerDriver, reference: string) => Effect.promise(async () => driver.books?.(reference))
  const typed = (driver: AcquirerDriver, outcome: Outcome) => ({ _tag: "Card" as const, card: driver.card(outcome) })

  describe(`the Acquirer contract on ${name}`, () => {
    it.live("approves a good card and captures the amount once", () =>
      run((acquirer, driver) =>
        Effect.gen(function*() {
          const reference = newReference("ch")
          const answer = yield* acquirer.authorize({ payment: typed(driver, "approved"), amount: cents(10_050), installments: 1, reference })
          assert.strictEqual(answer._tag, "Approved")
          assert.isTrue(answer._tag === "Approved" && answer.acquirerId.length > 0)
          const kept = yield* books(driver, reference)
          if (kept !== undefined) assert.deepStrictEqual(kept, { captured: 1, amount: cents(10_050), refunded: cents(0), installments: 1 })
        })
      ))

    it.live.each(DECLINE_CODES)("refuses with %s, capturing nothing", (code) =>
      run((acquirer, driver) =>
        Effect.gen(function*() {
          const reference = newReference("ch")
          const answer = yield* acquirer.authorize({ payment: typed(driver, code), amount: cents(2_000), installments: 1, reference })
          assert.deepStrictEqual(answer, { _tag: "Declined", code })
          assert.strictEqual((yield* books(driver, reference))?.captured ?? 0, 0)
        })
      ))

    it.live("answers a reference asked again (after a timeout where the layer has one) with its first answer, charging once", () =>
      run((acquirer, driver) =>
        Effect.gen(function*() {
          const approved = { payment: typed(driver, "approved"), amount: cents(7_500), installments: 2, reference: newReference("ch") }
          driver.timeOutNextAuthorization?.()
          const first = yield* acquirer.authorize(approved)
          const again = yield* acquirer.authorize(approved)
          assert.strictEqual(first._tag, "Approved")
          assert.deepStrictEqual(again, first)
          const kept = yield* books(driver, approved.reference)
          if (kept !== undefined) assert.strictEqual(kept.captured, 1)
          const declined = { payment: typed(driver, "insufficient_funds"), amount: cents(7_500), installments: 1, reference: newReference("ch") }
          assert.deepStrictEqual(yield* acquirer.authorize(declined), { _tag: "Declined", code: "insufficient_funds" })
          assert.deepStrictEqual(yield* acquirer.authorize(declined), { _tag: "Declined", code: "insufficient_funds" })
        })
      ))

    it.live("refunds part, then the rest, and never more than was captured", () =>
      run((acquirer, driver) =>
        Effect.gen(function*() {
          const paymentReference = newReference("ch")
          const approved = yield* acquirer.authorize({ payment: typed(driver, "approved"), amount: cents(10_000), installments: 1, reference: paymentReference })
          assert.strictEqual(approved._tag, "Approved")
          const part = { paymentReference, amount: cents(3_000), reference: newReference("rf") }
          assert.strictEqual((yield* acquirer.refund(part))._tag, "Refunded")
          // The same refund asked again is the same refund, not a second one.
          assert.strictEqual((yield* acquirer.refund(part))._tag, "Refunded")
          assert.strictEqual((yield* books(driver, paymentReference))?.refunded ?? cents(3_000), cents(3_000))
          if (driver.books !== undefined) {
            const above = yield* acquirer.refund({ paymentReference, amount: cents(7_001), reference: newReference("rf") })
            assert.strictEqual(above._tag, "Refused")
          }
          assert.strictEqual((yield* acquirer.refund({ paymentReference, amount: cents(7_000), reference: newReference("rf") }))._tag, "Refunded")
          assert.strictEqual((yield* books(driver, paymentReference))?.refunded ?? cents(10_000), cents(10_000))
        })
      ))

    it.live("approves 1 to 12 installments", () =>
      run((acquirer, driver) =>
        Effect.forEach(Array.from({ length: 12 }, (_, i) => i + 1), (installments) =>
          Effect.gen(function*() {
            const reference = newReference("ch")
            const answer = yield* acquirer.authorize({ payment: typed(driver, "approved"), amount: cents(12_000), installments, reference })
            assert.strictEqual(answer._tag, "Approved", `${installments} installments`)
            const kept = yield* books(driver, reference)
            if (kept !== undefined) assert.strictEqual(kept.installments, installments)
          }), { discard: true })
      ))

    // Registered only for a layer that can be driven there: the sandbox's card table has no card for it (no skipped test).
    if (driven.includes("unknown")) it.live("answers an authorization left without any answer as unknown, and asked again, its first payment's outcome, charging once", () =>
      run((acquirer, driver) =>
        Effect.gen(function*() {
          const request = { payment: typed(driver, "approved"), amount: cents(8_990), installments: 1, reference: newReference("ch") }
          driver.silenceNextAuthorization!()
          const first = yield* acquirer.authorize(request)
          assert.strictEqual(first._tag, "Unknown")
          // The acquirer did the work: the card is charged, once, whatever the caller knew.
          assert.strictEqual((yield* books(driver, request.reference))?.captured, 1)
          // Looked up, it is the payment the acquirer made; asked again, the same one.
          const found = yield* acquirer.lookup(request.reference)
          assert.strictEqual(found._tag, "Approved")
          const again = yield* acquirer.authorize(request)
          assert.deepStrictEqual(again, found)
          assert.strictEqual((yield* books(driver, request.reference))?.captured, 1)
        })
      ))

    if (driven.includes("3-D Secure")) it.live("answers a 3-D Secure challenge as action required, with where to pass it, capturing nothing", () =>
      run((acquirer, driver) =>
        Effect.gen(function*() {
          const reference = newReference("ch")
          driver.challengeNextAuthorization!()
          const answer = yield* acquirer.authorize({ payment: typed(driver, "approved"), amount: cents(30_000), installments: 1, reference })
          assert.strictEqual(answer._tag, "ActionRequired")
          assert.isTrue(answer._tag === "ActionRequired" && answer.url.startsWith("https://") && answer.acquirerId.length > 0)
          assert.strictEqual((yield* books(driver, reference))?.captured ?? 0, 0)
        })
      ))

    it.live("keeps a card on file after its first payment: it charges again and again as the card would, each time under its own reference", () =>
      run((acquirer, driver) =>
        Effect.gen(function*() {
          const first = yield* acquirer.tokenize(driver.card("approved"))
          assert.strictEqual((yield* acquirer.authorize({ payment: { _tag: "Token", token: first.token }, amount: cents(2_990), installments: 1, reference: newReference("ch") }))._tag, "Approved")
          const kept = yield* acquirer.saveCard(first.token)
          assert.notInclude(kept.token, driver.card("approved").number)
          for (const amount of [cents(2_990), cents(3_490)]) {
            const reference = newReference("ch")
            const renewal = yield* acquirer.authorize({ payment: { _tag: "Token", token: kept.token }, amount, installments: 1, reference })
            assert.strictEqual(renewal._tag, "Approved")
            const renewed = yield* books(driver, reference)
            if (renewed !== undefined) assert.deepStrictEqual(renewed, { captured: 1, amount, refunded: cents(0), installments: 1 })
          }
          // A card kept already is the same card: keeping it again changes nothing.
          assert.deepStrictEqual(yield* acquirer.saveCard(kept.token), kept)
          // A card whose issuer refuses is refused at its renewals too, with the same reason.
          const poor = yield* acquirer.saveCard((yield* acquirer.tokenize(driver.card("insufficient_funds"))).token)
          const refusals = yield* Effect.forEach([1, 2], () =>
            acquirer.authorize({ payment: { _tag: "Token", token: poor.token }, amount: cents(2_990), installments: 1, reference: newReference("ch") }))
          assert.deepStrictEqual(refusals, [{ _tag: "Declined", code: "insufficient_funds" }, { _tag: "Declined", code: "insufficient_funds" }])
        })
      ))

    it.live("looks an authorization up by its reference, charging nothing: its first answer, and none for a reference never authorized", () =>
      run((acquirer, driver) =>
        Effect.gen(function*() {
          const paid = { payment: typed(driver, "approved"), amount: cents(5_000), installments: 1, reference: newReference("ch") }
          const approved = yield* acquirer.authorize(paid)
          assert.deepStrictEqual(yield* acquirer.lookup(paid.reference), approved)
          const refusedReference = newReference("ch")
          yield* acquirer.authorize({ payment: typed(driver, "expired_card"), amount: cents(5_000), installments: 1, reference: refusedReference })
          assert.deepStrictEqual(yield* acquirer.lookup(refusedReference), { _tag: "Declined", code: "expired_card" })
          const never = newReference("ch")
          assert.deepStrictEqual(yield* acquirer.lookup(never), { _tag: "NotFound" })
          assert.strictEqual((yield* books(driver, paid.reference))?.captured ?? 1, 1)
          assert.isUndefined(yield* books(driver, never))
        })
      ))

    it.live("tokenizes a card: the token charges as the card would, and names its brand", () =>
      run((acquirer, driver) =>
        Effect.gen(function*() {
          const good = yield* acquirer.tokenize(driver.card("approved"))
          assert.strictEqual(good.brand, "visa")
          assert.notInclude(good.token, driver.card("approved").number)
          const paid = yield* acquirer.authorize({ payment: { _tag: "Token", token: good.token }, amount: cents(4_990), installments: 3, reference: newReference("ch") })
          assert.strictEqual(paid._tag, "Approved")
          const poor = yield* acquirer.tokenize(driver.card("insufficient_funds"))
          const refused = yield* acquirer.authorize({ payment: { _tag: "Token", token: poor.token }, amount: cents(4_990), installments: 1, reference: newReference("ch") })
          assert.deepStrictEqual(refused, { _tag: "Declined", code: "insufficient_funds" })
        })
      ))
  })
}
