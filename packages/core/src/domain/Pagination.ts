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
