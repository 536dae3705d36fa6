import { Context, type Effect, type Option } from "effect"
import type { FeeSchedule } from "../rules/Fees.ts"

/** Fee schedules configured per account and payment method (`pix`, `boleto`, `creditcard`). */
export class FeeSchedules extends Context.Service<FeeSchedules, {
  readonly find: (accountId: string, paymentMethod: string) => Effect.Effect<Option.Option<FeeSchedule>>
}>()("@billing/core/ports/FeeSchedules") {}
