/**
 * The provider's receivables routes: what an account will receive, by day
 * (`GET /v1/wallet/receivables`), and one day's receivables
 * (`GET /v1/wallet/receivables-calendar/{day}`). Boleto credits settle the
 * next business day; card installments month by month (`rules/Postings.ts`).
 */
import { Clock, Effect } from "effect"
import { saoPauloDate } from "../brazil/BankCalendar.ts"
import { addDays, daysBetween, toDayNumber } from "../brazil/CalendarDate.ts"
import { invalidData } from "../domain/Errors.ts"
import type { ReceivablesQuery } from "../domain/WalletViews.ts"
import { sumCents } from "../money/Money.ts"
import { Ledger } from "../ports/Ledger.ts"
import { walletAccount } from "./WalletAccount.ts"

/** The widest range one request reads: a year and a half, past the last installment of a 12-installment card. */
const MAX_RECEIVABLE_DAYS = 400

/** Most receivables one calendar day answers. */
const MAX_RECEIVABLES_PER_DAY = 500

const dayOf = (field: string, value: string | undefined, fallback: string) =>
  value === undefined
    ? Effect.succeed(fallback)
    : toDayNumber(value) === undefined
    ? Effect.fail(invalidData(field, `${field} must be a date, YYYY-MM-DD`))
    : Effect.succeed(value)

export const receivables = Effect.fn("Wallet.receivables")(function*(query: ReceivablesQuery) {
  const account = yield* walletAccount(query.accountId)
  const today = saoPauloDate(yield* Clock.currentTimeMillis)
  const from = yield* dayOf("dateFrom", query.dateFrom, today)
  const to = yield* dayOf("dateTo", query.dateTo, addDays(from, MAX_RECEIVABLE_DAYS - 1))
  const span = toDayNumber(to) === undefined ? Number.NaN : daysBetween(from, to)
  if (!(span >= 0 && span < MAX_RECEIVABLE_DAYS)) {
    return yield* invalidData("dateTo", `dateTo must be from dateFrom to ${MAX_RECEIVABLE_DAYS - 1} days after it`)
  }
  const days = yield* (yield* Ledger).receivableDays(account.id, from, to)
  return {
    accountId: account.number,
    dateFrom: from,
    dateTo: to,
    total: sumCents(days.map((d) => d.amount)),
    days: days.map((d) => ({ date: d.day, amount: d.amount, count: d.count }))
  }
})

export const receivablesCalendar = Effect.fn("Wallet.receivablesCalendar")(function*(day: string, accountId?: string) {
  const account = yield* walletAccount(accountId)
  const date = yield* dayOf("day", day, day)
  const items = yield* (yield* Ledger).receivablesOn(account.id, date, MAX_RECEIVABLES_PER_DAY + 1)
  const shown = items.slice(0, MAX_RECEIVABLES_PER_DAY)
  return {
    accountId: account.number,
    date,
    total: sumCents(shown.map((r) => r.amount)),
    hasMore: items.length > MAX_RECEIVABLES_PER_DAY,
    items: shown.map((r) => ({ receivableId: r.id, chargeId: r.chargeId, installment: r.installment, paymentMethod: r.paymentMethod, amount: r.amount }))
  }
})
