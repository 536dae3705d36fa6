/**
 * The sandbox Pix provider's own books: the Pix it moved for each account,
 * as a PSP's statement lists them. Kept apart from the ledger (written by the
 * provider as it pays, not by the engine as it records), so reconciliation
 * compares two records; a test injects a discrepancy by writing here.
 */
import { Context, type Effect } from "effect"
import type { PspEntry } from "./PixProvider.ts"
import type { AccountId } from "../domain/Ids.ts"

export class SandboxPsp extends Context.Service<SandboxPsp, {
  readonly record: (accountId: AccountId, entry: PspEntry) => Effect.Effect<void>
  /** Records what it paid for the engine's `reference` the first time it is asked; the entry of that first time, every time. */
  readonly recordOnce: (accountId: AccountId, reference: string, entry: PspEntry) => Effect.Effect<PspEntry>
  readonly statement: (accountId: AccountId, from: Date, to: Date) => Effect.Effect<ReadonlyArray<PspEntry>>
}>()("@billing/core/ports/SandboxPsp") {}
