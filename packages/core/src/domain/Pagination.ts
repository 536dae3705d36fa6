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
