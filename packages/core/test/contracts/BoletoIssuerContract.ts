/**
 * The `BoletoIssuer` port's contract, written once and run on every layer:
 * the sandbox and each bank (a new bank is a new layer plus one call of
 * `boletoIssuerContract`). What the core relies on:
 * - a registration gives a barcode and a digitable line that our FEBRABAN
 *   functions and an independent validator accept, carrying the amount and
 *   the due date asked;
 * - `reference` is the idempotency key: registered again (after a timeout,
 *   where the layer can be timed out) it answers the same boleto, and the
 *   bank holds one;
 * - a write-off leaves the boleto written off, and asked again answers so;
 * - a paid boleto is paid, with the amount and the day, and its write-off
 *   answers it paid;
 * - the boletos paid in a period are listed by their "nosso número".
 *
 * Expected values (factor, amount field, days) are computed here from the
 * request, never read from the layer under test.
 */
import { assert, it } from "@effect/vitest"
import boletoValidator from "boleto-brasileiro-validator"
import { Effect, type Layer, Result } from "effect"
import { hasError, parsePix } from "pix-utils"
import { describe } from "vitest"
import { parseBarcode, parseDigitableLine } from "../../src/brazil/Boleto.ts"
import { Account, type AccountId } from "../../src/domain/Account.ts"
import { cents, type Cents } from "../../src/money/Money.ts"
import { BoletoIssuer, type BoletoPayer, type BoletoRef, type IssuedBoleto } from "../../src/ports/BoletoIssuer.ts"

/** How a test pays boletos at a layer's bank and, where the bank keeps books it can read, reads them. */
export interface BoletoIssuerDriver<R> {
  /** Pays `boleto` in full on `paidOn` (`YYYY-MM-DD`), as a payer at a counter would; run with the layer's services. */
  readonly pay: (boleto: IssuedBoleto, reference: string, paidOn: string) => Effect.Effect<void, unknown, R>
  /** Boletos the bank holds under `reference` (never more than one), where its books can be read. */
  readonly registered?: (reference: string) => number
  /** Makes the next registration time out after the bank did the work, where the layer can be timed out. */
  readonly timeOutNextRegistration?: () => void
}

export interface BoletoContractSubject<R> {
  readonly layer: Layer.Layer<BoletoIssuer | R, unknown>
  readonly driver: BoletoIssuerDriver<R>
}

const DAY_MS = 86_400_000

/** `YYYY-MM-DD` of the UTC day `days` from now. */
export const dayFromToday = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10)

/**
 * The FEBRABAN due factor, counted here on its own: 1000 on 2025-02-22 (the
 * day the factor restarted after 9999), one more per day.
 */
const expectedFactor = (date: string) => {
  const [y, m, d] = date.split("-").map(Number)
  return String((Date.UTC(y!, m! - 1, d!) - Date.UTC(2025, 1, 22)) / DAY_MS + 1000)
}

/** The account the boletos are for (a production bank ignores it: it serves the providers file's one account). */
export const boletoReceiver = new Account({
  id: "acc_boleto_contract" as AccountId,
  number: "100200",
  name: "Loja Exemplo Ltda",
  document: "11444777000161",
  personType: "PJ",
  sandbox: false,
  parentId: null,
  pixKey: null,
  city: "Sao Paulo",
  email: null,
  internal: false,
  createdAt: new Date("2026-01-02T12:00:00Z")
})

/** A payer with a valid CPF and a complete address, as the checkout requires for a boleto. */
export const boletoPayer: BoletoPayer = {
  name: "Maria da Silva",
  document: "52998224725",
  email: "maria@example.com",
  address: { street: "Rua das Flores", number: "123", complement: "apto 4", neighborhood: "Centro", city: "Sao Paulo", state: "SP", zipCode: "01001000" }
}

let sequence = 0
/** A reference no earlier test of this process used, 14 characters as the core's charge ids never repeat. */
export const newBoletoReference = () => `bl${Date.now().toString(36).slice(-8)}${(++sequence).toString(36).padStart(4, "0")}`

/** Runs the contract on the layer `subject()` gives (called inside each test, after the suite's `beforeAll`). */
export const boletoIssuerContract = <R>(name: string, subject: () => BoletoContractSubject<R>) => {
  const run = <A, E>(use: (issuer: BoletoIssuer["Service"], driver: BoletoIssuerDriver<R>) => Effect.Effect<A, E, R>) => {
    const { driver, layer } = subject()
    return Effect.flatMap(BoletoIssuer, (issuer) => use(issuer, driver)).pipe(Effect.provide(layer))
  }
  const issueOne = (issuer: BoletoIssuer["Service"], amount: Cents, dueDate = dayFromToday(30)) => {
    const reference = newBoletoReference()
    return Effect.map(
      issuer.issue({ receiver: boletoReceiver, reference, amount, dueDate, payer: boletoPayer, daysPayableAfterDue: 5 }),
      (boleto) => ({ boleto, ref: { receiver: boletoReceiver, reference, ourNumber: boleto.ourNumber, dueDate } satisfies BoletoRef })
    )
  }

  describe(`the BoletoIssuer contract on ${name}`, () => {
    it.live("registers a boleto whose barcode and line carry the amount and due date, accepted by our functions and an independent validator", () =>
      run((issuer) =>
        Effect.gen(function*() {
          const dueDate = dayFromToday(30)
          const { boleto } = yield* issueOne(issuer, cents(15_075), dueDate)
          const today = dayFromToday(0)
          assert.match(boleto.barcode, /^\d{44}$/)
          assert.match(boleto.digitableLine, /^\d{47}$/)
          assert.strictEqual(boleto.barcode.slice(0, 3), boleto.bankCode)
          assert.strictEqual(boleto.barcode.slice(5, 9), expectedFactor(dueDate))
          assert.strictEqual(boleto.barcode.slice(9, 19), "0000015075")
          assert.strictEqual(boleto.digitableLine.slice(33), `${expectedFactor(dueDate)}0000015075`)
          assert.isTrue(boleto.ourNumber.length > 0)
          for (const parsed of [parseBarcode(boleto.barcode, today), parseDigitableLine(boleto.digitableLine, today)]) {
            assert.isTrue(Result.isSuccess(parsed))
            assert.deepInclude(Result.getOrThrow(parsed), { bankCode: boleto.bankCode, dueDate, amountCents: 15_075, barcode: boleto.barcode, digitableLine: boleto.digitableLine })
          }
          assert.isTrue(boletoValidator.boletoBancario(boleto.barcode, true))
          assert.isTrue(boletoValidator.boletoBancario(boleto.digitableLine, true))
          if (boleto.pixCopiaECola !== undefined) assert.isFalse(hasError(parsePix(boleto.pixCopiaECola)))
        })
      ))

    it.live("answers a reference registered again (after a timeout where the layer has one) with the same boleto, the bank holding one", () =>
      run((issuer, driver) =>
        Effect.gen(function*() {
          const request = { receiver: boletoReceiver, reference: newBoletoReference(), amount: cents(9_990), dueDate: dayFromToday(20), payer: boletoPayer }
          driver.timeOutNextRegistration?.()
          const first = yield* issuer.issue(request)
          const again = yield* issuer.issue(request)
          assert.deepStrictEqual(again, first)
          assert.strictEqual(driver.registered?.(request.reference) ?? 1, 1)
        })
      ))

    it.live("leaves an open boleto written off, and answers a second write-off the same", () =>
      run((issuer) =>
        Effect.gen(function*() {
          const { ref } = yield* issueOne(issuer, cents(4_200))
          assert.deepStrictEqual(yield* issuer.status(ref), { _tag: "Open" })
          assert.deepStrictEqual(yield* issuer.writeOff(ref), { _tag: "WrittenOff" })
          assert.deepStrictEqual(yield* issuer.status(ref), { _tag: "WrittenOff" })
          assert.deepStrictEqual(yield* issuer.writeOff(ref), { _tag: "WrittenOff" })
        })
      ))

    it.live("answers a paid boleto paid, with its amount and day, and its write-off as paid", () =>
      run((issuer, driver) =>
        Effect.gen(function*() {
          const { boleto, ref } = yield* issueOne(issuer, cents(25_000))
          const paidOn = dayFromToday(0)
          yield* driver.pay(boleto, ref.reference, paidOn)
          const paid = { _tag: "Paid", amount: cents(25_000), paidOn } as const
          assert.deepStrictEqual(yield* issuer.status(ref), paid)
          assert.deepStrictEqual(yield* issuer.writeOff(ref), paid)
          assert.deepStrictEqual(yield* issuer.status(ref), paid)
        })
      ))

    it.live("lists the boletos paid in a period by their nosso número, and no open one", () =>
      run((issuer, driver) =>
        Effect.gen(function*() {
          const paid = yield* issueOne(issuer, cents(3_333))
          const open = yield* issueOne(issuer, cents(4_444))
          const paidOn = dayFromToday(0)
          yield* driver.pay(paid.boleto, paid.ref.reference, paidOn)
          const listed = yield* issuer.paymentsBetween({ receiver: boletoReceiver, from: paidOn, to: paidOn })
          assert.deepInclude(listed, { ourNumber: paid.boleto.ourNumber, amount: cents(3_333), paidOn })
          assert.isFalse(listed.some((payment) => payment.ourNumber === open.boleto.ourNumber))
          const before = yield* issuer.paymentsBetween({ receiver: boletoReceiver, from: dayFromToday(-10), to: dayFromToday(-1) })
          assert.isFalse(before.some((payment) => payment.ourNumber === paid.boleto.ourNumber))
        })
      ))
  })
}
