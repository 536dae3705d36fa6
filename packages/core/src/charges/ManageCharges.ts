/**
 * Reading, listing, canceling and archiving charges of the caller. A charge
 * of another account is not found, exactly like one that does not exist.
 */
import { Clock, Effect, Option } from "effect"
import { Caller } from "../auth/Authenticate.ts"
import {
  type Charge,
  ChargeNotArchivable,
  ChargeNotCancelable,
  ChargeNotFound,
  MissingChargeId,
  paymentTypeOf
} from "../domain/Charge.ts"
import { type ChargeListQuery, toDetailView, toLeanStatus, toListItem, toStatusView } from "../domain/ChargeViews.ts"
import { InvalidData, invalidData } from "../domain/Errors.ts"
import { offsetPage } from "../domain/Pagination.ts"
import { type ChargeScope, Charges } from "../ports/Charges.ts"
import { type ChargeTransition, ChargeTransitions, nextChargeStatus } from "../rules/ChargeTransitions.ts"
import { closeAtProvider, closesAtProvider, closingRefusal } from "./ProviderClosing.ts"
import type { ChargeId } from "../domain/Ids.ts"

/** A master without `X-Sub-Account` sees every charge it generated; otherwise the account's own. */
export const chargeScope = Effect.map(Caller, (caller): ChargeScope =>
  caller.account.parentId === null
    ? { _tag: "Master", masterAccountId: caller.master.id }
    : { _tag: "Account", accountId: caller.account.id })

/** The caller's charge `id`, or `CHARGE_NOT_FOUND`. */
export const findCharge = Effect.fn("Charges.find")(function*(id: ChargeId) {
  if (id.trim().length === 0) return yield* new MissingChargeId({ message: "chargeId é obrigatório", details: null })
  const charges = yield* Charges
  const found = yield* charges.find(yield* chargeScope, id)
  if (Option.isNone(found)) return yield* new ChargeNotFound({ message: `Cobrança ${id} não encontrada`, details: null })
  return found.value
})

export const getCharge = Effect.fn("Charges.get")(function*(id: ChargeId, view: "status" | "detail") {
  const charge = yield* findCharge(id)
  return view === "detail" ? { _tag: "detail" as const, body: toDetailView(charge) } : { _tag: "status" as const, body: toStatusView(charge) }
})

export const getChargeStatus = Effect.fn("Charges.status")(function*(id: ChargeId) {
  return toLeanStatus(yield* findCharge(id))
})

export const DEFAULT_CHARGE_PAGE_SIZE = 15

/** `dateFrom` (or its alias) as an instant; `null` when not sent. */
const instantOf = (query: ChargeListQuery, field: "dateFrom" | "dateTo", alias: "startDate" | "endDate") => {
  const value = query[field] ?? query[alias]
  if (value === undefined) return Effect.succeed(null)
  const date = new Date(value)
  const named = query[field] === undefined ? alias : field
  return Number.isNaN(date.getTime())
    ? Effect.fail(new InvalidData({ message: `${named} must be an ISO 8601 date-time`, details: { field: named } }))
    : Effect.succeed(date)
}

/** `GET /v1/charges`: every filter of `ChargeListQuery` applied, newest first. */
export const listCharges = Effect.fn("Charges.list")(function*(query: ChargeListQuery) {
  const { page, limit, offset, pagesOf } = yield* offsetPage(query.page, query.perPage ?? query.limit, {
    sizeField: query.perPage === undefined ? "limit" : "perPage",
    fallback: DEFAULT_CHARGE_PAGE_SIZE,
    invalid: invalidData
  })
  const from = yield* instantOf(query, "dateFrom", "startDate")
  const to = yield* instantOf(query, "dateTo", "endDate")
  const method = query.paymentType ?? query.paymentMethod
  const charges = yield* Charges
  const result = yield* charges.list(yield* chargeScope, {
    offset,
    limit,
    from,
    to,
    status: query.status ?? null,
    paymentType: method === undefined ? null : paymentTypeOf[method],
    document: query.document ?? null,
    search: query.search ?? null,
    accountId: query.subaccountId ?? null
  })
  return {
    data: result.items.map(toListItem),
    totalItems: result.total,
    totalPages: pagesOf(result.total),
    page,
    limit,
    dateFrom: from,
    dateTo: to
  }
})

const move = (charge: Charge, transition: ChargeTransition, changes: Parameters<Charges["Service"]["transition"]>[2], at: Date) =>
  Effect.flatMap(Charges, (charges) => charges.transition(charge.id, transition, changes, at))

/**
 * A Pix is taken off sale at its PSP, and a boleto written off at its bank,
 * before its charge is canceled (`closeAtProvider`), so a canceled charge is
 * never left payable; the provider is asked outside any transaction. A
 * charge the provider says was paid is confirmed (as a callback or the poll
 * would) and the cancel refused, the charge no longer being open; a provider
 * that cannot be asked leaves the charge as it was (502).
 */
const closeBeforeCancel = Effect.fnUntraced(function*(charge: Charge) {
  if (!closesAtProvider(charge) || nextChargeStatus(charge.status, "canceled") === undefined) return
  const closing = yield* closeAtProvider(charge).pipe(Effect.mapError(closingRefusal(charge)))
  if (closing._tag === "Closed") return
  const now = yield* findCharge(charge.id)
  const provider = charge.paymentType === paymentTypeOf.pix ? "pix" : "boleto"
  const paidAt = provider === "pix" ? "O Pix já foi pago no PSP" : "O boleto já foi pago no banco"
  return yield* new ChargeNotCancelable({
    message: `${paidAt}; a cobrança está ${now.status} e não pode ser cancelada`,
    details: { status: now.status, provider, reason: provider === "pix" ? "PIX_PAID" : "BOLETO_PAID" }
  })
})

export const cancelCharge = Effect.fn("Charges.cancel")(function*(id: ChargeId) {
  const charge = yield* findCharge(id)
  yield* closeBeforeCancel(charge)
  const at = new Date(yield* Clock.currentTimeMillis)
  const moved = yield* move(charge, ChargeTransitions.canceled, { canceledAt: at }, at)
  if (Option.isNone(moved)) {
    return yield* new ChargeNotCancelable({
      message: `Não é possível cancelar uma cobrança com status ${charge.status}`,
      details: { status: charge.status }
    })
  }
  return { message: "Cobrança cancelada com sucesso", chargeId: id }
})

export const archiveCharge = Effect.fn("Charges.archive")(function*(id: ChargeId) {
  const charge = yield* findCharge(id)
  const at = new Date(yield* Clock.currentTimeMillis)
  const moved = yield* move(charge, ChargeTransitions.archived, { archivedAt: at }, at)
  if (Option.isNone(moved)) {
    return yield* new ChargeNotArchivable({
      message: `Só cobranças canceladas podem ser arquivadas; status atual ${charge.status}`,
      details: { status: charge.status }
    })
  }
  return { chargeId: id, status: "ARCHIVED" as const, archivedAt: at.toISOString() }
})
