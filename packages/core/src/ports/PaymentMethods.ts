import { Context, type Effect, type Option } from "effect"

/** A tokenized card (`pm_`): what may be kept of it and the acquirer's token. */
export interface PaymentMethod {
  readonly id: string
  readonly accountId: string
  readonly acquirerToken: string
  readonly brand: string
  readonly firstSix: string
  readonly lastFour: string
  readonly expMonth: number
  readonly expYear: number
  readonly holderName: string
  readonly createdAt: Date
}

export class PaymentMethods extends Context.Service<PaymentMethods, {
  readonly insert: (method: PaymentMethod) => Effect.Effect<void>
  readonly find: (accountId: string, id: string) => Effect.Effect<Option.Option<PaymentMethod>>
}>()("@billing/core/ports/PaymentMethods") {}
