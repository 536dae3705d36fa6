/**
 * The accounts one run of a time-driven job covers. The worker runs every
 * account that has no test clock; advancing a sandbox account's test clock
 * runs that account alone, at the clock's time (`sandbox/TestClocks.ts`).
 */
export interface RunScope {
  /** The one account to run, or null for every account without a test clock. */
  readonly accountId: string | null
}

/** The worker's scope. */
export const EVERY_ACCOUNT: RunScope = { accountId: null }
