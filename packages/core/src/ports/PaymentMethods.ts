import { Context, type Effect, type Option } from "effect"
import type { PaymentMethod } from "../domain/PaymentMethod.ts"
import type { AccountId, PaymentMethodId } from "../domain/Ids.ts"

export class PaymentMethods extends Context.Service<PaymentMethods, {
  readonly insert: (method: PaymentMethod) => Effect.Effect<void>
  readonly find: (accountId: AccountId, id: PaymentMethodId) => Effect.Effect<Option.Option<PaymentMethod>>
  /** The cards `ids` of their accounts, in one read (a billing run's batch); unknown ids are left out. */
  readonly findMany: (ids: ReadonlyArray<PaymentMethodId>) => Effect.Effect<ReadonlyArray<PaymentMethod>>
  /** Replaces the acquirer's token of the account's card `id`: the card kept on file after its first approved payment. */
  readonly updateToken: (accountId: AccountId, id: PaymentMethodId, acquirerToken: string) => Effect.Effect<void>
}>()("@billing/core/ports/PaymentMethods") {}
