import type { AccountId } from "./Ids.ts"

/**
 * The accounts one run of a time-driven job covers. The worker runs every
 * account that has no test clock; advancing a sandbox account's test clock
 * runs that account alone, at the clock's time (`sandbox/TestClocks.ts`).
 */
export interface RunScope {
  /** The one account to run, or null for every account without a test clock. */
  readonly accountId: AccountId | null
  /**
   * Payment methods whose cycles of production accounts the run leaves as
   * they are: no provider of theirs is configured (`ProviderGate`), so they
   * wait, `SCHEDULED`, and are billed once when it is. None when absent.
   */
  readonly heldMethods?: ReadonlyArray<string> | undefined
}

/** The worker's scope. */
export const EVERY_ACCOUNT: RunScope = { accountId: null }
