/**
 * The sandbox boleto issuer keeps the port's contract: bank 999 codes made
 * by the engine, its books in memory, a boleto paid through its own bank's
 * hand (`SandboxBoletoBank`), as a payer at the counter would.
 */
import { Effect } from "effect"
import { BoletoIssuerSandbox, SandboxBoletoBank } from "../../src/sandbox/BoletoIssuerSandbox.ts"
import { boletoIssuerContract } from "./BoletoIssuerContract.ts"

boletoIssuerContract("the sandbox", () => ({
  layer: BoletoIssuerSandbox,
  driver: { pay: (_, reference, paidOn) => Effect.flatMap(SandboxBoletoBank, (bank) => bank.pay(reference, paidOn)) }
}))
