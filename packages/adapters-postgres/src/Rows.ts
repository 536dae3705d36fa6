/**
 * Rows are decoded through the core's entity schemas, never cast. A SELECT
 * names its columns as the entity's fields (`account_id AS "accountId"`), and
 * the row schema is the entity's own struct with the few fields whose storage
 * form differs replaced by a column codec: `bigint` centavos, and JSON kept as
 * text (written once, so its bytes never change). Everything else (text,
 * booleans, `timestamptz` as `Date`) is what the driver already returns.
 */
import { AccountId, Cents } from "@billing/core"
import { Effect, Schema, SchemaGetter, SchemaIssue } from "effect"

/** A `bigint` column (the driver answers `bigint`, or text through a `::text` cast) as a safe integer. */
export const Int8 = Schema.Union([Schema.BigInt, Schema.String, Schema.Number]).pipe(
  Schema.decodeTo(Schema.Int, {
    decode: SchemaGetter.transformEffect((input: bigint | string | number) => {
      const n = Number(input)
      return Number.isSafeInteger(n)
        ? Effect.succeed(n)
        : Effect.fail(new SchemaIssue.InvalidValue({ message: "not a safe integer" }, input))
    }),
    encode: SchemaGetter.transform((n: number): bigint | string | number => BigInt(n))
  })
)

/** A `bigint` column of centavos. */
export const CentsColumn = Int8.pipe(Schema.decodeTo(Cents))

/** A JSON text column holding `schema` (or SQL NULL). */
export const jsonColumn = <S extends Schema.Top>(schema: S) => Schema.NullOr(Schema.fromJsonString(schema))

/** What a `jsonColumn` is written as: the value's JSON text, or SQL NULL for none. */
export const jsonText = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value))

/**
 * Decodes rows with `schema`. A row that does not decode is a defect (the
 * database holds what only the engine wrote), reported with its path.
 */
export const decodeRows = <S extends Schema.Top & { readonly DecodingServices: never }>(schema: S) => {
  const decode = Schema.decodeUnknownEffect(Schema.Array(schema))
  return (rows: ReadonlyArray<unknown>): Effect.Effect<ReadonlyArray<S["Type"]>> => Effect.orDie(decode(rows))
}

const decodeAccountIdRows = decodeRows(Schema.Struct({ accountId: AccountId }))

/** Rows of one column, `accountId`, as the account ids they hold. */
export const accountIdsOf = (rows: ReadonlyArray<unknown>): Effect.Effect<ReadonlyArray<AccountId>> =>
  Effect.map(decodeAccountIdRows(rows), (decoded) => decoded.map((row) => row.accountId))

/** A `timestamptz` column as epoch milliseconds. */
export const EpochMillisColumn = Schema.Date.pipe(
  Schema.decodeTo(Schema.Int, {
    decode: SchemaGetter.transform((date: Date) => date.getTime()),
    encode: SchemaGetter.transform((ms: number) => new Date(ms))
  })
)

/**
 * A row schema of a keyset-paginated table: the entity plus its `seq`, the
 * cursor of the page, which stays in the adapter.
 */
export const withSeq = <F extends Schema.Struct.Fields>(fields: F) => Schema.Struct({ ...fields, seq: Schema.String })

/** The entities of keyset rows, without their cursor. */
export const withoutSeq = <A extends { readonly seq: string }>(rows: ReadonlyArray<A>): Array<Omit<A, "seq">> =>
  rows.map(({ seq: _, ...entity }) => entity)
