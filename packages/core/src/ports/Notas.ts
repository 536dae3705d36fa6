import type { Backlog } from "../domain/Backlog.ts"
import { Context, type Effect, type Option } from "effect"
import type { Nota, NotaStatus } from "../domain/Nota.ts"
import type { RunScope } from "../domain/RunScope.ts"
import type { NotaTransition } from "../rules/NotaTransitions.ts"
import type { AccountId, ChargeId, NfseConfigId, NotaId, SubscriptionId } from "../domain/Ids.ts"

/** The filters of a note list, each `null` when not applied; newest first. */
export interface NotaListFilter {
  readonly limit: number
  readonly lastKey: string | null
  readonly statuses: ReadonlyArray<NotaStatus> | null
  /** Part of the invoice id, the description or the taker's name or document. */
  readonly search: string | null
  /** The taker's CPF or CNPJ, exact. */
  readonly taxId: string | null
  /** Part of the taker's name. */
  readonly customerName: string | null
  readonly from: Date | null
  readonly to: Date | null
}

/** A charge's fiscal configuration and when its note is owed (`dueAt` null: not yet, or already emitted). */
export interface NotaSchedule {
  readonly accountId: AccountId
  readonly chargeId: ChargeId
  readonly configId: NfseConfigId
  readonly dueAt: Date | null
}

/** What a charge's note is issued for: the charge, and the subscription invoice it pays, if any. */
export interface NotaSubject {
  readonly chargeId: ChargeId
  /** The nota routes' id: the subscription invoice's (`inv_`), else the charge's. */
  readonly invoiceId: string
  readonly subscriptionId: SubscriptionId | null
  readonly cycleNumber: number | null
  /** The subscription's `nfConfigId`. */
  readonly subscriptionConfigId: string | null
}

/**
 * Whose numbering a DPS takes: the issuer's CNPJ, as the account knows it, in
 * the account's environment (another account's or a sandbox's numbers never
 * take these).
 */
export interface DpsIssuer {
  readonly accountId: AccountId
  readonly cnpj: string
  readonly sandbox: boolean
}

/** What changes with a move besides the status. */
export type NotaChanges = Partial<Pick<Nota,
  "numero" | "chaveAcesso" | "errors" | "xml" | "cancelReason" | "replacedBy" | "authorizedAt" | "canceledAt" | "dpsNumber" | "issuedAt" | "configId" | "serie" | "descricao" | "tomador"
>>

/**
 * The fiscal invoices and the notes charges are owed. Numbers are handed
 * out here and recorded forever: `nextDpsNumber` is the next number of the
 * issuer's series that was never used, and `insert`/`reissue` record it.
 */
export class Notas extends Context.Service<Notas, {
  /** The next unused DPS number of the issuer's series, at least `from`; holds the series until the transaction ends. */
  readonly nextDpsNumber: (issuer: DpsIssuer, serie: string, from: number) => Effect.Effect<number>
  /**
   * Records a new note and its number; `false` when the invoice already has
   * a standing note (the database's unique index decides, so two emissions
   * racing on one charge make one note). Call in a transaction.
   */
  readonly insert: (nota: Nota, issuer: DpsIssuer) => Effect.Effect<boolean>
  /** A refused note sent again under a new number (`NotaTransitions.reissued`); the note, or none if it was no longer refused. */
  readonly reissue: (accountId: AccountId, id: NotaId, issuer: DpsIssuer, changes: NotaChanges & Pick<Nota, "dpsNumber" | "issuedAt">, at: Date) => Effect.Effect<Option.Option<Nota>>
  /** Applies `transition` with `changes` if the note is still in one of its `from` statuses. */
  readonly transition: (accountId: AccountId, id: NotaId, transition: NotaTransition, changes: NotaChanges, at: Date) => Effect.Effect<Option.Option<Nota>>
  /**
   * The note an id names: the standing note of that invoice id, else its
   * latest; else the note of the charge with that id (a cycle's note is the
   * subscription invoice's); else the note with that own id.
   */
  readonly find: (accountId: AccountId, id: string) => Effect.Effect<Option.Option<Nota>>
  readonly list: (accountId: AccountId, filter: NotaListFilter) => Effect.Effect<{ readonly items: ReadonlyArray<Nota>; readonly total: number; readonly lastKey: string | null }>
  /** Count and amount of the account's notes by status. */
  readonly summary: (accountId: AccountId) => Effect.Effect<ReadonlyArray<{ readonly status: NotaStatus; readonly count: number; readonly amount: bigint }>>
  /**
   * Up to `limit` notes the city has not answered: taken by the city (their
   * DPS recorded) and untouched since `staleBefore`, or never recorded as
   * sent and untouched since `unsentBefore` (a first send may still be in
   * flight until then); leased to the caller until `leaseUntil`, so several
   * workers never ask about one note at once.
   */
  readonly claimProcessing: (staleBefore: Date, unsentBefore: Date, leaseUntil: Date, limit: number, scope: RunScope) => Effect.Effect<ReadonlyArray<Nota>>

  /** Records the charge's configuration (and when its note is owed); a charge's first configuration stays. */
  readonly schedule: (schedule: NotaSchedule, at: Date) => Effect.Effect<void>
  /** The schedules of these charges (paid ones, to set their due dates). */
  readonly schedulesOf: (charges: ReadonlyArray<{ readonly accountId: AccountId; readonly chargeId: ChargeId }>) => Effect.Effect<ReadonlyArray<NotaSchedule>>
  /** Sets when each charge's note is owed (`null`: no longer owed). */
  readonly setDue: (rows: ReadonlyArray<Pick<NotaSchedule, "accountId" | "chargeId" | "dueAt">>) => Effect.Effect<void>
  /** Up to `limit` charges whose note is due by `now`, leased until `leaseUntil`. */
  readonly claimDue: (now: Date, leaseUntil: Date, limit: number, scope: RunScope) => Effect.Effect<ReadonlyArray<NotaSchedule>>
  /** The earliest instant after `after` at which a note of `accountId` comes due (its test clock's next stop). */
  readonly nextDue: (accountId: AccountId, after: Date) => Effect.Effect<Option.Option<Date>>
  /** The notes due by their timing and not emitted, and the notes the city has not answered (unknown outcomes), for the metrics. */
  readonly backlog: (now: Date, cap: number) => Effect.Effect<{ readonly due: Backlog; readonly unanswered: Backlog }>
  /** The charge that `id` (a charge id, or a subscription invoice's) names on the account. */
  readonly subjectOf: (accountId: AccountId, id: string) => Effect.Effect<Option.Option<NotaSubject>>
  /** The configuration recorded for a charge, if any. */
  readonly configOfCharge: (accountId: AccountId, chargeId: ChargeId) => Effect.Effect<Option.Option<string>>
}>()("@billing/core/ports/Notas") {}
