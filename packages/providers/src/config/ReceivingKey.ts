/**
 * The PSP's receiving Pix key (`pixKey`), checked like a withdrawal key by
 * the core's `normalizePixKey`. The file gives the key alone, as the DICT
 * stores it, so its type is read from its form: a `+55` phone, an e-mail, a
 * random key (EVP), else a CPF or CNPJ.
 */
import { normalizePixKey, type PixKey, type PixKeyType } from "@billing/core"
import { Effect, Schema, SchemaGetter, SchemaIssue } from "effect"

const EVP = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The type a key written as `key` can only be (a CPF and a phone never look alike once the phone carries `+55`). */
const typeOf = (key: string): ReadonlyArray<PixKeyType> => {
  const text = key.trim()
  if (text.startsWith("+")) return ["PHONE"]
  if (text.includes("@")) return ["EMAIL"]
  if (EVP.test(text)) return ["EVP"]
  return ["CPF", "CNPJ"]
}

/** `key` as a Pix key in the DICT's canonical form, or undefined. */
export const parseReceivingKey = (key: string): PixKey | undefined => {
  for (const type of typeOf(key)) {
    const value = normalizePixKey(type, key)
    if (value !== undefined) return { type, value }
  }
  return undefined
}

const PixKeySchema = Schema.Struct({
  type: Schema.Literals(["CPF", "CNPJ", "EMAIL", "PHONE", "EVP"]),
  value: Schema.String
})

/** `pixKey`: decodes to `{ type, value }`, the key canonical (digits only, lowercase e-mail, `+55…`). */
export const ReceivingKey = Schema.String.pipe(
  Schema.check(Schema.isMaxLength(77)),
  Schema.decodeTo(PixKeySchema, {
    decode: SchemaGetter.transformEffect((input: string) => {
      const key = parseReceivingKey(input)
      return key === undefined
        ? Effect.fail(new SchemaIssue.InvalidValue({ message: "not a valid Pix key (CPF, CNPJ, e-mail, +55 phone or random key)" }, input))
        : Effect.succeed(key)
    }),
    encode: SchemaGetter.transform((key: PixKey) => key.value)
  })
)
