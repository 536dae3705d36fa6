import { Context, type Effect, type Option } from "effect"
import type { FeeSchedule } from "../rules/Fees.ts"
import type { AccountId } from "../domain/Ids.ts"

/** Fee schedules configured per account and payment method (`pix`, `boleto`, `creditcard`). */
export class FeeSchedules extends Context.Service<FeeSchedules, {
  readonly find: (accountId: AccountId, paymentMethod: string) => Effect.Effect<Option.Option<FeeSchedule>>
}>()("@billing/core/ports/FeeSchedules") {}
