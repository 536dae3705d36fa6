/**
 * `GET /v1/wallet/transactions`: an account's statement, newest first, from
 * the lines of its `AVAILABLE`, `RETAINED` and `DEBT` books, each with the
 * exact balance of its book after it.
 * Paged by an opaque token over the ledger's order, so a page never repeats
 * or skips a line however many arrive meanwhile. `PATCH
 * /v1/wallet/transactions/{id}` keeps the merchant's note on a line.
 */
import { Clock, Effect, Option, Result } from "effect"
import { Base64Url } from "effect/encoding"
import { dateBound, pageLimit } from "../domain/Pagination.ts"
import { invalidData, NotFound } from "../domain/Errors.ts"
import { type StatementQuery, toTransactionView } from "../domain/WalletViews.ts"
import { Ledger } from "../ports/Ledger.ts"
import { walletAccount } from "./WalletAccount.ts"
import type { LedgerLineId } from "../domain/Ids.ts"

/** The statement's page size when `limit` is absent (spec: Limits). */
export const DEFAULT_STATEMENT_LIMIT = 50

const tokenOf = (seq: string) => Base64Url.encode(`s:${seq}`)

const seqOf = (token: string | undefined) => {
  if (token === undefined) return Effect.succeed(null)
  const decoded = Base64Url.decodeString(token)
  const seq = Result.isSuccess(decoded) ? /^s:(\d{1,18})$/.exec(decoded.success)?.[1] : undefined
  return seq === undefined ? Effect.fail(invalidData("nextPageToken", "nextPageToken is not one this API gave")) : Effect.succeed(seq)
}

export const walletStatement = Effect.fn("Wallet.statement")(function*(query: StatementQuery) {
  const account = yield* walletAccount(query.accountId)
  const limit = yield* pageLimit(query.limit, DEFAULT_STATEMENT_LIMIT, invalidData)
  const bound = (field: "dateFrom" | "dateTo") => dateBound(query[field], { field, endOfDay: field === "dateTo", invalid: invalidData })
  const page = yield* (yield* Ledger).statement(account.id, {
    direction: query.type ?? null,
    category: query.category ?? null,
    from: yield* bound("dateFrom"),
    to: yield* bound("dateTo"),
    limit,
    beforeSeq: yield* seqOf(query.nextPageToken)
  })
  const last = page.lines[page.lines.length - 1]
  return {
    accountId: account.number,
    transactions: page.lines.map(toTransactionView),
    nextPageToken: page.hasMore && last !== undefined ? tokenOf(last.seq) : null,
    hasMore: page.hasMore
  }
})

export const noteTransaction = Effect.fn("Wallet.noteTransaction")(function*(id: LedgerLineId, note: string, accountId?: string) {
  const account = yield* walletAccount(accountId)
  const at = new Date(yield* Clock.currentTimeMillis)
  const line = yield* (yield* Ledger).setNote(account.id, id, note, at)
  if (Option.isNone(line)) return yield* new NotFound({ message: `Transação ${id} não encontrada`, details: { transactionId: id } })
  return toTransactionView(line.value)
})
