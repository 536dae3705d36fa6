/**
 * The wallet on its double-entry ledger, through real HTTP on PostgreSQL:
 * payments credit the ledger (gross, fee, split), the balance and the
 * statement read it, withdrawals debit it under the balance's lock, and the
 * database itself refuses what would break the books. Expected amounts are
 * worked out by hand in the comments.
 */
import { Billing } from "@billing/core"
import { chargesPass } from "@billing/worker"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startEngine, type TestEngine } from "./support/Engine.ts"

/** The message PostgreSQL gave, at the end of the error's cause chain. */
const databaseMessage = (error: unknown): string => {
  let e = error as { cause?: unknown; message?: string }
  while (e.cause !== undefined && e.cause !== null) e = e.cause as typeof e
  return String(e.message)
}

describe("wallet ledger on postgres", () => {
  let engine: TestEngine
  const sql = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) => engine.run(Effect.flatMap(SqlClient.SqlClient, f))

  /** A sandbox master (CNPJ 11444777000161 unless `document` says otherwise) and what a test does with it. */
  const merchant = async (document = "11444777000161") => {
    const account = await engine.createAccount({ document })
    const token = await engine.token(account)
    const call = async (method: string, path: string, body?: unknown, extra: Record<string, string> = {}) => {
      const response = await fetch(`${engine.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...extra },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
      return { status: response.status, body: await response.json() }
    }
    /** A Pix charge of `amount` reais, paid through the sandbox; its id. */
    const receive = async (amount: number, extra: Record<string, unknown> = {}) => {
      const created = await call("POST", "/v1/charges/pix", { amount, ...extra })
      expect(created.status, JSON.stringify(created.body)).toBe(200)
      expect((await call("POST", `/v1/wallet/pay/${created.body.chargeId}`)).status).toBe(200)
      await engine.run(chargesPass())
      return created.body.chargeId as string
    }
    const balance = async (query = "") => (await call("GET", `/v1/wallet/balance${query}`)).body
    return { account, call, receive, balance }
  }

  beforeAll(async () => {
    engine = await startEngine("postgres")
  })
  afterAll(() => engine?.dispose())

  it("credits a paid Pix charge: gross in, fee out, split part to the receiver; the statement shows each line with its balance after", async () => {
    const { account, call, receive, balance } = await merchant()
    const seller = await engine.createAccount({ name: "Vendedor", document: "52998224725", parentId: account.accountId })
    // Pix fee of 0.50 + 0.99%: on 100.00 that is 0.50 + 0.99 = 1.49; net 98.51; the seller's 10% of the net is 9.851 → 9.85 (rounded down).
    await sql((s) => s`INSERT INTO account_fees (account_id, payment_method, fixed_cents, percent_hundredths) VALUES (${account.accountId}, 'pix', 50, 99)`)
    const chargeId = await receive(100, { split: [{ type: "percentage", amount: 10, accountNumber: seller.accountNumber }] })

    // 100.00 − 1.49 − 9.85 = 88.66 stays with the master.
    expect(await balance()).toEqual({
      accountNumber: account.accountNumber,
      name: expect.any(String),
      availableBalance: 88.66,
      pendingBalance: 0,
      retainedBalance: 0,
      totalBalance: 88.66
    })
    expect((await balance(`?accountId=${seller.accountNumber}`)).availableBalance).toBe(9.85)

    const statement = await call("GET", "/v1/wallet/transactions")
    expect(statement.status).toBe(200)
    expect(statement.body).toMatchObject({ accountId: account.accountNumber, hasMore: false, nextPageToken: null })
    // Newest first: split out, fee, payment in.
    expect(statement.body.transactions.map((t: any) => [t.type, t.category, t.amount, t.balanceAfter])).toEqual([
      ["DEBIT", "TRANSFER", 9.85, 88.66],
      ["DEBIT", "FEE", 1.49, 98.51],
      ["CREDIT", "PAYMENT", 100, 100]
    ])
    const credit = statement.body.transactions[2]
    expect(credit).toMatchObject({ paymentMethod: "PIX", chargeId, subscriptionId: null, title: "Pagamento recebido" })
    expect(credit.transactionId).toMatch(/^SANDBOX_txn_/)
    expect(credit.endToEndId).toMatch(/^E\d{8}/)
    expect(credit.counterparty).toMatchObject({ name: "Pagador Sandbox", taxId: "52998224725" })

    const sellerLines = await call("GET", `/v1/wallet/transactions?accountId=${seller.accountNumber}`)
    expect(sellerLines.body.transactions.map((t: any) => [t.type, t.category, t.amount, t.balanceAfter])).toEqual([["CREDIT", "TRANSFER", 9.85, 9.85]])

    // The merchant's note on a line (the provider's PATCH), kept beside the line.
    const noted = await call("PATCH", `/v1/wallet/transactions/${credit.transactionId}`, { note: "pedido 42" })
    expect(noted.status).toBe(200)
    expect(noted.body).toMatchObject({ transactionId: credit.transactionId, note: "pedido 42", amount: 100 })
    expect((await call("PATCH", `/v1/wallet/transactions/SANDBOX_txn_nothing`, { note: "x" })).status).toBe(404)
  })

  it("pages the statement by token and filters by type, category and date", async () => {
    const { call, receive } = await merchant()
    for (const amount of [1, 2, 3, 4, 5]) await receive(amount)
    const first = await call("GET", "/v1/wallet/transactions?limit=2")
    expect(first.body.transactions.map((t: any) => t.amount)).toEqual([5, 4])
    expect(first.body.hasMore).toBe(true)
    const second = await call("GET", `/v1/wallet/transactions?limit=2&nextPageToken=${first.body.nextPageToken}`)
    expect(second.body.transactions.map((t: any) => t.amount)).toEqual([3, 2])
    const third = await call("GET", `/v1/wallet/transactions?limit=2&nextPageToken=${second.body.nextPageToken}`)
    expect(third.body).toMatchObject({ hasMore: false, nextPageToken: null })
    expect(third.body.transactions.map((t: any) => [t.amount, t.balanceAfter])).toEqual([[1, 1]])

    expect((await call("GET", "/v1/wallet/transactions?type=DEBIT")).body.transactions).toEqual([])
    expect((await call("GET", "/v1/wallet/transactions?category=PAYMENT")).body.transactions).toHaveLength(5)
    expect((await call("GET", "/v1/wallet/transactions?dateTo=2000-01-01")).body.transactions).toEqual([])
    for (const bad of ["limit=0", "limit=101", "nextPageToken=bm9wZQ", "category=SALARY", "type=BOTH", "dateFrom=yesterday"]) {
      const refused = await call("GET", `/v1/wallet/transactions?${bad}`)
      expect(refused.status, bad).toBe(400)
      expect(refused.body.error.code, bad).toBe("INVALID_DATA")
    }
  })

  it("answers OWNERSHIP_MISMATCH 401 for another master's sub-account and NOT_FOUND for an unknown one; reads several balances at once", async () => {
    const { account, call } = await merchant()
    const mine = await engine.createAccount({ name: "Minha", document: "52998224725", parentId: account.accountId })
    const other = await merchant("11222333000181")
    const theirs = await engine.createAccount({ name: "Alheia", document: "11144477735", parentId: other.account.accountId })
    await other.receive(7)

    const foreign = await call("GET", `/v1/wallet/balance?accountId=${theirs.accountNumber}`)
    expect(foreign.status).toBe(401)
    expect(foreign.body.error).toMatchObject({ code: "OWNERSHIP_MISMATCH", message: "Subconta nao pertence a esta conta" })
    expect((await call("GET", `/v1/wallet/transactions?accountId=${other.account.accountNumber}`)).status).toBe(401)
    const unknown = await call("GET", "/v1/wallet/balance?accountId=000000000")
    expect(unknown.status).toBe(404)
    expect(unknown.body.error.code).toBe("NOT_FOUND")

    const several = await call("GET", "/v1/wallet/balance", undefined, { accountId: `${account.accountNumber}, ${mine.accountNumber}` })
    expect(several.status).toBe(200)
    expect(several.body).toEqual({
      masterAccountId: account.accountNumber,
      balances: [
        expect.objectContaining({ accountNumber: account.accountNumber, balance: 0, availableBalance: 0 }),
        expect.objectContaining({ accountNumber: mine.accountNumber, name: "Minha", balance: 0 })
      ]
    })
    expect((await call("GET", "/v1/wallet/balance", undefined, { accountId: theirs.accountNumber })).status).toBe(401)
  })

  it("withdraws to the holder's own key: fee 0.47, PROCESSING, then paid out by the worker; a refused payout returns amount and fee", async () => {
    const { account, call, receive, balance } = await merchant()
    await receive(50)
    const refusals: Array<[Record<string, unknown>, number, string]> = [
      [{ amount: 10, pixKey: "52998224725", pixKeyType: "CPF" }, 400, "OWNERSHIP_MISMATCH"],
      [{ amount: 10, pixKey: "11444777000161", pixKeyType: "CPF" }, 400, "INVALID_DATA"],
      [{ amount: 10, pixKey: "not-an-evp", pixKeyType: "EVP" }, 400, "INVALID_DATA"],
      [{ amount: 10, pixKey: "11444777000161", pixKeyType: "CNPJ", documentNumber: "11222333000181" }, 400, "OWNERSHIP_MISMATCH"],
      [{ amount: 49.54, pixKey: "11444777000161", pixKeyType: "CNPJ" }, 400, "INSUFFICIENT_BALANCE"],
      [{ amount: 0, pixKey: "11444777000161", pixKeyType: "CNPJ" }, 400, "INVALID_DATA"]
    ]
    for (const [body, status, code] of refusals) {
      const refused = await call("POST", "/v1/wallet/withdraw", body)
      expect([refused.status, refused.body.error?.code], JSON.stringify(body)).toEqual([status, code])
    }
    expect((await balance()).availableBalance).toBe(50)

    // 49.53 + 0.47 = 50.00: exactly the balance.
    const sent = await call("POST", "/v1/wallet/withdraw", { amount: 49.53, pixKey: "11.444.777/0001-61", pixKeyType: "CNPJ" })
    expect(sent.status).toBe(200)
    expect(sent.body).toMatchObject({ status: "PROCESSING", amount: 49.53, fee: 0.47, accountNumber: account.accountNumber, pixKey: "11444777000161" })
    expect(sent.body.withdrawalId).toMatch(/^SANDBOX_wdr_/)
    expect((await balance()).availableBalance).toBe(0)

    await engine.run(Billing.payOutWithdrawals(10))
    const listed = await call("GET", "/v1/wallet/withdrawals")
    expect(listed.body.items).toEqual([expect.objectContaining({ withdrawalId: sent.body.withdrawalId, status: "COMPLETED", endToEndId: expect.stringMatching(/^E99999999/) })])
    expect(listed.body.pagination).toEqual({ total: 1, limit: 50, hasMore: false, lastKey: null })

    // A key the sandbox refuses (an e-mail of the holder on falha.sandbox): the money comes back.
    await receive(20)
    const doomed = await call("POST", "/v1/wallet/withdraw", { amount: 10, pixKey: "11444777000161@falha.sandbox", pixKeyType: "EMAIL" })
    expect(doomed.status).toBe(200)
    expect((await balance()).availableBalance).toBe(9.53)
    await engine.run(Billing.payOutWithdrawals(10))
    expect((await call("GET", "/v1/wallet/withdrawals")).body.items[0]).toMatchObject({ status: "FAILED", failureReason: expect.any(String) })
    expect((await balance()).availableBalance).toBe(20)
    const lines = (await call("GET", "/v1/wallet/transactions")).body.transactions
    expect(lines.slice(0, 4).map((t: any) => [t.type, t.category, t.amount, t.balanceAfter])).toEqual([
      ["CREDIT", "FEE", 0.47, 20],
      ["CREDIT", "WITHDRAWAL", 10, 19.53],
      ["DEBIT", "FEE", 0.47, 9.53],
      ["DEBIT", "WITHDRAWAL", 10, 10]
    ])
  })

  it("holds the daily limit per São Paulo day and the account's own limits", async () => {
    const { account, call, receive } = await merchant()
    await sql((s) => s`INSERT INTO wallet_limits (account_id, daily_transfer_limit_cents, transfer_fee_cents) VALUES (${account.accountId}, 1000, 0)`)
    await receive(30)
    const key = { pixKey: "11444777000161", pixKeyType: "CNPJ" }
    expect((await call("POST", "/v1/wallet/withdraw", { amount: 6, ...key })).body.fee).toBe(0)
    const over = await call("POST", "/v1/wallet/withdraw", { amount: 4.01, ...key })
    expect([over.status, over.body.error.code]).toEqual([400, "DAILY_LIMIT_EXCEEDED"])
    expect((await call("POST", "/v1/wallet/withdraw", { amount: 4, ...key })).status).toBe(200)
  })

  it("lets exactly 10 of 50 concurrent withdrawals through when the balance covers 10", async () => {
    const { call, receive, balance } = await merchant()
    // 10 × (1.00 + 0.47) = 14.70.
    await receive(14.7)
    const answers = await Promise.all(Array.from({ length: 50 }, () =>
      call("POST", "/v1/wallet/withdraw", { amount: 1, pixKey: "11444777000161", pixKeyType: "CNPJ" })))
    expect(answers.filter((a) => a.status === 200)).toHaveLength(10)
    expect(answers.filter((a) => a.status === 400 && a.body.error.code === "INSUFFICIENT_BALANCE")).toHaveLength(40)
    expect((await balance()).availableBalance).toBe(0)
  })

  it("keeps a card payment pending until each installment's day, then makes it available", async () => {
    const { call, balance } = await merchant()
    // 3 installments of 100.00 with no fee: 33.34, 33.33, 33.33, due 30, 60 and 90 days after payment.
    const paid = await call("POST", "/v1/charges", {
      paymentMethod: "creditcard",
      amount: 100,
      installments: 3,
      customer: { name: "Ana Souza", email: "ana@example.com", documentNumber: "52998224725", phone: "+5511987654321" },
      card: { number: "4111111111111111", cvv: "123", name: "ANA SOUZA", expiration: "12/2030" }
    })
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    expect(await balance()).toMatchObject({ availableBalance: 0, pendingBalance: 100, totalBalance: 100 })
    const due = await sql((s) => s<{ amount: string; day: string }>`SELECT amount_cents::text AS amount, to_char(settles_on, 'YYYY-MM-DD') AS day
      FROM receivables WHERE charge_id = ${paid.body.chargeId} ORDER BY installment`)
    expect(due.map((r) => Number(r.amount))).toEqual([3334, 3333, 3333])
    // Moving the first installment's day into the past makes it due now.
    await sql((s) => s`UPDATE receivables SET settles_on = '2000-01-03' WHERE charge_id = ${paid.body.chargeId} AND installment = 1`)
    await engine.run(Billing.settleDueReceivables(10))
    expect(await balance()).toMatchObject({ availableBalance: 33.34, pendingBalance: 66.66, totalBalance: 100 })
    const line = (await call("GET", "/v1/wallet/transactions")).body.transactions[0]
    expect(line).toMatchObject({ type: "CREDIT", category: "CARD_IN", amount: 33.34, balanceAfter: 33.34, chargeId: paid.body.chargeId })
  })

  it("refuses, in the database, an entry that does not balance, a change to a line, a balance below zero, a balance moved by hand and a payment posted twice", async () => {
    const { account, receive } = await merchant()
    const chargeId = await receive(5)
    const attempt = (statement: (s: SqlClient.SqlClient) => Effect.Effect<unknown, unknown>) =>
      sql((s) => s.withTransaction(statement(s)).pipe(Effect.as("accepted"), Effect.catch((e) => Effect.succeed(databaseMessage(e)))))
    const line = (s: SqlClient.SqlClient, id: string, entry: string, holder: string, book: string, amount: number) =>
      s`INSERT INTO ledger_lines (id, entry_id, holder, book, amount_cents, category, title, created_at)
        VALUES (${id}, ${entry}, ${holder}, ${book}, ${amount}, 'TRANSFER', 'teste', now())`
    const entry = (s: SqlClient.SqlClient, id: string, kind = "PAYMENT") =>
      s`INSERT INTO ledger_entries (id, kind, reference_id, created_at) VALUES (${id}, ${kind}, ${id}, now())`

    expect(await attempt((s) => Effect.andThen(entry(s, "jrn_a"), s`INSERT INTO ledger_lines (id, entry_id, holder, book, amount_cents, category, title, created_at)
      VALUES ('txn_a1', 'jrn_a', ${account.accountId}, 'AVAILABLE', 100, 'TRANSFER', 't', now()), ('txn_a2', 'jrn_a', 'HOUSE', 'CLEARING', -99, 'TRANSFER', 't', now())`)))
      .toMatch(/does not balance/)
    // Lines of one entry in two statements: the first is already unbalanced.
    expect(await attempt((s) => Effect.andThen(entry(s, "jrn_b"), Effect.andThen(line(s, "txn_b1", "jrn_b", account.accountId, "AVAILABLE", 100), line(s, "txn_b2", "jrn_b", "HOUSE", "CLEARING", -100)))))
      .toMatch(/does not balance/)
    // Taking 5.01 out of a balance of 5.00.
    expect(await attempt((s) => Effect.andThen(entry(s, "jrn_c"), s`INSERT INTO ledger_lines (id, entry_id, holder, book, amount_cents, category, title, created_at)
      VALUES ('txn_c1', 'jrn_c', ${account.accountId}, 'AVAILABLE', -501, 'TRANSFER', 't', now()), ('txn_c2', 'jrn_c', 'HOUSE', 'CLEARING', 501, 'TRANSFER', 't', now())`)))
      .toMatch(/ledger_balances_balance_cents_check/)
    expect(await attempt((s) => s`UPDATE ledger_lines SET amount_cents = amount_cents * 2 WHERE holder = ${account.accountId}`)).toMatch(/append-only/)
    expect(await attempt((s) => s`DELETE FROM ledger_lines WHERE holder = ${account.accountId}`)).toMatch(/append-only/)
    expect(await attempt((s) => s`DELETE FROM ledger_entries WHERE reference_id = ${chargeId}`)).toMatch(/append-only/)
    expect(await attempt((s) => s`UPDATE ledger_balances SET balance_cents = 1000000 WHERE holder = ${account.accountId}`)).toMatch(/move only with ledger lines/)
    expect(await attempt((s) => s`INSERT INTO ledger_entries (id, kind, reference_id, created_at) VALUES ('jrn_d', 'PAYMENT', ${chargeId}, now())`))
      .toMatch(/ledger_entries_kind_reference_id_key/)
    // A house line must not carry a balance, an account line must not name a house book.
    expect(await attempt((s) => Effect.andThen(entry(s, "jrn_e"), s`INSERT INTO ledger_lines (id, entry_id, holder, book, amount_cents, category, title, created_at)
      VALUES ('txn_e1', 'jrn_e', ${account.accountId}, 'FEES', 1, 'FEE', 't', now()), ('txn_e2', 'jrn_e', 'HOUSE', 'CLEARING', -1, 'FEE', 't', now())`)))
      .toMatch(/check constraint/)

    // Every entry in the database balances, and the balance is the sum of the lines.
    const unbalanced = await sql((s) => s`SELECT entry_id FROM ledger_lines GROUP BY entry_id HAVING sum(amount_cents) <> 0`)
    expect(unbalanced).toEqual([])
    const drift = await sql((s) => s`SELECT b.holder FROM ledger_balances b
      JOIN (SELECT holder, book, sum(amount_cents) AS total FROM ledger_lines WHERE holder <> 'HOUSE' GROUP BY holder, book) l
      ON l.holder = b.holder AND l.book = b.book WHERE l.total <> b.balance_cents`)
    expect(drift).toEqual([])
  })
})
