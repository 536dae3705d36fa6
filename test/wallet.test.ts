/**
 * The wallet on its double-entry ledger, through real HTTP on PostgreSQL:
 * payments credit the ledger (gross, fee, split), the balance and the
 * statement read it, withdrawals debit it under the balance's lock, and the
 * database itself refuses what would break the books. Expected amounts are
 * worked out by hand in the comments.
 */
import { Accounts, Billing, cents, PixProvider } from "@billing/core"
import { chargesPass } from "@billing/worker"
import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { apiCaller } from "./support/Api.ts"
import { cardExpiration } from "./support/Cards.ts"
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
    const call = apiCaller(engine.baseUrl, token)
    /** A Pix charge of `amount` reais, paid through the sandbox; its id. */
    const receive = async (amount: number, extra: Record<string, unknown> = {}) => {
      const created = await call("POST", "/v1/charges/pix", { amount, ...extra })
      expect(created.status, JSON.stringify(created.body)).toBe(200)
      expect((await call("POST", `/v1/wallet/pay/${created.body.chargeId}`)).status).toBe(200)
      await engine.run(chargesPass())
      return created.body.chargeId as string
    }
    const balance = async (query = "") => (await call("GET", `/v1/wallet/balance${query}`)).body
    /** A card charge of `amount` reais in `installments`, approved by the sandbox card table; its id. */
    const payByCard = async (amount: number, installments = 1) => {
      const paid = await call("POST", "/v1/charges", {
        paymentMethod: "creditcard",
        amount,
        installments,
        customer: { name: "Ana Souza", email: "ana@example.com", documentNumber: "52998224725", phone: "+5511987654321" },
        card: { number: "4111111111111111", cvv: "123", name: "ANA SOUZA", expiration: cardExpiration() }
      })
      expect(paid.status, JSON.stringify(paid.body)).toBe(200)
      return paid.body.chargeId as string
    }
    return { account, call, receive, balance, payByCard }
  }

  beforeAll(async () => {
    engine = await startEngine("postgres")
  })
  afterAll(() => engine?.dispose())

  // First: every test after this one runs the worker's jobs for all accounts while one account has a test clock.
  it("runs the worker's jobs for every other account while one sandbox account has a test clock", async () => {
    const clocked = await merchant("11222333000181")
    expect((await clocked.call("POST", "/v1/sandbox/clock/advance", { days: 0 })).status).toBe(200)
    const { call, receive, balance } = await merchant()
    const chargeId = await receive(10)
    expect((await balance()).availableBalance).toBe(10)
    expect((await call("POST", "/v1/wallet/withdraw", { amount: 1, pixKey: "11444777000161", pixKeyType: "CNPJ" })).status).toBe(200)
    await engine.run(Billing.payOutWithdrawals(1000))
    expect((await call("GET", "/v1/wallet/withdrawals")).body.items[0].status).toBe("COMPLETED")
    const endToEndId = (await call("GET", `/v1/charges/${chargeId}?view=detail`)).body.pix.endToEndId as string
    const refund = (await call("POST", "/v1/wallet/refunds", { endToEndId, amount: 1, reason: "FRAUD" })).body
    await engine.run(Billing.completeRefunds(1000))
    expect((await call("GET", `/v1/wallet/refunds?refundId=${refund.refundId}`)).body.status).toBe("CONFIRMED")
  })

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
      totalBalance: 88.66,
      debtBalance: 0
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

  it("adds up two split parts of one receiver: one refund share", async () => {
    const { account, call, receive, balance } = await merchant()
    const seller = await engine.createAccount({ name: "Vendedor", document: "52998224725", parentId: account.accountId })
    // 100.00, no fee: 10% and 5.00 to the seller, 15.00 in all.
    const chargeId = await receive(100, { split: [{ type: "percentage", amount: 10, accountNumber: seller.accountNumber }, { type: "fixed", amount: 5, accountNumber: seller.accountNumber }] })
    expect(await balance(`?accountId=${seller.accountNumber}`)).toMatchObject({ availableBalance: 15 })
    // Refunding half: the seller returns 7.50, half of its 15.00, as one reversal.
    const endToEndId = (await call("GET", `/v1/charges/${chargeId}?view=detail`)).body.pix.endToEndId as string
    const refund = await call("POST", "/v1/wallet/refunds", { endToEndId, amount: 50, reason: "CUSTOMER_REQUEST" })
    expect(refund.body).toMatchObject({ splitReversals: [{ accountNumber: seller.accountNumber, amount: 7.5, status: "REVERSED" }] })
    expect(await balance(`?accountId=${seller.accountNumber}`)).toMatchObject({ availableBalance: 7.5, debtBalance: 0 })
    expect(await balance()).toMatchObject({ availableBalance: 42.5 })
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
      // Another holder's key: the provider's code, with the spec's 403 (not the provider's 400).
      [{ amount: 10, pixKey: "52998224725", pixKeyType: "CPF" }, 403, "OWNERSHIP_MISMATCH"],
      [{ amount: 10, pixKey: "11444777000161", pixKeyType: "CPF" }, 400, "INVALID_DATA"],
      [{ amount: 10, pixKey: "not-an-evp", pixKeyType: "EVP" }, 400, "INVALID_DATA"],
      [{ amount: 10, pixKey: "11444777000161", pixKeyType: "CNPJ", documentNumber: "11222333000181" }, 403, "OWNERSHIP_MISMATCH"],
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

    await engine.run(Billing.payOutWithdrawals(1000))
    const listed = await call("GET", "/v1/wallet/withdrawals")
    expect(listed.body.items).toEqual([expect.objectContaining({ withdrawalId: sent.body.withdrawalId, status: "COMPLETED", endToEndId: expect.stringMatching(/^E99999999/) })])
    expect(listed.body.pagination).toEqual({ total: 1, limit: 50, hasMore: false, lastKey: null })

    // A key the sandbox refuses (an e-mail of the holder on falha.sandbox): the money comes back.
    await receive(20)
    const doomed = await call("POST", "/v1/wallet/withdraw", { amount: 10, pixKey: "11444777000161@falha.sandbox", pixKeyType: "EMAIL" })
    expect(doomed.status).toBe(200)
    expect((await balance()).availableBalance).toBe(9.53)
    await engine.run(Billing.payOutWithdrawals(1000))
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

  it("looks keys up in the sandbox DICT and sends a Pix to a third party's key, under the same fee and limit", async () => {
    const { call, receive, balance } = await merchant()
    await receive(20)
    const found = await call("POST", "/v1/wallet/dict", { pixKey: "529.982.247-25", pixKeyType: "CPF" })
    expect(found.body).toEqual({ pixKey: "52998224725", pixKeyType: "CPF", name: "Titular 52998224725", document: "***.982.247-**", bank: "99999999" })
    const unknown = await call("POST", "/v1/wallet/dict", { pixKey: "123e4567-e89b-42d3-a456-426614174000", pixKeyType: "EVP" })
    expect([unknown.status, unknown.body.error.code]).toEqual([404, "PIX_KEY_NOT_FOUND"])
    expect((await call("POST", "/v1/wallet/pix-transfer", { amount: 1, pixKey: "123e4567-e89b-42d3-a456-426614174000", pixKeyType: "EVP" })).status).toBe(404)

    const sent = await call("POST", "/v1/wallet/pix-transfer", { amount: 5, pixKey: "52998224725", pixKeyType: "CPF", description: "fornecedor" })
    expect(sent.status, JSON.stringify(sent.body)).toBe(200)
    expect(sent.body).toMatchObject({
      type: "PIX_TRANSFER",
      status: "PROCESSING",
      amount: 5,
      fee: 0.47,
      description: "fornecedor",
      receiver: { name: "Titular 52998224725", taxId: "52998224725", bank: "99999999" }
    })
    expect(sent.body.withdrawalId).toMatch(/^SANDBOX_trf_/)
    // 20.00 − 5.00 − 0.47.
    expect((await balance()).availableBalance).toBe(14.53)
    const [fee, out] = (await call("GET", "/v1/wallet/transactions")).body.transactions
    expect([out.category, out.amount, out.counterparty?.taxId, fee.category, fee.amount]).toEqual(["PIX_OUT", 5, "52998224725", "FEE", 0.47])
    await engine.run(Billing.payOutWithdrawals(1000))
    expect((await call("GET", "/v1/wallet/withdrawals")).body.items[0]).toMatchObject({ type: "PIX_TRANSFER", status: "COMPLETED" })
    const tooMuch = await call("POST", "/v1/wallet/pix-transfer", { amount: 14.07, pixKey: "52998224725", pixKeyType: "CPF" })
    expect([tooMuch.status, tooMuch.body.error.code]).toEqual([400, "INSUFFICIENT_BALANCE"])
  })

  it("claims a Pix key by portability: open, completed by the key's institution (then a withdrawal key of the holder) or canceled", async () => {
    const { call, receive } = await merchant()
    const foreignKey = "financeiro@lojaexemplo.com.br"
    // Not the holder's yet: a withdrawal to it is refused.
    await receive(10)
    expect((await call("POST", "/v1/wallet/withdraw", { amount: 1, pixKey: foreignKey, pixKeyType: "EMAIL" })).body.error.code).toBe("OWNERSHIP_MISMATCH")
    const claimed = await call("POST", "/v1/wallet/pix-claims", { pixKey: "Financeiro@LojaExemplo.com.br", pixKeyType: "EMAIL" })
    expect(claimed.status, JSON.stringify(claimed.body)).toBe(201)
    expect(claimed.body).toMatchObject({ status: "OPEN", pixKey: foreignKey, pixKeyType: "EMAIL" })
    expect(claimed.body.claimId).toMatch(/^SANDBOX_clm_/)
    // The DICT gives the institution 7 days.
    expect(Date.parse(claimed.body.resolutionDeadline) - Date.parse(claimed.body.createdAt)).toBe(7 * 86_400_000)
    const twice = await call("POST", "/v1/wallet/pix-claims", { pixKey: foreignKey, pixKeyType: "EMAIL" })
    expect([twice.status, twice.body.error.code]).toEqual([400, "PIX_CLAIM_IN_PROGRESS"])
    for (const [body, status, code] of [
      [{ pixKey: "123e4567-e89b-42d3-a456-426614174000", pixKeyType: "EVP" }, 400, "INVALID_DATA"],
      [{ pixKey: "52998224725", pixKeyType: "CPF" }, 403, "OWNERSHIP_MISMATCH"]
    ] as const) {
      const refused = await call("POST", "/v1/wallet/pix-claims", body)
      expect([refused.status, refused.body.error.code]).toEqual([status, code])
    }

    const completed = await call("POST", `/v1/sandbox/pix-claims/${claimed.body.claimId}/complete`)
    expect(completed.body).toMatchObject({ claimId: claimed.body.claimId, status: "COMPLETED" })
    expect((await call("POST", "/v1/wallet/withdraw", { amount: 1, pixKey: foreignKey, pixKeyType: "EMAIL" })).status).toBe(200)
    expect((await call("POST", `/v1/wallet/pix-claims/${claimed.body.claimId}/cancel`)).body.error.code).toBe("PIX_CLAIM_CLOSED")

    const other = (await call("POST", "/v1/wallet/pix-claims", { pixKey: "+5511987654321", pixKeyType: "PHONE" })).body
    expect((await call("POST", `/v1/wallet/pix-claims/${other.claimId}/cancel`)).body).toMatchObject({ status: "CANCELED" })
    expect((await call("GET", `/v1/wallet/pix-claims/${other.claimId}`)).body).toMatchObject({ status: "CANCELED", pixKey: "+5511987654321" })
    expect((await call("GET", "/v1/wallet/pix-claims")).body.items.map((c: any) => c.status)).toEqual(["CANCELED", "COMPLETED"])
    expect((await call("GET", "/v1/wallet/pix-claims/SANDBOX_clm_nothing")).status).toBe(404)
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

  it("confirms two workers' batches of sandbox payments that credit the same two merchants in opposite orders, without a deadlock", async () => {
    const first = await merchant("11222333000181")
    const second = await merchant()
    const requested = async (m: Awaited<ReturnType<typeof merchant>>, n: number) => {
      for (let i = 0; i < n; i++) {
        const created = await m.call("POST", "/v1/charges/pix", { amount: 1 })
        expect((await m.call("POST", `/v1/wallet/pay/${created.body.chargeId}`)).status).toBe(200)
      }
    }
    // Requested in this order, the first batch of 40 credits the second merchant, then the first; the next batch the other way round.
    await requested(second, 20)
    await requested(first, 40)
    await requested(second, 20)
    const [a, b] = await Promise.all([engine.run(Billing.confirmSandboxPayments(40)), engine.run(Billing.confirmSandboxPayments(40))])
    expect(a + b).toBe(80)
    expect((await first.balance()).availableBalance).toBe(40)
    expect((await second.balance()).availableBalance).toBe(40)
  })

  it("answers a payout asked twice (a worker retrying) with the first one, on the sandbox PSP's statement once", async () => {
    const { account } = await merchant()
    const ask = (at: string) =>
      engine.run(Effect.gen(function*() {
        const holder = Option.getOrThrow(yield* (yield* Accounts).findById(account.accountId))
        return yield* (yield* PixProvider).payOut({
          account: holder,
          reference: "SANDBOX_wdr_retried",
          amount: cents(1_000),
          key: { type: "CPF", value: "52998224725" },
          at: new Date(at)
        })
      }))
    const first = await ask("2026-11-20T15:00:00.000Z")
    const again = await ask("2026-11-20T15:07:00.000Z")
    expect(first._tag).toBe("Paid")
    expect(again).toEqual(first)
    const entries = await sql((s) => s<{ n: string }>`SELECT count(*)::text AS n FROM sandbox_psp_entries WHERE account_id = ${account.accountId}`)
    expect(entries[0]!.n).toBe("1")
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
    const { call, balance, payByCard } = await merchant()
    // 3 installments of 100.00 with no fee: 33.34, 33.33, 33.33, due 30, 60 and 90 days after payment.
    const chargeId = await payByCard(100, 3)
    expect(await balance()).toMatchObject({ availableBalance: 0, pendingBalance: 100, totalBalance: 100 })
    const due = await sql((s) => s<{ amount: string; day: string }>`SELECT amount_cents::text AS amount, to_char(settles_on, 'YYYY-MM-DD') AS day
      FROM receivables WHERE charge_id = ${chargeId} ORDER BY installment`)
    expect(due.map((r) => Number(r.amount))).toEqual([3334, 3333, 3333])
    // The provider's receivables routes: by day, and one day's.
    const byDay = (await call("GET", "/v1/wallet/receivables")).body
    expect(byDay).toMatchObject({ total: 100, days: due.map((r) => ({ date: r.day, amount: Number(r.amount) / 100, count: 1 })) })
    const firstDay = (await call("GET", `/v1/wallet/receivables-calendar/${due[0]!.day}`)).body
    expect(firstDay).toMatchObject({ date: due[0]!.day, total: 33.34, hasMore: false, items: [{ chargeId: chargeId, installment: 1, paymentMethod: "CREDIT_CARD", amount: 33.34 }] })
    for (const bad of ["receivables?dateFrom=2026-13-01", "receivables?dateFrom=2026-01-01&dateTo=2027-12-31", "receivables?dateFrom=9999-12-31", "receivables-calendar/amanha"]) {
      expect((await call("GET", `/v1/wallet/${bad}`)).body.error?.code, bad).toBe("INVALID_DATA")
    }
    // Moving the first installment's day into the past makes it due now.
    await sql((s) => s`UPDATE receivables SET settles_on = '2000-01-03' WHERE charge_id = ${chargeId} AND installment = 1`)
    await engine.run(Billing.settleDueReceivables(1000))
    expect(await balance()).toMatchObject({ availableBalance: 33.34, pendingBalance: 66.66, totalBalance: 100 })
    const line = (await call("GET", "/v1/wallet/transactions")).body.transactions[0]
    expect(line).toMatchObject({ type: "CREDIT", category: "CARD_IN", amount: 33.34, balanceAfter: 33.34, chargeId: chargeId })
  })

  it("refunds a Pix with split: receivers return their part in proportion, a debt for what one lacks, paid from its next credit; a refused return gives everything back", async () => {
    const { account, call, receive, balance } = await merchant()
    const seller = await engine.createAccount({ name: "Vendedor", document: "52998224725", parentId: account.accountId })
    const sellerKey = { pixKey: "52998224725", pixKeyType: "CPF", accountId: seller.accountNumber }
    // 100.00 with no fee, 40.00 to the seller: the master keeps 60.00.
    const chargeId = await receive(100, { split: [{ type: "fixed", amount: 40, accountNumber: seller.accountNumber }] })
    const endToEndId = (await call("GET", `/v1/charges/${chargeId}?view=detail`)).body.pix.endToEndId as string
    // The seller takes 30.00 out (fee 0.47): 9.53 left.
    expect((await call("POST", "/v1/wallet/withdraw", { amount: 30, ...sellerKey })).status).toBe(200)
    const events = async () =>
      (await sql((s) => s<{ event: string; body: string }>`SELECT event, body FROM outbox WHERE account_id = ${account.accountId} AND event LIKE 'refund.%' ORDER BY id`))
        .map((row) => JSON.parse(row.body))

    expect((await call("POST", "/v1/wallet/refunds", { endToEndId, amount: 10 })).body.error).toMatchObject({ code: "INVALID_DATA" })
    expect((await call("POST", "/v1/wallet/refunds", { reason: "FRAUD" })).body.error.code).toBe("MISSING_CHARGE_ID")
    expect((await call("POST", "/v1/wallet/refunds", { endToEndId: "E00000000202601010000aaaaaaaaaaa", reason: "FRAUD" })).status).toBe(404)

    // Refunding 50.00: the seller's part is 40 × 50/100 = 20.00; it has 9.53, so it owes 10.47; the master pays 30.00.
    const first = await call("POST", "/v1/wallet/refunds", { endToEndId, amount: 50, reason: "CUSTOMER_REQUEST" })
    expect(first.status, JSON.stringify(first.body)).toBe(201)
    expect(first.body).toMatchObject({ success: true, status: "PROCESSING", amount: 50, reason: "CUSTOMER_REQUEST", chargeId, endToEndId, returnIdentification: null })
    expect(first.body.refundId).toMatch(/^SANDBOX_ref_/)
    const [reversal] = first.body.splitReversals
    expect(reversal).toMatchObject({ accountNumber: seller.accountNumber, amount: 20, status: "PENDING" })
    expect(reversal.debtId).toMatch(/^SANDBOX_sdb_/)
    expect(await balance()).toMatchObject({ availableBalance: 30, debtBalance: 0 })
    expect(await balance(`?accountId=${seller.accountNumber}`)).toMatchObject({ availableBalance: 0, debtBalance: 10.47 })
    const [requested] = await events()
    expect(requested).toEqual({
      event: "refund.requested",
      timestamp: expect.any(String),
      accountId: account.accountId,
      refundId: first.body.refundId,
      chargeId,
      amount: 50,
      customer: { customerId: null, name: null, email: null, taxId: null, phone: null },
      status: "PROCESSING",
      endToEndId,
      reason: "CUSTOMER_REQUEST"
    })
    // What is left to refund is 50.00.
    const tooMuch = await call("POST", "/v1/wallet/refunds", { endToEndId, amount: 50.01, reason: "FRAUD" })
    expect([tooMuch.status, tooMuch.body.error.code, tooMuch.body.error.message]).toEqual([400, "REFUND_AMOUNT_EXCEEDED", "Valor do estorno excede o valor disponível para devolução"])

    await engine.run(Billing.completeRefunds(1000))
    const confirmed = (await call("GET", `/v1/wallet/refunds?refundId=${first.body.refundId}`)).body
    expect(confirmed).toMatchObject({ status: "CONFIRMED", success: true, returnIdentification: expect.stringMatching(/^D99999999/) })
    expect((await call("GET", `/v1/charges/${chargeId}`)).body.status).toBe("PARTIALLY_REFUNDED")
    expect((await events())[1]).toMatchObject({
      event: "refund.confirmed",
      status: "CONFIRMED",
      returnIdentification: confirmed.returnIdentification,
      splitReversals: [{ accountNumber: seller.accountNumber, amount: 20, status: "PENDING", debtId: reversal.debtId }]
    })
    expect((await events())[1]).not.toHaveProperty("reason")

    // The seller's next credit, 15.00 of a new split, pays its 10.47 first: 4.53 left.
    await receive(20, { split: [{ type: "fixed", amount: 15, accountNumber: seller.accountNumber }] })
    expect(await balance(`?accountId=${seller.accountNumber}`)).toMatchObject({ availableBalance: 4.53, debtBalance: 0 })
    const sellerLines = (await call("GET", `/v1/wallet/transactions?accountId=${seller.accountNumber}&limit=4`)).body.transactions
    expect(sellerLines.map((t: any) => [t.type, t.category, t.amount, t.balanceAfter])).toEqual([
      ["CREDIT", "REFUND", 10.47, 0],
      ["DEBIT", "REFUND", 10.47, 4.53],
      ["CREDIT", "TRANSFER", 15, 15],
      ["DEBIT", "REFUND", 10.47, -10.47]
    ])
    expect(await sql((s) => s`SELECT status, remaining_cents::int AS remaining FROM split_debts WHERE id = ${reversal.debtId}`)).toEqual([{ status: "PAID", remaining: 0 }])

    // A refund the payer's bank refuses (sandbox: centavos 13): every part comes back, the charge stays as it was.
    const before = [await balance(), await balance(`?accountId=${seller.accountNumber}`)]
    const doomed = await call("POST", "/v1/wallet/refunds", { endToEndId, amount: 10.13, reason: "BANK_ERROR" })
    expect(doomed.status).toBe(201)
    await engine.run(Billing.completeRefunds(1000))
    expect((await call("GET", `/v1/wallet/refunds?refundId=${doomed.body.refundId}`)).body).toMatchObject({ status: "ERROR", success: false, error: expect.any(String) })
    expect((await events()).at(-1)).toMatchObject({ event: "refund.failed", status: "ERROR", error: expect.any(String) })
    expect([await balance(), await balance(`?accountId=${seller.accountNumber}`)]).toEqual(before)
    expect((await call("GET", `/v1/charges/${chargeId}`)).body.status).toBe("PARTIALLY_REFUNDED")

    // The rest, 50.00, by default: the charge is REFUNDED.
    const rest = await call("POST", "/v1/wallet/refunds", { endToEndId, reason: "CUSTOMER_REQUEST" })
    // The seller's 20.00 again: it has 4.53, so it owes 15.47; the master had 30.00 + 5.00 of the second charge and pays 30.00.
    expect(rest.body).toMatchObject({ amount: 50, splitReversals: [{ amount: 20, status: "PENDING", debtId: expect.stringMatching(/^SANDBOX_sdb_/) }] })
    expect(await balance(`?accountId=${seller.accountNumber}`)).toMatchObject({ availableBalance: 0, debtBalance: 15.47 })
    expect((await balance()).availableBalance).toBe(5)
    await engine.run(Billing.completeRefunds(1000))
    expect((await call("GET", `/v1/charges/${chargeId}`)).body.status).toBe("REFUNDED")
    const listed = (await call("GET", "/v1/wallet/refunds")).body
    expect(listed.items.map((r: any) => [r.amount, r.status])).toEqual([[50, "CONFIRMED"], [10.13, "ERROR"], [50, "CONFIRMED"]])
    expect((await call("POST", "/v1/wallet/refunds", { endToEndId, amount: 0.01, reason: "FRAUD" })).body.error.code).toBe("CHARGE_NOT_REFUNDABLE")
  })

  it("refunds a card from its own receivables first, newest installment first, before the balance", async () => {
    const { call, balance, payByCard } = await merchant()
    const chargeId = await payByCard(100, 3)
    // Installments 33.34, 33.33, 33.33: 50.00 comes from the third (33.33) and 16.67 of the second.
    const refund = await call("POST", "/v1/wallet/refunds", { chargeId, amount: 50 })
    expect(refund.body).toMatchObject({ status: "CONFIRMED", amount: 50 })
    expect(await balance()).toMatchObject({ availableBalance: 0, pendingBalance: 50, totalBalance: 50 })
    expect((await call("GET", "/v1/wallet/receivables")).body.days.map((d: any) => d.amount)).toEqual([33.34, 16.66])
    expect((await call("GET", `/v1/charges/${chargeId}`)).body.status).toBe("PARTIALLY_REFUNDED")
    // Every installment's day comes: 50.00 becomes available; the refunded one settles nothing.
    await sql((s) => s`UPDATE receivables SET settles_on = '2000-01-03' WHERE charge_id = ${chargeId}`)
    await engine.run(Billing.settleDueReceivables(1000))
    expect(await balance()).toMatchObject({ availableBalance: 50, pendingBalance: 0 })
    // Now the rest comes from the balance.
    expect((await call("POST", "/v1/wallet/refunds", { chargeId: chargeId })).body).toMatchObject({ status: "CONFIRMED", amount: 50 })
    expect(await balance()).toMatchObject({ availableBalance: 0, pendingBalance: 0 })
    expect((await call("GET", `/v1/charges/${chargeId}`)).body.status).toBe("REFUNDED")
  })

  it("refunds a card at once (CONFIRMED, success: true), with refund.requested naming the acquirer's payment id", async () => {
    const { account, call, receive, payByCard } = await merchant()
    await receive(10)
    const chargeId = await payByCard(8)
    const refund = await call("POST", "/v1/wallet/refunds", { chargeId: chargeId })
    expect(refund.status, JSON.stringify(refund.body)).toBe(201)
    expect(refund.body).toMatchObject({ success: true, status: "CONFIRMED", amount: 8, paymentType: "CREDIT_CARD", providerChargeId: expect.any(String) })
    expect((await call("GET", `/v1/charges/${chargeId}`)).body.status).toBe("REFUNDED")
    const bodies = (await sql((s) => s<{ body: string }>`SELECT body FROM outbox WHERE account_id = ${account.accountId} AND event LIKE 'refund.%' ORDER BY id`))
      .map((row) => JSON.parse(row.body))
    expect(bodies.map((b) => [b.event, b.status])).toEqual([["refund.requested", "PROCESSING"], ["refund.confirmed", "CONFIRMED"]])
    expect(bodies[0]).toMatchObject({ paymentType: "CREDIT_CARD", providerChargeId: refund.body.providerChargeId, customer: { name: "Ana Souza", taxId: "52998224725" } })
    expect(bodies[0]).not.toHaveProperty("reason")
    // The card's 8.00 was still receivable: the refund took it there, and the 10.00 received by Pix stays.
    expect((await call("GET", "/v1/wallet/balance")).body).toMatchObject({ availableBalance: 10, pendingBalance: 0 })
  })

  it("simulates MED: an infraction blocks the amount as retained balance, released to the account or returned to the payer as a refund", async () => {
    const { account, call, receive, balance } = await merchant()
    const chargeId = await receive(30)
    const medEvents = async () =>
      (await sql((s) => s<{ body: string }>`SELECT body FROM outbox WHERE account_id = ${account.accountId} AND event LIKE 'med.%' ORDER BY id`))
        .map((row) => JSON.parse(row.body))

    const opened = await call("POST", "/v1/sandbox/med/infractions", { chargeId, amount: 10, reason: "FRAUD" })
    expect(opened.status, JSON.stringify(opened.body)).toBe(201)
    expect(opened.body).toMatchObject({ chargeId, amount: 10, blockedAmount: 10, status: "OPEN", refundId: null })
    expect(opened.body.infractionId).toMatch(/^SANDBOX_med_/)
    expect(await balance()).toMatchObject({ availableBalance: 20, retainedBalance: 10, totalBalance: 30 })
    const [retained, blocked] = (await call("GET", "/v1/wallet/transactions?limit=2")).body.transactions
    expect([blocked.type, blocked.category, blocked.amount, blocked.balanceAfter]).toEqual(["DEBIT", "MED_BLOCK", 10, 20])
    expect([retained.type, retained.category, retained.amount, retained.balanceAfter]).toEqual(["CREDIT", "MED_BLOCK", 10, 10])

    const released = await call("POST", `/v1/sandbox/med/infractions/${opened.body.infractionId}/release`)
    expect(released.body).toMatchObject({ status: "RELEASED" })
    expect(await balance()).toMatchObject({ availableBalance: 30, retainedBalance: 0 })
    const again = await call("POST", `/v1/sandbox/med/infractions/${opened.body.infractionId}/return`)
    expect([again.status, again.body.error.code]).toEqual([400, "INFRACTION_CLOSED"])
    expect((await medEvents()).map((e) => [e.event, e.status ?? e.blockedAmount])).toEqual([
      ["med.infraction.updated", "OPEN"],
      ["med.balance.blocked", 10],
      ["med.balance.unblocked", 10],
      ["med.infraction.updated", "RELEASED"]
    ])

    // The whole charge contested and returned: a FRAUD refund, confirmed, and the charge REFUNDED.
    const second = (await call("POST", "/v1/sandbox/med/infractions", { chargeId })).body
    expect(second).toMatchObject({ amount: 30, blockedAmount: 30 })
    const returned = await call("POST", `/v1/sandbox/med/infractions/${second.infractionId}/return`)
    expect(returned.body).toMatchObject({ status: "RETURNED", refundId: expect.stringMatching(/^SANDBOX_ref_/) })
    expect(await balance()).toMatchObject({ availableBalance: 0, retainedBalance: 0, totalBalance: 0 })
    expect((await call("GET", `/v1/charges/${chargeId}`)).body.status).toBe("REFUNDED")
    expect((await call("GET", `/v1/wallet/refunds?refundId=${returned.body.refundId}`)).body).toMatchObject({ status: "CONFIRMED", reason: "FRAUD", amount: 30 })
    expect((await medEvents()).slice(-3)).toMatchObject([
      { event: "med.refund.opened", status: "PROCESSING", refundId: returned.body.refundId, returnIdentification: null },
      { event: "med.refund.closed", status: "CONFIRMED", returnIdentification: expect.stringMatching(/^D99999999/) },
      { event: "med.infraction.updated", status: "RETURNED", infractionId: second.infractionId }
    ])
    expect((await call("POST", "/v1/sandbox/med/infractions", { chargeId })).body.error.code).toBe("CHARGE_NOT_REFUNDABLE")

    // While an infraction blocks 3.00 of a 5.00 charge, the merchant may refund only the other 2.00: the 3.00 may still go back through the MED.
    const later = await receive(5)
    await receive(10)
    const contested = (await call("POST", "/v1/sandbox/med/infractions", { chargeId: later, amount: 3 })).body
    const laterE2e = (await call("GET", `/v1/charges/${later}?view=detail`)).body.pix.endToEndId as string
    const overBlock = await call("POST", "/v1/wallet/refunds", { endToEndId: laterE2e, amount: 2.01, reason: "CUSTOMER_REQUEST" })
    expect([overBlock.status, overBlock.body.error.code, overBlock.body.error.details]).toEqual([400, "REFUND_AMOUNT_EXCEEDED", { requested: "2.01", available: "2.00", blockedByMed: "3.00" }])
    expect((await call("POST", "/v1/sandbox/med/infractions", { chargeId: later, amount: 2.01 })).body.error.code).toBe("REFUND_AMOUNT_EXCEEDED")
    expect((await call("POST", "/v1/wallet/refunds", { endToEndId: laterE2e, amount: 2, reason: "CUSTOMER_REQUEST" })).status).toBe(201)
    await engine.run(Billing.completeRefunds(1000))
    // The MED then returns its 3.00: the whole 5.00 went back, once.
    expect((await call("POST", `/v1/sandbox/med/infractions/${contested.infractionId}/return`)).body.status).toBe("RETURNED")
    expect((await call("GET", `/v1/charges/${later}`)).body.status).toBe("REFUNDED")
    // 15.00 received, 2.00 refunded, 3.00 returned: 10.00, nothing blocked.
    expect(await balance()).toMatchObject({ availableBalance: 10, retainedBalance: 0 })
    expect((await call("GET", "/v1/sandbox/med/infractions/SANDBOX_med_nothing")).status).toBe(404)
  })

  it("simulates card disputes: DISPUTE while open, won back to what the charge was, lost CHARGED_BACK with a CHARGEBACK refund and a debt for what the balance lacks", async () => {
    const { account, call, receive, balance, payByCard } = await merchant()
    const disputeEvents = async () =>
      (await sql((s) => s<{ body: string }>`SELECT body FROM outbox WHERE account_id = ${account.accountId} AND event = 'charge.dispute.updated' ORDER BY id`))
        .map((row) => JSON.parse(row.body))
    const status = async (chargeId: string) => (await call("GET", `/v1/charges/${chargeId}`)).body.status

    // 100.00 in one installment, still receivable; disputed whole, then won.
    const first = await payByCard(100)
    const opened = await call("POST", "/v1/sandbox/disputes", { chargeId: first, reason: "FRAUD" })
    expect(opened.status, JSON.stringify(opened.body)).toBe(201)
    expect(opened.body).toMatchObject({ chargeId: first, amount: 100, status: "OPEN", refundId: null, disputeId: expect.stringMatching(/^SANDBOX_dis_/) })
    expect(await status(first)).toBe("DISPUTE")
    expect((await call("POST", "/v1/wallet/refunds", { chargeId: first })).body.error.code).toBe("CHARGE_NOT_REFUNDABLE")
    expect((await call("POST", "/v1/sandbox/disputes", { chargeId: first })).body.error.code).toBe("CHARGE_NOT_REFUNDABLE")
    expect((await call("POST", `/v1/sandbox/disputes/${opened.body.disputeId}/win`)).body.status).toBe("WON")
    expect(await status(first)).toBe("PAID")
    const twice = await call("POST", `/v1/sandbox/disputes/${opened.body.disputeId}/lose`)
    expect([twice.status, twice.body.error.code]).toEqual([400, "DISPUTE_CLOSED"])

    // Lost: the acquirer takes the 100.00 back from the charge's own receivable; nothing is owed.
    const second = (await call("POST", "/v1/sandbox/disputes", { chargeId: first })).body
    const lost = await call("POST", `/v1/sandbox/disputes/${second.disputeId}/lose`)
    expect(lost.body).toMatchObject({ status: "LOST", refundId: expect.stringMatching(/^SANDBOX_ref_/) })
    expect(await status(first)).toBe("CHARGED_BACK")
    expect(await balance()).toMatchObject({ availableBalance: 0, pendingBalance: 0, debtBalance: 0 })
    expect((await call("GET", `/v1/wallet/refunds?refundId=${lost.body.refundId}`)).body).toMatchObject({ status: "CONFIRMED", reason: "CHARGEBACK", amount: 100 })
    expect((await call("POST", "/v1/sandbox/disputes", { chargeId: first })).body.error.code).toBe("CHARGE_NOT_REFUNDABLE")
    expect((await disputeEvents()).map((e) => [e.status, e.chargeStatus, e.refundId])).toEqual([
      ["OPEN", "DISPUTE", null], ["WON", "PAID", null], ["OPEN", "DISPUTE", null], ["LOST", "CHARGED_BACK", lost.body.refundId]
    ])

    // 40.00 settled and mostly withdrawn (30.00 + 0.47 fee): 9.53 left. Losing 40.00 takes the 9.53 and leaves a debt of 30.47.
    const third = await payByCard(40)
    await sql((s) => s`UPDATE receivables SET settles_on = '2000-01-03' WHERE charge_id = ${third}`)
    await engine.run(Billing.settleDueReceivables(1000))
    expect((await call("POST", "/v1/wallet/withdraw", { amount: 30, pixKey: "11444777000161", pixKeyType: "CNPJ" })).status).toBe(200)
    const contested = (await call("POST", "/v1/sandbox/disputes", { chargeId: third })).body
    expect((await call("POST", `/v1/sandbox/disputes/${contested.disputeId}/lose`)).body.status).toBe("LOST")
    expect(await balance()).toMatchObject({ availableBalance: 0, debtBalance: 30.47 })
    const [owed, taken] = (await call("GET", "/v1/wallet/transactions?limit=2")).body.transactions
    expect([taken.type, taken.category, taken.amount, taken.balanceAfter]).toEqual(["DEBIT", "CHARGEBACK", 9.53, 0])
    expect([owed.category, owed.amount]).toEqual(["CHARGEBACK", 30.47])
    // The next credit pays the debt: 50.00 received, 30.47 owed, 19.53 left; the payment is a CHARGEBACK line of the statement.
    await receive(50)
    expect(await balance()).toMatchObject({ availableBalance: 19.53, debtBalance: 0 })
    const paidBack = (await call("GET", "/v1/wallet/transactions?category=CHARGEBACK&type=DEBIT&limit=1")).body.transactions[0]
    expect([paidBack.title, paidBack.amount, paidBack.balanceAfter]).toEqual(["Pagamento de débito", 30.47, 19.53])

    // A dispute on a partially refunded charge, won: back to PARTIALLY_REFUNDED; more than is left, refused.
    const fourth = await payByCard(20)
    expect((await call("POST", "/v1/wallet/refunds", { chargeId: fourth, amount: 5 })).body.status).toBe("CONFIRMED")
    expect((await call("POST", "/v1/sandbox/disputes", { chargeId: fourth, amount: 15.01 })).body.error.code).toBe("REFUND_AMOUNT_EXCEEDED")
    const partial = (await call("POST", "/v1/sandbox/disputes", { chargeId: fourth, amount: 15 })).body
    expect((await call("POST", `/v1/sandbox/disputes/${partial.disputeId}/win`)).body.status).toBe("WON")
    expect(await status(fourth)).toBe("PARTIALLY_REFUNDED")

    // Only a card charge; an unknown dispute is 404.
    const pix = await receive(1)
    expect((await call("POST", "/v1/sandbox/disputes", { chargeId: pix })).body.error.code).toBe("CHARGE_NOT_REFUNDABLE")
    const unknown = await call("GET", "/v1/sandbox/disputes/SANDBOX_dis_nothing")
    expect([unknown.status, unknown.body.error.code]).toEqual([404, "DISPUTE_NOT_FOUND"])
    expect((await call("GET", `/v1/sandbox/disputes/${partial.disputeId}`)).body).toMatchObject({ status: "WON", amount: 15 })
  })

  it("reconciles the day's ledger with the Pix provider's statement, and lists what is missing on either side or differs", async () => {
    const { account, call, receive } = await merchant()
    const first = await receive(20)
    await receive(7.5)
    expect((await call("POST", "/v1/wallet/withdraw", { amount: 5, pixKey: "11444777000161", pixKeyType: "CNPJ" })).status).toBe(200)
    await engine.run(Billing.payOutWithdrawals(1000))
    const endToEndId = (await call("GET", `/v1/charges/${first}?view=detail`)).body.pix.endToEndId as string
    expect((await call("POST", "/v1/wallet/refunds", { endToEndId, amount: 2, reason: "CUSTOMER_REQUEST" })).status).toBe(201)
    await engine.run(Billing.completeRefunds(1000))

    const clean = (await call("GET", "/v1/wallet/reconciliation")).body
    // In: 20.00 + 7.50; out: the withdrawal's 5.00 (its fee never leaves us) and the refund's 2.00.
    expect(clean).toMatchObject({
      accountId: account.accountNumber,
      ledger: { count: 4, credits: 27.5, debits: 7 },
      provider: { count: 4, credits: 27.5, debits: 7 },
      matched: 4,
      reconciled: true,
      missingInProvider: [],
      missingInLedger: [],
      differing: []
    })
    expect((await call("GET", `/v1/wallet/reconciliation?date=${clean.date}`)).body.matched).toBe(4)
    expect((await call("GET", "/v1/wallet/reconciliation?date=2000-01-01")).body).toMatchObject({ matched: 0, reconciled: true, ledger: { count: 0 } })
    expect((await call("GET", "/v1/wallet/reconciliation?date=ontem")).body.error.code).toBe("INVALID_DATA")

    // The provider's statement is tampered with: a Pix we never recorded, one it lost, and one with another amount.
    await sql((s) => s`INSERT INTO sandbox_psp_entries (account_id, end_to_end_id, direction, amount_cents, at)
      VALUES (${account.accountId}, 'E99999999202611221200ghost000001', 'CREDIT', 999, now())`)
    await sql((s) => s`DELETE FROM sandbox_psp_entries WHERE account_id = ${account.accountId} AND end_to_end_id = ${endToEndId}`)
    await sql((s) => s`UPDATE sandbox_psp_entries SET amount_cents = 499 WHERE account_id = ${account.accountId} AND direction = 'DEBIT' AND end_to_end_id LIKE 'E%'`)
    const broken = (await call("GET", "/v1/wallet/reconciliation")).body
    // Of the four: the 7.50 payment and the refund still match.
    expect(broken).toMatchObject({
      reconciled: false,
      matched: 2,
      missingInProvider: [{ endToEndId, direction: "CREDIT", amount: 20 }],
      missingInLedger: [{ endToEndId: "E99999999202611221200ghost000001", direction: "CREDIT", amount: 9.99 }],
      differing: [{ ledger: { direction: "DEBIT", amount: 5 }, provider: { direction: "DEBIT", amount: 4.99 } }]
    })
  })

  it("counts two racing refunds of one charge one after the other: never more than was paid, in the database too", async () => {
    const { call, receive } = await merchant()
    const chargeId = await receive(10)
    const endToEndId = (await call("GET", `/v1/charges/${chargeId}?view=detail`)).body.pix.endToEndId as string
    const answers = await Promise.all(Array.from({ length: 8 }, () => call("POST", "/v1/wallet/refunds", { endToEndId, amount: 3, reason: "FRAUD" })))
    expect(answers.filter((a) => a.status === 201)).toHaveLength(3)
    expect(answers.filter((a) => a.body.error?.code === "REFUND_AMOUNT_EXCEEDED")).toHaveLength(5)
    const refunded = await sql((s) => s`INSERT INTO refunds (id, account_id, charge_id, payment_type, amount_cents, status, split_reversals, created_at, updated_at)
      SELECT 'ref_by_hand', account_id, id, 'PIX', 101, 'PROCESSING', '[]', now(), now() FROM charges WHERE id = ${chargeId}`.pipe(
      Effect.as("accepted"), Effect.catch((e) => Effect.succeed(databaseMessage(e)))))
    expect(refunded).toMatch(/would pass the amount paid/)
  })

  it("refuses, in the database, an entry that does not balance, lines of no entry, a false balance after, a balance below zero, a change to a line, a balance moved by hand and a payment posted twice", async () => {
    const { account, receive } = await merchant()
    const chargeId = await receive(5)
    const attempt = (statement: (s: SqlClient.SqlClient) => Effect.Effect<unknown, unknown>) =>
      sql((s) => s.withTransaction(statement(s)).pipe(Effect.as("accepted"), Effect.catch((e) => Effect.succeed(databaseMessage(e)))))
    const line = (s: SqlClient.SqlClient, id: string, entry: string, holder: string, book: string, amount: number, after: number | null) =>
      s`INSERT INTO ledger_lines (id, entry_id, holder, book, amount_cents, balance_after_cents, category, title, created_at)
        VALUES (${id}, ${entry}, ${holder}, ${book}, ${amount}, ${after}, 'TRANSFER', 'teste', now())`
    const entry = (s: SqlClient.SqlClient, id: string, kind = "PAYMENT") =>
      s`INSERT INTO ledger_entries (id, account_id, kind, reference_id, created_at) VALUES (${id}, ${account.accountId}, ${kind}, ${id}, now())`

    // The balance is 5.00: a line of 1.00 leaves 6.00.
    expect(await attempt((s) => Effect.andThen(entry(s, "jrn_a"), s`INSERT INTO ledger_lines (id, entry_id, holder, book, amount_cents, balance_after_cents, category, title, created_at)
      VALUES ('txn_a1', 'jrn_a', ${account.accountId}, 'AVAILABLE', 100, 600, 'TRANSFER', 't', now()), ('txn_a2', 'jrn_a', 'HOUSE', 'CLEARING', -99, NULL, 'TRANSFER', 't', now())`)))
      .toMatch(/does not balance/)
    // Lines of one entry in two statements: the first is already unbalanced.
    expect(await attempt((s) => Effect.andThen(entry(s, "jrn_b"), Effect.andThen(line(s, "txn_b1", "jrn_b", account.accountId, "AVAILABLE", 100, 600), line(s, "txn_b2", "jrn_b", "HOUSE", "CLEARING", -100, null)))))
      .toMatch(/does not balance/)
    // Taking 5.01 out of a balance of 5.00, the balance after it stated truly.
    expect(await attempt((s) => Effect.andThen(entry(s, "jrn_c"), s`INSERT INTO ledger_lines (id, entry_id, holder, book, amount_cents, balance_after_cents, category, title, created_at)
      VALUES ('txn_c1', 'jrn_c', ${account.accountId}, 'AVAILABLE', -501, -1, 'TRANSFER', 't', now()), ('txn_c2', 'jrn_c', 'HOUSE', 'CLEARING', 501, NULL, 'TRANSFER', 't', now())`)))
      .toMatch(/ledger_balances_within_bounds/)
    // A balance after that does not follow the book (5.00 + 1.00 is 6.00, not 7.00), and one left out.
    for (const [after, refusal] of [[700, /does not follow its book/], [null, /violates check constraint/]] as const) {
      expect(await attempt((s) => Effect.andThen(entry(s, `jrn_f${after}`), s`INSERT INTO ledger_lines (id, entry_id, holder, book, amount_cents, balance_after_cents, category, title, created_at)
        VALUES (${`txn_f1${after}`}, ${`jrn_f${after}`}, ${account.accountId}, 'AVAILABLE', 100, ${after}, 'TRANSFER', 't', now()),
        (${`txn_f2${after}`}, ${`jrn_f${after}`}, 'HOUSE', 'CLEARING', -100, NULL, 'TRANSFER', 't', now())`)))
        .toMatch(refusal)
    }
    // Balanced lines of an entry that was never written.
    expect(await attempt((s) => s`INSERT INTO ledger_lines (id, entry_id, holder, book, amount_cents, balance_after_cents, category, title, created_at)
      VALUES ('txn_g1', 'jrn_never', ${account.accountId}, 'AVAILABLE', 100, 600, 'TRANSFER', 't', now()), ('txn_g2', 'jrn_never', 'HOUSE', 'CLEARING', -100, NULL, 'TRANSFER', 't', now())`))
      .toMatch(/names entry jrn_never, which does not exist/)
    expect(await attempt((s) => s`TRUNCATE ledger_entries CASCADE`)).toMatch(/append-only/)
    expect(await attempt((s) => s`UPDATE ledger_lines SET amount_cents = amount_cents * 2 WHERE holder = ${account.accountId}`)).toMatch(/append-only/)
    expect(await attempt((s) => s`DELETE FROM ledger_lines WHERE holder = ${account.accountId}`)).toMatch(/append-only/)
    expect(await attempt((s) => s`DELETE FROM ledger_entries WHERE reference_id = ${chargeId}`)).toMatch(/append-only/)
    expect(await attempt((s) => s`UPDATE ledger_balances SET balance_cents = 1000000 WHERE holder = ${account.accountId}`)).toMatch(/move only with ledger lines/)
    expect(await attempt((s) => s`INSERT INTO ledger_entries (id, account_id, kind, reference_id, created_at) VALUES ('jrn_d', ${account.accountId}, 'PAYMENT', ${chargeId}, now())`))
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
