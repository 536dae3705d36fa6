import { metered } from "../metrics/ProviderMetrics.ts"
import { Context, type Effect, type Option, Schema } from "effect"
import type { Account } from "../domain/Account.ts"
import type { PixPayer } from "../domain/Charge.ts"
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
  /** Who is to pay, when the charge names them (a PSP's Pix with due date, `cobv`, requires its payer). */
  readonly payer: { readonly name: string; readonly document: string } | null
}

/** A charge registered: its BR Code, and the PSP that holds it (its name in the providers file; null in the sandbox). */
export interface PixRegistered {
  readonly emv: string
  readonly psp: string | null
}

/** One Pix the PSP received into the operator's account. */
export interface ReceivedPix {
  /** The engine's txid of the charge it pays (the PSP adapter maps its own back). */
  readonly txid: string
  readonly endToEndId: string
  readonly amount: Cents
  /** When the SPI settled it (`horario`). */
  readonly at: Date
  readonly payer: PixPayer
  /**
   * The PSP that received it (its name in the providers file), when a PSP
   * told: the charge then records it, since its refunds must go where the
   * money is, which is not the PSP it moved to when its creation timed out
   * at one that registered it after all.
   */
  readonly psp?: string
}

/** A charge past its deadline, as its PSP holds it: paid by `pix` meanwhile, or off sale, no Pix able to pay it any more. */
export type PixChargeClosing =
  | { readonly _tag: "Paid"; readonly pix: ReadonlyArray<ReceivedPix> }
  | { readonly _tag: "Closed" }

/** Who holds a Pix key, as the DICT answers. */
export interface PixKeyHolder {
  readonly name: string
  readonly document: string
  /** ISPB of the holder's bank. */
  readonly bank: string
}

/**
 * The provider's answer to a payout: paid (with the SPI's end-to-end id and,
 * when the provider says, the instant the SPI settled it: the ledger posts
 * the money's move then, as the provider's statement dates it), or refused
 * with its reason.
 */
export type PayoutAnswer =
  | { readonly _tag: "Paid"; readonly endToEndId: string; readonly settledAt?: Date }
  | { readonly _tag: "Refused"; readonly reason: string }

/** One Pix on a PSP's statement: in (`CREDIT`) or out (`DEBIT`) of the account, by its SPI id. */
export interface PspEntry {
  readonly endToEndId: string
  readonly direction: "CREDIT" | "DEBIT"
  readonly amount: Cents
  readonly at: Date
  /**
   * The engine's txid of the charge the Pix paid (a devolução's: its Pix's),
   * given when the statement covers more than the account (a PSP's lists
   * every Pix of the operator's key, whichever merchant it paid); null for a
   * Pix that paid no charge of the engine's. Absent from a statement that is
   * the account's own.
   */
  readonly txid?: string | null
}

export class PixProvider extends Context.Service<PixProvider, {
  readonly createCharge: (input: PixRegistration) => Effect.Effect<PixRegistered, PixProviderError>
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
  /** Looks a key up in the DICT for `account`: its holder, or none when no one holds it. */
  readonly lookupKey: (account: Account, key: PixKey) => Effect.Effect<Option.Option<PixKeyHolder>, PixProviderError>
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
    /** The PSP that holds the charge paid by the Pix (the charge's `psp`): a charge's refunds go where it was paid. */
    readonly psp: string | null
    readonly endToEndId: string
    readonly amount: Cents
    readonly reference: string
    readonly at: Date
  }) => Effect.Effect<PayoutAnswer, PixProviderError>
  /**
   * Takes the charge `txid` off sale at the PSP that holds it (`psp`), once
   * its deadline has passed and before the engine expires it, and answers
   * the Pix that paid it meanwhile, whose callback never came and which no
   * poll found yet: money the charge must record rather than expire. A
   * charge the PSP no longer holds is closed; asked again, the same answer.
   */
  readonly closeCharge: (input: {
    readonly receiver: Account
    readonly psp: string | null
    readonly txid: string
    /** A Pix with due date (`cobv`) has one; an immediate one (`cob`) none. */
    readonly dueDate: string | null
  }) => Effect.Effect<PixChargeClosing, PixProviderError>
  /** The provider's statement of the account's Pix between `from` (inclusive) and `to` (exclusive). */
  readonly statement: (input: { readonly account: Account; readonly from: Date; readonly to: Date }) => Effect.Effect<ReadonlyArray<PspEntry>, PixProviderError>
  /** The ISPB of the institution that holds `account`'s money (what `account_approved` names a new account's bank by). */
  readonly ispbOf: (account: Account) => string
}>()("@billing/core/ports/PixProvider") {
  /**
   * Sandbox accounts on `sandbox`, production accounts on `production`: one
   * engine serves both, and a sandbox layer never decides a real payment.
   */
  static readonly byEnvironment = (sandbox: PixProvider["Service"], production: PixProvider["Service"]): PixProvider["Service"] => {
    const live = metered("pix", production)
    const of = (account: Account) => (account.sandbox ? sandbox : live)
    return PixProvider.of({
      createCharge: (input) => of(input.receiver).createCharge(input),
      createRecurrence: (input) => of(input.receiver).createRecurrence(input),
      requestRecurrence: (input) => of(input.receiver).requestRecurrence(input),
      lookupKey: (account, key) => of(account).lookupKey(account, key),
      payOut: (input) => of(input.account).payOut(input),
      returnPix: (input) => of(input.account).returnPix(input),
      closeCharge: (input) => of(input.receiver).closeCharge(input),
      statement: (input) => of(input.account).statement(input),
      ispbOf: (account) => of(account).ispbOf(account)
    })
  }
}
