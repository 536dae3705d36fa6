import { Context, Effect, Layer, Result } from "effect"
import { makeBoleto } from "../brazil/Boleto.ts"
import type { Cents } from "../money/Money.ts"
import {
  BoletoIssuer,
  BoletoIssuerError,
  BoletoNotFound,
  type BoletoPayment,
  BoletoRefused,
  type BoletoStatus,
  type IssuedBoleto
} from "../ports/BoletoIssuer.ts"

/** The bank code of sandbox boletos: no real bank uses it, every validator accepts its shape. */
export const SANDBOX_BANK_CODE = "999"

/**
 * Boletos the sandbox bank remembers. Past this the oldest are forgotten, so
 * a long-running sandbox does not grow without limit; a forgotten boleto is
 * open again, as one issued before a restart is.
 */
const REMEMBERED = 100_000

interface Entry {
  readonly boleto: IssuedBoleto | undefined
  readonly amount: Cents | undefined
  state: BoletoStatus
}

/**
 * The sandbox bank's hand in its own books: pays a boleto as a payer would.
 * Tests use it where a production bank would be paid at a counter; it holds
 * the same books as the `BoletoIssuer` of the same layer.
 */
export class SandboxBoletoBank extends Context.Service<SandboxBoletoBank, {
  /** Pays the boleto of `reference` in full on `paidOn` (`YYYY-MM-DD`); a second payment changes nothing. */
  readonly pay: (reference: string, paidOn: string) => Effect.Effect<void, BoletoNotFound | BoletoRefused>
}>()("@billing/core/sandbox/SandboxBoletoBank") {}

/** The deterministic boleto of a request: same reference, amount and due date, same codes, whatever process asks. */
const codesOf = (request: { readonly reference: string; readonly amount: Cents; readonly dueDate: string }) => {
  let hash = 0n
  for (const c of request.reference) hash = (hash * 131n + BigInt(c.charCodeAt(0))) % 10n ** 17n
  const ourNumber = hash.toString().padStart(17, "0")
  const made = makeBoleto({ bankCode: SANDBOX_BANK_CODE, dueDate: request.dueDate, amountCents: request.amount, freeField: `${ourNumber}00000000` })
  return Result.isSuccess(made)
    ? Effect.succeed<IssuedBoleto>({ bankCode: SANDBOX_BANK_CODE, ourNumber, barcode: made.success.barcode, digitableLine: made.success.digitableLine })
    : Effect.fail(new BoletoIssuerError({ message: made.failure.message }))
}

const makeSandbox = () => {
  const book = new Map<string, Entry>()
  const remember = (reference: string, entry: Entry) => {
    if (book.size >= REMEMBERED) book.delete(book.keys().next().value!)
    book.set(reference, entry)
    return entry
  }
  // A boleto the sandbox does not remember was issued before a restart or by another process: open, since
  // its payments reach the engine through `POST /v1/wallet/pay`, not through this book.
  const entryOf = (reference: string) => book.get(reference) ?? remember(reference, { boleto: undefined, amount: undefined, state: { _tag: "Open" } })

  const issuer = BoletoIssuer.of({
    issue: (request) => {
      const known = book.get(request.reference)
      if (known?.boleto !== undefined) return Effect.succeed(known.boleto)
      return Effect.map(codesOf(request), (boleto) => {
        // A write-off asked before this process issued it stands.
        remember(request.reference, { boleto, amount: request.amount, state: known?.state ?? { _tag: "Open" } })
        return boleto
      })
    },
    writeOff: (ref) =>
      Effect.sync(() => {
        const entry = entryOf(ref.reference)
        if (entry.state._tag === "Open") entry.state = { _tag: "WrittenOff" }
        return entry.state as Exclude<BoletoStatus, { readonly _tag: "Open" }>
      }),
    status: (ref) => Effect.sync(() => book.get(ref.reference)?.state ?? { _tag: "Open" }),
    paymentsBetween: ({ from, to }) =>
      Effect.sync(() => {
        const paid: Array<BoletoPayment> = []
        for (const { boleto, state } of book.values()) {
          if (boleto !== undefined && state._tag === "Paid" && state.paidOn >= from && state.paidOn <= to) {
            paid.push({ ourNumber: boleto.ourNumber, amount: state.amount, paidOn: state.paidOn })
          }
        }
        return paid
      })
  })

  const bank = SandboxBoletoBank.of({
    pay: (reference, paidOn) => {
      const entry = book.get(reference)
      if (entry?.amount === undefined) return Effect.fail(new BoletoNotFound({ reference, message: `the sandbox bank issued no boleto for ${reference}` }))
      if (entry.state._tag === "WrittenOff") return Effect.fail(new BoletoRefused({ message: `the boleto of ${reference} was written off and cannot be paid` }))
      if (entry.state._tag === "Open") entry.state = { _tag: "Paid", amount: entry.amount, paidOn }
      return Effect.void
    }
  })
  return Context.make(BoletoIssuer, issuer).pipe(Context.add(SandboxBoletoBank, bank))
}

/**
 * Sandbox boletos: a FEBRABAN barcode and line for bank 999 whose free field
 * carries a 17-digit "nosso número" derived from the charge reference, so
 * the same charge always gets the same codes. Its books (what was issued,
 * paid by `SandboxBoletoBank`, written off) live in memory, one set per
 * layer; a boleto it does not remember is open.
 */
export const BoletoIssuerSandbox: Layer.Layer<BoletoIssuer | SandboxBoletoBank> = Layer.syncContext(makeSandbox)
