import { Schema } from "effect"
import { AccountId, PaymentMethodId } from "./Ids.ts"

/**
 * A tokenized card (`pm_`): what may be kept of it and the acquirer's token;
 * never the number or CVV. The token is the card as first tokenized until a
 * payment by it is approved, then the acquirer's card on file
 * (`Acquirer.saveCard`), which charges again without the CVV.
 */
export const PaymentMethod = Schema.Struct({
  id: PaymentMethodId,
  accountId: AccountId,
  acquirerToken: Schema.String,
  brand: Schema.String,
  firstSix: Schema.String,
  lastFour: Schema.String,
  expMonth: Schema.Int,
  expYear: Schema.Int,
  holderName: Schema.String,
  createdAt: Schema.Date
}).annotate({ identifier: "PaymentMethodRecord" })
export type PaymentMethod = typeof PaymentMethod.Type
