/**
 * The master's sub-accounts: `GET /v1/accounts/subaccounts` in the real
 * provider's shape (`masterAccountId`, `subAccounts[]` with each one's
 * onboarding, daily withdrawal limit and available balance, the page) and
 * `GET /v1/accounts/cnpj/{cnpj}`, one of the caller's own accounts by
 * document (the spec leaves both responses unshown).
 */
import { Effect, Option, Schema } from "effect"
import { Caller } from "../auth/Authenticate.ts"
import { documentKind, normalizeDocument } from "../brazil/Documents.ts"
import { type Account } from "../domain/Account.ts"
import { AccountNotFound, InvalidData, invalidData } from "../domain/Errors.ts"
import { dateBound, offsetPage } from "../domain/Pagination.ts"
import { Identifier, optional, QueryInt } from "../domain/Values.ts"
import { Instant, ReaisJson } from "../domain/Wire.ts"
import { Accounts } from "../ports/Accounts.ts"
import { Ledger } from "../ports/Ledger.ts"
import { Proposals } from "../ports/Proposals.ts"
import { transferLimitsOf } from "../wallet/SendPix.ts"

export const SubAccountListQuery = Schema.Struct({
  dateFrom: optional(Identifier),
  dateTo: optional(Identifier),
  page: optional(QueryInt),
  perPage: optional(QueryInt)
})
export type SubAccountListQuery = typeof SubAccountListQuery.Type

export const SubAccountItem = Schema.Struct({
  accountNumber: Schema.String,
  name: Schema.String,
  documentNumber: Schema.String,
  /** `CONFIRMED`: a sub-account exists once onboarding confirmed it. */
  status: Schema.Literal("CONFIRMED"),
  onboardingId: Schema.NullOr(Schema.String),
  dailyWithdrawalLimit: ReaisJson,
  /** The available balance. */
  balance: ReaisJson,
  createdAt: Instant
})

export const SubAccountList = Schema.Struct({
  masterAccountId: Schema.String,
  subAccounts: Schema.Array(SubAccountItem),
  page: Schema.Number,
  perPage: Schema.Number,
  hasMore: Schema.Boolean,
  totalItems: Schema.Number,
  totalPages: Schema.Number,
  dateFrom: Schema.NullOr(Instant),
  dateTo: Schema.NullOr(Instant)
}).annotate({ identifier: "SubAccountList" })

export const DEFAULT_SUBACCOUNT_PAGE_SIZE = 15

export const listSubAccounts = Effect.fn("SubAccounts.list")(function*(query: SubAccountListQuery) {
  const { master } = yield* Caller
  const { page, limit: perPage, offset, pagesOf } = yield* offsetPage(query.page, query.perPage, {
    sizeField: "perPage",
    fallback: DEFAULT_SUBACCOUNT_PAGE_SIZE,
    invalid: invalidData
  })
  const from = yield* dateBound(query.dateFrom, { field: "dateFrom", endOfDay: false, invalid: invalidData })
  const to = yield* dateBound(query.dateTo, { field: "dateTo", endOfDay: true, invalid: invalidData })
  const { items, total } = yield* (yield* Accounts).listSubAccounts(master.id, { from, to, offset, limit: perPage })
  const ids = items.map((a) => a.id)
  const balances = yield* (yield* Ledger).balances(ids)
  const onboardings = new Map((yield* (yield* Proposals).onboardingsOf(ids)).map((o) => [o.subAccountId, o.onboardingId]))
  const limits = yield* transferLimitsOf(ids)
  const subAccounts = items.map((account) => ({
    accountNumber: account.number,
    name: account.name,
    documentNumber: account.document,
    status: "CONFIRMED" as const,
    onboardingId: onboardings.get(account.id) ?? null,
    dailyWithdrawalLimit: limits.get(account.id)!.dailyLimit,
    balance: balances.get(account.id)?.available ?? 0,
    createdAt: account.createdAt
  }))
  return {
    masterAccountId: master.id,
    subAccounts,
    page,
    perPage,
    hasMore: page * perPage < total,
    totalItems: total,
    totalPages: pagesOf(total),
    dateFrom: from,
    dateTo: to
  } as typeof SubAccountList.Type
})

export const AccountLookup = Schema.Struct({
  accountNumber: Schema.String,
  name: Schema.String,
  documentNumber: Schema.String,
  type: Schema.Literals(["PF", "PJ"]),
  status: Schema.Literal("CONFIRMED"),
  /** The master's id for a sub-account; null for the master itself. */
  masterAccountId: Schema.NullOr(Schema.String),
  createdAt: Instant
}).annotate({ identifier: "AccountLookup" })

const toLookup = (account: Account): typeof AccountLookup.Type => ({
  accountNumber: account.number,
  name: account.name,
  documentNumber: account.document,
  type: account.personType,
  status: "CONFIRMED",
  masterAccountId: account.parentId,
  createdAt: account.createdAt
})

/** `GET /v1/accounts/cnpj/{cnpj}`: the caller's master or one of its sub-accounts with this CNPJ; 404 `ACCOUNT_NOT_FOUND` otherwise. */
export const findAccountByDocument = Effect.fn("SubAccounts.findByDocument")(function*(cnpj: string) {
  const { master } = yield* Caller
  const document = normalizeDocument(cnpj)
  if (documentKind(document) !== "CNPJ") return yield* new InvalidData({ message: "cnpj must be a valid CNPJ", details: { field: "cnpj" } })
  const found = yield* (yield* Accounts).findOwnByDocument(master.id, document)
  if (Option.isNone(found)) return yield* new AccountNotFound({ message: `Nenhuma conta com o CNPJ ${document}`, details: null })
  return toLookup(found.value)
})
