import { Context, type Effect, Schema } from "effect"
import type { Account } from "../domain/Account.ts"
import type { Cents } from "../money/Money.ts"

export class BoletoIssuerError extends Schema.TaggedError<BoletoIssuerError>()("BoletoIssuerError", { message: Schema.String }) {}

/** A registered boleto, as the bank returns it. */
export interface IssuedBoleto {
  readonly bankCode: string
  readonly ourNumber: string
  readonly barcode: string
  readonly digitableLine: string
}

/**
 * The boleto issuer (the bank that registers boletos for the account). The
 * sandbox layer builds valid FEBRABAN codes itself; a production one calls
 * the bank's registration API.
 */
export class BoletoIssuer extends Context.Service<BoletoIssuer, {
  readonly issue: (request: {
    readonly receiver: Account
    readonly reference: string
    readonly amount: Cents
    readonly dueDate: string
  }) => Effect.Effect<IssuedBoleto, BoletoIssuerError>
}>()("@billing/core/ports/BoletoIssuer") {}
