/** The caller of a sandbox simulation (a payment, a bank's answer, a test clock): its account, when it is a sandbox one. */
import { Effect } from "effect"
import { NotSandboxAccount } from "../domain/Charge.ts"
import { Caller } from "./Authenticate.ts"

/** The caller's account; 400 `NOT_SANDBOX_ACCOUNT` with `message` (what is simulated) on a production account. */
export const sandboxCaller = Effect.fn("Auth.sandboxCaller")(function*(message: string) {
  const caller = yield* Caller
  if (!caller.account.sandbox) return yield* new NotSandboxAccount({ message, details: null })
  return caller
})
