/**
 * Acting as an account from inside the process: what an embedding service
 * does for its own merchants, with no client credentials and no token.
 */
import { Effect, Option } from "effect"
import { AccountNotFound } from "../domain/Errors.ts"
import { AllScopes } from "../domain/Scope.ts"
import { Accounts } from "../ports/Accounts.ts"
import { withAccountClock } from "../sandbox/AccountClock.ts"
import { Caller } from "./Authenticate.ts"
import { AccountId } from "../domain/Ids.ts"

/** The `clientId` a use case sees when it runs through `asAccount` (no API client is involved). */
export const EMBEDDED_CLIENT_ID = "embedded"

const allScopes: ReadonlySet<string> = new Set(AllScopes)

/**
 * Runs `effect` as the account `accountId` with every scope, as an HTTP
 * request of its own credentials would; for a sub-account, as its master
 * with `X-Sub-Account` would. Fails with `AccountNotFound` when no such
 * account exists.
 *
 * ```ts
 * const charge = yield* Billing.createPixCharge({ amount: cents(1990) }).pipe(Billing.asAccount(accountId))
 * ```
 *
 * Nothing checks that the caller may act for that account: the embedding
 * service is trusted, as the process that holds the database is. Never pass
 * it an account id taken from an untrusted request.
 */
export const asAccount = (accountId: string) =>
<A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | AccountNotFound, Exclude<R, Caller> | Accounts> =>
  Effect.gen(function*() {
    const accounts = yield* Accounts
    const notFound = () => new AccountNotFound({ message: "Conta não encontrada", details: { accountId } })
    const account = yield* Effect.flatMap(accounts.findById(AccountId.make(accountId)), Option.match({ onNone: () => Effect.fail(notFound()), onSome: Effect.succeed }))
    const master = account.parentId === null
      ? account
      : yield* Effect.flatMap(accounts.findById(account.parentId), Option.match({ onNone: () => Effect.fail(notFound()), onSome: Effect.succeed }))
    const caller = Caller.of({ account, master, clientId: EMBEDDED_CLIENT_ID, scopes: allScopes })
    // A sandbox account's test clock is its "now", as for its HTTP requests.
    return yield* Effect.provideService(effect, Caller, caller).pipe(withAccountClock(account))
  }).pipe(Effect.withSpan("Auth.asAccount"))
