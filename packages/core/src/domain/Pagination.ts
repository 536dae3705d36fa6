import { Effect } from "effect"

/** Largest page any list answers. */
export const MAX_PAGE_SIZE = 100

/**
 * The `limit` of a list request: `fallback` when absent, else a whole number
 * from 1 to 100. `invalid` builds the module's bad-input error for the field.
 */
export const pageLimit = <E>(limit: number | undefined, fallback: number, invalid: (field: string, message: string) => E) =>
  limit === undefined
    ? Effect.succeed(fallback)
    : Number.isInteger(limit) && limit >= 1 && limit <= MAX_PAGE_SIZE
    ? Effect.succeed(limit)
    : Effect.fail(invalid("limit", `limit must be an integer from 1 to ${MAX_PAGE_SIZE}`))

/**
 * A page of an offset-paged list (`page` from 1; its size, the field
 * `sizeField`, from 1 to 100, `fallback` when absent): which rows it takes.
 * `invalid` builds the module's bad-input error for the field.
 */
export const offsetPage = <E>(page: number | undefined, size: number | undefined, options: {
  readonly sizeField: string
  readonly fallback: number
  readonly invalid: (field: string, message: string) => E
}) => {
  const number = page ?? 1
  const limit = size ?? options.fallback
  if (number < 1) return Effect.fail(options.invalid("page", "page must be a positive integer"))
  if (limit < 1 || limit > MAX_PAGE_SIZE) {
    return Effect.fail(options.invalid(options.sizeField, `${options.sizeField} must be an integer from 1 to ${MAX_PAGE_SIZE}`))
  }
  return Effect.succeed({ page: number, limit, offset: (number - 1) * limit, pagesOf: (total: number) => Math.ceil(total / limit) })
}

/** The query of a keyset-paginated list: page size and the cursor (`lastKey`) of the previous page. */
export interface KeysetQuery {
  readonly limit?: number | undefined
  readonly lastKey?: string | undefined
}

/** A `KeysetQuery` that also filters by status and searches by text. */
export interface SearchQuery extends KeysetQuery {
  readonly status?: string | undefined
  readonly search?: string | undefined
}

/**
 * The `pagination` block of a keyset page: how many items match, the page
 * size, and the cursor of the next page (`null` on the last one).
 */
export const keysetPagination = (page: { readonly total: number; readonly lastKey: string | null }, limit: number) => ({
  total: page.total,
  limit,
  hasMore: page.lastKey !== null,
  lastKey: page.lastKey
})

/**
 * A date bound of a list query (`startDate`, `endDate`): a date (the start or
 * end of that day in São Paulo) or a date-time; null when absent.
 */
export const dateBound = <E>(value: string | undefined, options: {
  readonly field: string
  readonly endOfDay: boolean
  readonly invalid: (field: string, message: string) => E
}) => {
  if (value === undefined) return Effect.succeed(null)
  const parsed = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T${options.endOfDay ? "23:59:59.999" : "00:00:00.000"}-03:00` : value)
  return Number.isNaN(parsed.getTime())
    ? Effect.fail(options.invalid(options.field, `${options.field} must be a date or date-time`))
    : Effect.succeed(parsed)
}
