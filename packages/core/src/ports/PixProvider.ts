import { Context, type Effect, Schema } from "effect"
import type { Account } from "../domain/Account.ts"
import type { Cents } from "../money/Money.ts"

/** The Pix provider could not register the charge. */
export class PixProviderError extends Schema.TaggedError<PixProviderError>()("PixProviderError", {
  message: Schema.String
}) {}

/**
 * The Pix provider (the PSP that holds the accounts and talks to the SPI):
 * registers a charge and returns its BR Code. Sandbox and production differ
 * only in the layer: the sandbox one builds the code itself; a production
 * one calls the PSP's `cob`/`cobv` API and returns the code it answers.
 */
/** A charge to register with the PSP: who receives, its txid, amount and deadline. */
export interface PixRegistration {
  readonly receiver: Account
  readonly txid: string
  readonly amount: Cents
  readonly expiresAt: Date
  readonly dueDate: string | null
  readonly description: string | null
}

export class PixProvider extends Context.Service<PixProvider, {
  readonly createCharge: (input: PixRegistration) => Effect.Effect<{ readonly emv: string }, PixProviderError>
  /**
   * Pix Automático: registers a recurrence with its first charge and returns
   * the composite BR Code that offers both (paying it asks the payer's bank
   * to authorize the recurrence) and the recurrence id (`idRec`) the PSP gave.
   */
  readonly createRecurrence: (input: PixRegistration) => Effect.Effect<{ readonly emv: string; readonly recurrencyId: string }, PixProviderError>
  /**
   * Pix Automático for an existing subscription: a recurrence alone (no
   * charge), whose BR Code asks the payer's bank to authorize it. `reference`
   * is the engine's id for it (the subscription's).
   */
  readonly requestRecurrence: (input: {
    readonly receiver: Account
    readonly reference: string
    readonly amount: Cents
    readonly at: Date
  }) => Effect.Effect<{ readonly emv: string; readonly recurrencyId: string }, PixProviderError>
}>()("@billing/core/ports/PixProvider") {}
