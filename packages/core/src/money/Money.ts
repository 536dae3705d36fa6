/**
 * Money in BRL as integer centavos. Every amount the engine computes with is a
 * `Cents` (a safe integer), so arithmetic is exact; reais appear only at the
 * edges: parsing JSON (`parseReais`) and printing it (`toDecimalString`,
 * `toJsonNumber`, which prints `10.00` as the spec asks).
 */
import { Effect, Result, Schema, SchemaGetter, SchemaIssue } from "effect"

/** An amount in centavos: a safe integer. */
export const Cents = Schema.Int.pipe(Schema.brand("Cents"))
export type Cents = typeof Cents.Type

/** Brands a safe integer as centavos; callers guarantee it is one. */
export const cents = (n: number): Cents => n as Cents

export const ZERO = cents(0)
/** The minimum charge of the spec: 0.01. */
export const ONE_CENT = cents(1)

/** The sum of `amounts`. */
export const sumCents = (amounts: Iterable<Cents>): Cents => {
  let total = 0
  for (const amount of amounts) total += amount
  return cents(total)
}

export class InvalidAmount extends Schema.TaggedError<InvalidAmount>()("InvalidAmount", {
  input: Schema.String,
  message: Schema.String
}) {}

const DECIMAL = /^(-?)(\d+)(?:\.(\d{1,2}))?$/

/**
 * Parses reais from a JSON number or a numeric string, exactly. A number is
 * read through its shortest decimal representation (`String(n)`), so `10.1`
 * is 1010 centavos and `0.1 + 0.2` (0.30000000000000004) is refused as having
 * more than two decimals, never silently rounded. Exponent forms, NaN,
 * infinities and amounts beyond 2^53 centavos are refused too.
 */
export const parseReais = (input: unknown, options?: { readonly allowNegative?: boolean }): Result.Result<Cents, InvalidAmount> => {
  const fail = (message: string) => Result.fail(new InvalidAmount({ input: String(input), message }))
  let text: string
  if (typeof input === "number") {
    if (!Number.isFinite(input)) return fail("amount must be a finite number")
    text = String(input)
  } else if (typeof input === "string") {
    text = input.trim()
  } else {
    return fail("amount must be a number")
  }
  const m = DECIMAL.exec(text)
  if (m === null) {
    return /^-?\d+\.\d{3,}$/.test(text) || /e-/i.test(text)
      ? fail("amount must be a multiple of 0.01 (at most two decimals)")
      : fail("amount must be a decimal number such as 10.00")
  }
  const [, sign, units, fraction = ""] = m
  const value = Number(units) * 100 + Number(fraction.padEnd(2, "0"))
  if (!Number.isSafeInteger(value) || units!.length > 15) return fail("amount is too large")
  if (sign === "-" && value !== 0) {
    if (!options?.allowNegative) return fail("amount must not be negative")
    return Result.succeed(cents(-value))
  }
  return Result.succeed(cents(value))
}

/** `1050` → `"10.50"`, `-5` → `"-0.05"`: integer arithmetic only. */
export const toDecimalString = (amount: Cents): string => {
  const abs = Math.abs(amount)
  return `${amount < 0 ? "-" : ""}${Math.floor(abs / 100)}.${(abs % 100).toString().padStart(2, "0")}`
}

/**
 * `123456` → `"R$ 1.234,56"`, as `Intl.NumberFormat("pt-BR", { style: "currency",
 * currency: "BRL" })` prints it, in integer arithmetic (no float on the way,
 * and the same text whatever ICU data the runtime carries). Between `R$` and
 * the amount a no-break space, as Intl puts it, so that the symbol never
 * ends a line apart from its amount; `space: " "` where a plain one is needed
 * (a PDF's standard font). Negative amounts print `-R$ 0,05`.
 */
export const formatReais = (amount: Cents, space = "\u00a0"): string => {
  const [units, fraction] = toDecimalString(cents(Math.abs(amount))).split(".")
  return `${amount < 0 ? "-" : ""}R$${space}${units!.replace(/\B(?=(\d{3})+(?!\d))/g, ".")},${fraction}`
}

/** Reais as a JS number, for places that need one (never for arithmetic). */
export const toReais = (amount: Cents): number => amount / 100

interface RawJsonConstructor {
  rawJSON(text: string): unknown
}

/**
 * A value that `JSON.stringify` writes as the bare number `10.00` (two
 * decimals, spec General rule 2), using `JSON.rawJSON` (Node 21+, all
 * current browsers). Only for serialization: it is not a number.
 */
export const toJsonNumber = (amount: Cents): unknown => (JSON as unknown as RawJsonConstructor).rawJSON(toDecimalString(amount))

/**
 * Reais on the wire: decodes a JSON number or numeric string into `Cents`
 * with `parseReais` (at least `min` centavos, default 0.01; negatives only
 * when allowed), encodes back to a number of reais.
 */
export const reaisSchema = (options: { readonly min?: number; readonly allowNegative?: boolean } = {}) =>
  Schema.Union([Schema.Number, Schema.String]).pipe(
    Schema.decodeTo(Cents, {
      decode: SchemaGetter.transformEffect((input: number | string) => {
        const parsed = parseReais(input, options)
        if (Result.isFailure(parsed)) return Effect.fail(new SchemaIssue.InvalidValue({ message: parsed.failure.message }, input))
        const min = options.min ?? (options.allowNegative ? undefined : 1)
        if (min !== undefined && parsed.success < min) {
          return Effect.fail(new SchemaIssue.InvalidValue({ message: `amount must be at least ${toDecimalString(cents(min))}` }, input))
        }
        return Effect.succeed(parsed.success as number)
      }),
      encode: SchemaGetter.transform((amount: number): number | string => amount / 100)
    })
  )

/**
 * A positive amount of reais, multiple of 0.01, at least 0.01 (the spec's charge and split rule).
 *
 * The identifier only names it in JSON Schema / OpenAPI documents (component
 * `AmountEncoded`): Effect renders its encoded union as `anyOf` with "NaN", so
 * the HTTP adapter describes that component as a number with `multipleOf: 0.01`.
 */
export const Reais = reaisSchema().annotate({ identifier: "Amount" })

/**
 * Reais in responses and events: encodes `Cents` to a JSON number printed
 * with two decimals (`10.00`, spec General rule 2) through `toJsonNumber`;
 * decodes any JSON number of reais back. Use it in output schemas only: the
 * encoded value is for `JSON.stringify`, not for arithmetic.
 *
 * The identifier only names it in JSON Schema / OpenAPI documents (component
 * `AmountJsonEncoded`, which Effect renders as `{}` because the encoded side is
 * opaque); the HTTP adapter describes that component as a number.
 */
export const ReaisJson = Schema.Unknown.annotate({
  description: "Amount in reais, a JSON number with two decimals (10.00)"
}).pipe(
  Schema.decodeTo(Cents, {
    decode: SchemaGetter.transformEffect((input: unknown) => {
      const parsed = parseReais(input, { allowNegative: true })
      return Result.isSuccess(parsed)
        ? Effect.succeed(parsed.success as number)
        : Effect.fail(new SchemaIssue.InvalidValue({ message: parsed.failure.message }, input))
    }),
    encode: SchemaGetter.transform((amount: number): unknown => toJsonNumber(cents(amount)))
  })
).annotate({ identifier: "AmountJson" })
