import { Context, type Effect, type Option } from "effect"
import type { PaymentMethod } from "../domain/PaymentMethod.ts"

export class PaymentMethods extends Context.Service<PaymentMethods, {
  readonly insert: (method: PaymentMethod) => Effect.Effect<void>
  readonly find: (accountId: string, id: string) => Effect.Effect<Option.Option<PaymentMethod>>
}>()("@billing/core/ports/PaymentMethods") {}
