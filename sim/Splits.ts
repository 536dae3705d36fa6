/**
 * Sub-accounts and splits: a merchant opens sellers under it (each with its
 * own CPF, its Pix key for withdrawals), and some of its Pix and boleto
 * charges split a part to one of them, by a fixed amount or a percentage.
 * A card charge never splits (the engine refuses it), so none is drawn.
 */
import { Billing } from "@billing/core"
import { Effect, Option } from "effect"
import { cpfOf } from "./People.ts"
import * as Random from "./Random.ts"
import { step } from "./Steps.ts"
import type { Merchant, Workload } from "./Workload.ts"

/** Sellers a merchant opens at most: enough for a split to pick among, few enough to keep each one's balance moving. */
const MAX_SUB_ACCOUNTS = 3

/** A seller's CPF: nine base digits from the merchant's number and the seller's, never one digit repeated. */
const sellerDocument = (m: Merchant, k: number) => cpfOf([m.number % 10, k % 10, 1, 3, 5, 7, 2, 4, 6])

/** The merchant opens a seller under its account (at most `MAX_SUB_ACCOUNTS`). */
export const openSubAccount = Effect.fn("Splits.openSubAccount")(function*(w: Workload, m: Merchant, options?: { readonly crashable?: boolean }) {
  if (m.subAccounts.length >= MAX_SUB_ACCOUNTS) return void w.log.lines.push(`sub-account: ${m.accountId} has ${MAX_SUB_ACCOUNTS} already`)
  const k = m.subAccounts.length + 1
  const document = sellerDocument(m, k)
  const input = { name: `Vendedor ${m.number}.${k}`, document, parentId: m.accountId }
  const opened = yield* step(w.log, `open sub-account ${k} of ${m.accountId}`, Billing.createAccount(input), (a) => `${a.accountId} ${a.accountNumber}`, options)
  if (Option.isSome(opened)) m.subAccounts.push({ accountId: opened.value.accountId, accountNumber: opened.value.accountNumber, document })
})

/** One split part to a seller for a charge of `amountCents` (a percentage alone when the amount is not known yet), or none. */
export const splitFor = (w: Workload, m: Merchant, amountCents: number | undefined) => {
  if (m.subAccounts.length === 0 || !Random.chance(w.random, 0.3)) return undefined
  const seller = Random.pick(w.random, m.subAccounts)
  // A fixed part stays under a third of the amount, clear of any fee the owner pays out of it.
  const fixed = amountCents !== undefined && amountCents >= 300 && Random.chance(w.random, 0.5)
  return fixed
    ? [{ type: "fixed" as const, amount: Random.int(w.random, 100, Math.floor(amountCents / 3)) / 100, accountNumber: seller.accountNumber }]
    : [{ type: "percentage" as const, amount: Random.int(w.random, 5, 40), accountNumber: seller.accountNumber }]
}

/** How a step line names a split: its receiver and part. */
export const splitNote = (split: ReturnType<typeof splitFor>) =>
  split === undefined ? "" : ` split=${split.map((p) => `${p.accountNumber}:${p.type === "fixed" ? p.amount : `${p.amount}%`}`).join(",")}`
