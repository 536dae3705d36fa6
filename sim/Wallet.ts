/**
 * Money going out of a wallet: a sandbox merchant, or one of its sellers,
 * withdraws to its own key or sends a Pix to a third party's, for an amount
 * within what it has (fee included), or beyond it (refused:
 * `INSUFFICIENT_BALANCE`). The worker's billing run pays them out. A
 * production account sends nothing: the simulated PSPs take no payouts.
 */
import { Billing, WithdrawRequest } from "@billing/core"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import * as Random from "./Random.ts"
import { step } from "./Steps.ts"
import { decode, type Merchant, type Workload } from "./Workload.ts"

/** The sandbox's fee of a Pix sent (`rules/Fees`' default), which the balance must also cover. */
const SEND_FEE = 47

/** CPFs of third parties, none of them a simulated account's, that the sandbox DICT answers for. */
const THIRD_PARTY_KEYS = ["52998224725", "12345678909"] as const

interface Holder {
  readonly accountId: string
  readonly label: string
  readonly key: string
  readonly keyType: "CPF" | "CNPJ"
}

/** Who sends: the merchant itself or one of its sellers. */
const holderOf = (w: Workload, m: Merchant): Holder => {
  const seller = m.subAccounts.length > 0 && Random.chance(w.random, 0.4) ? Random.pick(w.random, m.subAccounts) : undefined
  return seller === undefined
    ? { accountId: m.accountId, label: m.accountId, key: m.document, keyType: "CNPJ" }
    : { accountId: seller.accountId, label: seller.accountId, key: seller.document, keyType: "CPF" }
}

const availableOf = Effect.fn("Wallet.availableOf")(function*(accountId: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ cents: string }>`
    SELECT balance_cents::text AS cents FROM ledger_balances WHERE holder = ${accountId} AND book = 'AVAILABLE'`.pipe(Effect.orDie)
  return rows.length === 0 ? 0 : Number(rows[0]!.cents)
})

/** An amount the balance covers with the fee (none when it covers nothing), or one beyond it. */
const drawAmount = (w: Workload, available: number): { readonly amount: number; readonly within: boolean } | undefined => {
  if (Random.chance(w.random, 0.7)) {
    return available - SEND_FEE >= 100 ? { amount: Random.int(w.random, 100, available - SEND_FEE), within: true } : undefined
  }
  return { amount: Math.max(1, available - SEND_FEE) + Random.int(w.random, 1, 5_000), within: false }
}

const send = Effect.fn("Wallet.send")(function*(w: Workload, m: Merchant, kind: "withdraw" | "transfer") {
  if (!m.sandbox) return void w.log.lines.push(`${kind}: ${m.accountId} is a production account, whose PSPs take no payout here`)
  const holder = holderOf(w, m)
  const available = yield* availableOf(holder.accountId)
  const drawn = drawAmount(w, available)
  if (drawn === undefined) return void w.log.lines.push(`${kind}: ${holder.label} has ${available}, too little`)
  const body = { amount: drawn.amount / 100, ...(kind === "withdraw" ? ownKey(holder) : thirdPartyKey(Random.pick(w.random, THIRD_PARTY_KEYS))) }
  const use = kind === "withdraw" ? Billing.withdraw : Billing.pixTransfer
  yield* step(w.log, `${kind} ${drawn.amount} of ${holder.label} (available ${available}, ${drawn.within ? "within" : "beyond"}) to ${body.pixKey}`,
    Effect.flatMap(decode(WithdrawRequest, body), use).pipe(Billing.asAccount(holder.accountId)), (r) => `${r.withdrawalId} ${r.status}`)
})

const ownKey = (holder: Holder) => ({ pixKey: holder.key, pixKeyType: holder.keyType })

const thirdPartyKey = (key: string) => ({ pixKey: key, pixKeyType: "CPF" })

/** A withdrawal to the holder's own key (`POST /v1/wallet/withdraw`). */
export const withdraw = (w: Workload, m: Merchant) => send(w, m, "withdraw")

/** A Pix to a third party's key (`POST /v1/wallet/pix-transfer`). */
export const transfer = (w: Workload, m: Merchant) => send(w, m, "transfer")
