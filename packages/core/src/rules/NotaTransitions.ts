/**
 * The fiscal invoice's state machine: every status change a note can make,
 * in one table (spec: States, Fiscal invoice status; the moves it leaves
 * open are recorded in docs/decisions.md, "Notas"). Storage applies a move
 * as one conditional UPDATE (`WHERE status IN from`), and the database
 * refuses any pair not listed here (migration 0028's trigger, checked
 * against this table by a test), so a late answer of the city can never
 * undo a cancellation.
 */
import type { NotaStatus } from "../domain/Nota.ts"

/** What moves a note. */
export type NotaTrigger =
  /** The city took the DPS and will answer later (or its answer was lost): the note waits, its DPS recorded. */
  | "sent"
  /** The city answered the DPS at once with the note (`ISSUED`). */
  | "issuedAtOnce"
  /** The city confirmed later a DPS it had taken (`AUTHORIZED`). */
  | "authorized"
  /** The city refused the DPS. */
  | "refused"
  /** The engine could not send the DPS at its time (configuration disabled or incomplete). */
  | "failedToSend"
  /** `reemitir` of a refused note: a new DPS under the same note. */
  | "reissued"
  /** `DELETE`: the city canceled the note. */
  | "canceled"
  /** `reemitir` of an issued note: a new note substitutes it at the city. */
  | "replaced"

export interface NotaTransition {
  readonly trigger: NotaTrigger
  readonly from: ReadonlyArray<NotaStatus>
  readonly to: NotaStatus
}

/** A note the city has issued and not undone: it can be canceled, replaced, printed and resent. */
export const LIVE_NOTA_STATUSES = ["ISSUED", "AUTHORIZED"] as const satisfies ReadonlyArray<NotaStatus>

/** A note the city refused (or the engine could not send): only `reemitir` moves it. */
export const REFUSED_NOTA_STATUSES = ["FAILED", "ERROR"] as const satisfies ReadonlyArray<NotaStatus>

/** Notes that no longer stand for their charge: another may be emitted in their place. */
export const ENDED_NOTA_STATUSES = ["CANCELED", "REPLACED"] as const satisfies ReadonlyArray<NotaStatus>

export const NotaTransitions = {
  sent: { trigger: "sent", from: ["PROCESSING"], to: "PROCESSING" },
  issuedAtOnce: { trigger: "issuedAtOnce", from: ["PROCESSING"], to: "ISSUED" },
  authorized: { trigger: "authorized", from: ["PROCESSING"], to: "AUTHORIZED" },
  refused: { trigger: "refused", from: ["PROCESSING"], to: "FAILED" },
  failedToSend: { trigger: "failedToSend", from: ["PROCESSING"], to: "ERROR" },
  reissued: { trigger: "reissued", from: REFUSED_NOTA_STATUSES, to: "PROCESSING" },
  canceled: { trigger: "canceled", from: LIVE_NOTA_STATUSES, to: "CANCELED" },
  replaced: { trigger: "replaced", from: LIVE_NOTA_STATUSES, to: "REPLACED" }
} as const satisfies { readonly [T in NotaTrigger]: NotaTransition & { readonly trigger: T } }

/** Every (from, to) pair the table allows: what the database's trigger admits. */
export const notaStatusPairs = (): ReadonlyArray<readonly [NotaStatus, NotaStatus]> =>
  Object.values(NotaTransitions).flatMap((t: NotaTransition) => t.from.map((from) => [from, t.to] as const))

/**
 * The list filter's `status`: the spec makes `AUTHORIZED` and `ISSUED`
 * one, and `ERROR` and `FAILED` one.
 */
export const statusesMatching = (status: NotaStatus): ReadonlyArray<NotaStatus> => {
  if (status === "AUTHORIZED" || status === "ISSUED") return LIVE_NOTA_STATUSES
  if (status === "ERROR" || status === "FAILED") return REFUSED_NOTA_STATUSES
  return [status]
}
