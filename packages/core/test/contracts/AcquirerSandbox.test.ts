/**
 * The sandbox acquirer keeps the port's contract, its outcomes decided by the
 * spec's card table (Sandbox card rule): any other 16 digits approve.
 */
import { AcquirerSandbox, SANDBOX_DECLINING_CARDS } from "../../src/sandbox/AcquirerSandbox.ts"
import { acquirerContract, contractAccount, type Outcome } from "./AcquirerContract.ts"

const numberOf = (outcome: Outcome) =>
  outcome === "approved" ? "4111111111111111" : Object.entries(SANDBOX_DECLINING_CARDS).find(([, code]) => code === outcome)![0]

acquirerContract("the sandbox", () => ({
  layer: AcquirerSandbox,
  account: contractAccount(true),
  driver: { card: (outcome) => ({ number: numberOf(outcome), cvv: "123", name: "Maria Silva", expiration: "12/2030" }) }
}))
