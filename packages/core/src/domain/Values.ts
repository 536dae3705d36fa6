/**
 * The values clients send, validated by decoding (DESIGN: tolerant of
 * clients, strict with data). Each schema normalizes what a client may
 * reasonably send (dots and dashes in a CPF, spaces in a phone) and refuses
 * the rest with a message naming the rule; the path of the field comes from
 * where the schema sits in the request. The decoded value carries a brand, so
 * a function that needs a checked CPF or a real date says so in its type.
 */
import { Effect, Option, Schema, SchemaGetter, SchemaIssue, SchemaTransformation } from "effect"
import { toDayNumber } from "../brazil/CalendarDate.ts"
import { isUf, normalizeCep, normalizePhoneE164 } from "../brazil/Contacts.ts"
import { documentKind, normalizeDocument } from "../brazil/Documents.ts"
import { parsePercent, percentFromHundredths } from "../money/Rounding.ts"

/** Longest string any free-text field takes (names, descriptions, addresses). */
export const MAX_TEXT_LENGTH = 500

const noNul = Schema.isPattern(/^[^\u0000]*$/, { message: "must not contain the NUL character" })

/** Free text: bounded (every input is), and without NUL, which PostgreSQL text cannot store. */
export const Text = Schema.String.pipe(Schema.check(Schema.isMaxLength(MAX_TEXT_LENGTH), noNul))

/** A name (of a buyer, product, price, coupon): at most 200 characters. */
export const Name = Schema.String.pipe(Schema.check(Schema.isMaxLength(200), noNul))

/** A description: at most 1,000 characters. */
export const Description = Schema.String.pipe(Schema.check(Schema.isMaxLength(1_000), noNul))

/** An id or code a request names (`priceId`, `productId`, a coupon code, an account number): at most 100 characters. */
export const Identifier = Schema.String.pipe(Schema.check(Schema.isMaxLength(100), noNul))

/**
 * An id of one kind of entity as clients send it: an `Identifier`, decoded
 * into the entity's brand (`idInput(PriceId)`), so a request hands its use
 * case a `PriceId`, not any string. Any identifier decodes: an unknown id is
 * the resource's 404, as before.
 */
export const idInput = <A extends string>(id: Schema.Codec<A, string>) => Identifier.pipe(Schema.decodeTo(id))

/** A string that `normalize` turns into its canonical form (`target`, a branded string), or refuses with `message`. */
const normalizedString = <T extends Schema.Codec<string, string>>(target: T, normalize: (input: string) => string | undefined, message: string) =>
  Text.pipe(
    Schema.decodeTo(target, {
      decode: SchemaGetter.transformEffect((input: string) => {
        const value = normalize(input)
        return value === undefined ? Effect.fail(new SchemaIssue.InvalidValue({ message }, input)) : Effect.succeed(value)
      }),
      encode: SchemaGetter.passthrough()
    })
  )

/** A CPF (11 digits) or CNPJ (14, alphanumeric included) with valid check digits; punctuation is dropped. */
export const DocumentNumber = normalizedString(Schema.String.pipe(Schema.brand("DocumentNumber")), (input) => {
  const document = normalizeDocument(input)
  return documentKind(document) === undefined ? undefined : document
}, "must be a valid CPF or CNPJ")
export type DocumentNumber = typeof DocumentNumber.Type

/** A federative unit (`SP`), in capitals. */
export const Uf = normalizedString(
  Schema.String.pipe(Schema.brand("Uf")),
  (input) => (isUf(input) ? input.toUpperCase() : undefined),
  "must be a UF, e.g. SP"
)

/** The 7-digit IBGE code of a city. */
export const IbgeCityCode = normalizedString(
  Schema.String.pipe(Schema.brand("IbgeCityCode")),
  (input) => (/^\d{7}$/.test(input) ? input : undefined),
  "must be the 7-digit IBGE code"
)

/** A Brazilian phone in E.164 (`+55`, area code, number). */
export const PhoneE164 = normalizedString(Schema.String.pipe(Schema.brand("PhoneE164")), normalizePhoneE164, "must be E.164, e.g. +5511999999999")
export type PhoneE164 = typeof PhoneE164.Type

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** An e-mail address (one `@`, a dot in the domain, no spaces). */
export const Email = normalizedString(Schema.String.pipe(Schema.brand("Email")), (input) => (EMAIL.test(input) ? input : undefined), "must be an e-mail address")
export type Email = typeof Email.Type

/** A CEP: 8 digits, with or without the dash. */
export const Cep = normalizedString(Schema.String.pipe(Schema.brand("Cep")), normalizeCep, "must have 8 digits")
export type Cep = typeof Cep.Type

/** A real calendar date `YYYY-MM-DD` (no time, no zone). */
export const CalendarDate = normalizedString(
  Schema.String.pipe(Schema.brand("CalendarDate")),
  (input) => (toDayNumber(input) === undefined ? undefined : input),
  "must be a date YYYY-MM-DD"
)
export type CalendarDate = typeof CalendarDate.Type

/**
 * A percentage above 0 and at most 100 with at most two decimals, from a
 * number or numeric string, as whole hundredths of a percent (12.5 → 1250).
 */
export const Percent = Schema.Union([Schema.Number, Schema.String]).pipe(
  Schema.decodeTo(Schema.Int.pipe(Schema.brand("PercentHundredths")), {
    decode: SchemaGetter.transformEffect((input: number | string) => {
      const hundredths = parsePercent(input)
      return hundredths === undefined || hundredths < 1 || hundredths > 10_000
        ? Effect.fail(new SchemaIssue.InvalidValue({ message: "a percentage must be above 0 and at most 100, with at most two decimals" }, input))
        : Effect.succeed(hundredths)
    }),
    encode: SchemaGetter.transform((hundredths: number): number | string => percentFromHundredths(hundredths))
  })
)
export type Percent = typeof Percent.Type

/**
 * A numeric query parameter: a whole number from 0 to 1,000,000 (`1e308`,
 * `1.5` and `-1` are refused); each use case applies its own narrower bounds
 * and default.
 */
export const QueryInt = Schema.NumberFromString.pipe(Schema.check(Schema.isInt(), Schema.isBetween({ minimum: 0, maximum: 1_000_000 })))

/**
 * An optional field of a request. JSON clients send `null` for "not set", so
 * a missing key and `null` both decode to an absent key; the rule
 * lives here once and every input schema uses it for its optional fields.
 * Where `null` means something else (clear a value on an update), the field
 * says so with `Schema.NullOr` instead.
 */
export const optional = <S extends Schema.Top>(schema: S) =>
  Schema.optionalKey(Schema.NullOr(schema)).pipe(
    Schema.decodeTo(
      Schema.optionalKey(Schema.toType(schema)),
      SchemaTransformation.transformOptional<S["Type"], S["Type"] | null>({
        decode: (value) => Option.filter(value, (v): v is S["Type"] => v !== null),
        encode: (value) => value
      })
    )
  )

/** Blank text: what the provider's clients send for a field they do not have yet. */
const Blank = Schema.String.pipe(Schema.check(Schema.isMaxLength(MAX_TEXT_LENGTH), Schema.isPattern(/^\s*$/))).annotate({
  description: "Blank: not sent yet"
})

/**
 * An optional field of a form filled in steps (a sub-account proposal):
 * `null` and blank text (`""`) both decode to an absent key, so a field sent
 * blank is pending rather than refused for its format.
 */
export const optionalOrBlank = <S extends Schema.Top>(schema: S) =>
  Schema.optionalKey(Schema.NullOr(Schema.Union([Blank, schema]))).pipe(
    Schema.decodeTo(
      Schema.optionalKey(Schema.toType(schema)),
      SchemaTransformation.transformOptional<S["Type"], S["Type"] | string | null>({
        decode: (value) => Option.filter(value, (v): v is S["Type"] => v !== null && !(typeof v === "string" && v.trim() === "")),
        encode: (value) => value
      })
    )
  )
