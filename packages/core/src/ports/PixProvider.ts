import { Context, type Effect, type Option, Schema } from "effect"
import type { Account } from "../domain/Account.ts"
import type { PixKey } from "../domain/Withdrawal.ts"
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

/** Who holds a Pix key, as the DICT answers. */
export interface PixKeyHolder {
  readonly name: string
  readonly document: string
  /** ISPB of the holder's bank. */
  readonly bank: string
}

/** The provider's answer to a payout: paid (with the SPI's end-to-end id), or refused with its reason. */
export type PayoutAnswer =
  | { readonly _tag: "Paid"; readonly endToEndId: string }
  | { readonly _tag: "Refused"; readonly reason: string }

/** One Pix on a PSP's statement: in (`CREDIT`) or out (`DEBIT`) of the account, by its SPI id. */
export interface PspEntry {
  readonly endToEndId: string
  readonly direction: "CREDIT" | "DEBIT"
  readonly amount: Cents
  readonly at: Date
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
  /** Looks a key up in the DICT: its holder, or none when no one holds it. */
  readonly lookupKey: (key: PixKey) => Effect.Effect<Option.Option<PixKeyHolder>, PixProviderError>
  /**
   * Pays `amount` out of the account to `key`. `reference` is the engine's id
   * of the payout (the withdrawal's): asked twice, the provider answers the
   * first payout instead of paying again.
   */
  readonly payOut: (input: {
    readonly account: Account
    readonly reference: string
    readonly amount: Cents
    readonly key: PixKey
    readonly at: Date
  }) => Effect.Effect<PayoutAnswer, PixProviderError>
  /**
   * Returns `amount` of the Pix `endToEndId` to its payer (a devolução).
   * `reference` (the refund's id) is the idempotency key. Paid: the
   * return's own end-to-end id, the spec's `returnIdentification`.
   */
  readonly returnPix: (input: {
    readonly account: Account
    readonly endToEndId: string
    readonly amount: Cents
    readonly reference: string
    readonly at: Date
  }) => Effect.Effect<PayoutAnswer, PixProviderError>
  /** The provider's statement of the account's Pix between `from` (inclusive) and `to` (exclusive). */
  readonly statement: (input: { readonly account: Account; readonly from: Date; readonly to: Date }) => Effect.Effect<ReadonlyArray<PspEntry>, PixProviderError>
  /** The ISPB of the institution that holds the accounts' money (what `account_approved` names a new account's bank by). */
  readonly ispb: string
}>()("@billing/core/ports/PixProvider") {}
