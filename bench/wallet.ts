/**
 * `npm run bench -- wallet`: the ledger on PostgreSQL.
 *
 * Posting: N confirmed Pix payments with a fee and a two-receiver split
 * (six ledger lines each) credited through the ledger in batches of 100 per
 * transaction, BENCH_CONCURRENCY batches at a time, over 8 merchants whose
 * receivers are their own sub-accounts: what the worker does when it
 * confirms payments. Baseline: the same lines, and an entry per payment,
 * INSERTed into tables shaped like the ledger's without its triggers,
 * constraints or balances, in the same batches at the same concurrency.
 *
 * Reading: an account with 1,000,000 statement lines (seeded in SQL, not
 * timed), then its balance and the first page of its statement read through
 * HTTP one after the other, BENCH_READS times each, p50 and p99, against an
 * authenticated route that reads nothing of the ledger; then the same two
 * reads through the library, without HTTP.
 *
 * Settings: BENCH_PAYMENTS (20000), BENCH_CONCURRENCY (4), BENCH_LINES (1000000), BENCH_READS (2000).
 */
import { type AccountId, Billing, type Charge, ChargeId, Transactor } from "@billing/core"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { creditPayments } from "../packages/core/src/ledger/CreditPayments.ts"
import { computeFees } from "../packages/core/src/rules/Fees.ts"
import { cents } from "../packages/core/src/money/Money.ts"
import { startEngine } from "../test/support/Engine.ts"
import { fmt } from "./_support/load.ts"

const payments = Number(process.env.BENCH_PAYMENTS ?? 20_000)
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 4)
const statementLines = Number(process.env.BENCH_LINES ?? 1_000_000)
const reads = Number(process.env.BENCH_READS ?? 2_000)
const BATCH = 100

const engine = await startEngine("postgres")
const run = <A>(effect: Effect.Effect<A, unknown, any>) => engine.run(effect)
const sql = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) => run(Effect.flatMap(SqlClient.SqlClient, f))

/** A paid Pix charge of `owner` for `gross` centavos: fee 0.50 + 0.99%, 10% and 5.00 of the net to its two receivers. */
const paidCharge = (i: number, owner: { id: AccountId; receivers: ReadonlyArray<{ id: AccountId; number: string }> }, gross: number): Charge => {
  const fees = computeFees(cents(gross), { fixed: cents(50), percentHundredths: 99 })
  const percent = Math.floor(fees.net / 10)
  const fixed = Math.min(500, fees.net - percent)
  const at = new Date()
  return {
    id: ChargeId.make(`SANDBOX_cha_bench_${i}`), accountId: owner.id, masterAccountId: owner.id, paymentType: "PIX", status: "PAID",
    amount: cents(gross), fee: fees.fees.total, feeFixed: fees.fees.fixed, feePercentHundredths: 99, net: fees.net,
    txid: `tx${i}`, emv: null, psp: null, externalTxid: null, description: null, metadata: null, customer: null,
    split: [
      { accountId: owner.receivers[0]!.id, accountNumber: owner.receivers[0]!.number, type: "percentage", value: 1000, amount: cents(percent) },
      { accountId: owner.receivers[1]!.id, accountNumber: owner.receivers[1]!.number, type: "fixed", value: fixed, amount: cents(fixed) }
    ].filter((p) => p.amount > 0) as Charge["split"],
    dueDate: null, expiresAt: at, paidAt: at, endToEndId: `E99999999202601010000${String(i).padStart(11, "0")}`,
    payer: { name: "Pagador", taxId: "52998224725", bank: "99999999", account: "1", branch: "1", accountType: "CACC" },
    canceledAt: null, archivedAt: null, attempts: 0, externalId: null, customerId: null, card: null, boleto: null, address: null,
    notifications: null, failureReason: null, subscriptionId: null, cycleNumber: null, createdAt: at, updatedAt: at
  }
}

/** Runs `batches` BENCH_CONCURRENCY at a time; the seconds it took. */
const timed = async (batches: ReadonlyArray<() => Promise<unknown>>) => {
  const started = performance.now()
  let next = 0
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < batches.length) await batches[next++]!()
  }))
  return (performance.now() - started) / 1000
}

const percentile = (sorted: ReadonlyArray<number>, p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!

try {
  // Eight merchants with two sub-account receivers each.
  const owners: Array<{ id: AccountId; receivers: Array<{ id: AccountId; number: string }> }> = []
  for (let m = 0; m < 8; m++) {
    const master = await engine.createAccount({ name: `Loja ${m}` })
    const receivers: Array<{ id: AccountId; number: string }> = []
    for (let r = 0; r < 2; r++) {
      const sub = await engine.createAccount({ name: `Vendedor ${m}.${r}`, document: "52998224725", parentId: master.accountId })
      receivers.push({ id: sub.accountId, number: sub.accountNumber })
    }
    owners.push({ id: master.accountId, receivers })
  }
  const charges = Array.from({ length: payments }, (_, i) => paidCharge(i, owners[i % owners.length]!, 1_000 + ((i * 7919) % 99_000)))
  const batches = Array.from({ length: Math.ceil(payments / BATCH) }, (_, b) => charges.slice(b * BATCH, (b + 1) * BATCH))

  const ledgerSeconds = await timed(batches.map((batch) => () =>
    run(Effect.flatMap(Transactor, (t) => t.withTransaction(creditPayments(batch, new Date()))))))
  const [{ lines }] = await sql((s) => s<{ lines: number }>`SELECT count(*)::int AS lines FROM ledger_lines`) as [{ lines: number }]
  const [{ unbalanced }] = await sql((s) => s<{ unbalanced: number }>`SELECT count(*)::int AS unbalanced FROM
    (SELECT entry_id FROM ledger_lines GROUP BY entry_id HAVING sum(amount_cents) <> 0) u`) as [{ unbalanced: number }]
  if (unbalanced !== 0) throw new Error(`${unbalanced} entries do not balance`)

  // Baseline: the same entries and lines, bare.
  await sql((s) => s`CREATE TABLE bench_entries (LIKE ledger_entries INCLUDING DEFAULTS)`)
  await sql((s) => s`CREATE TABLE bench_lines (LIKE ledger_lines INCLUDING DEFAULTS)`)
  const rows = await sql((s) => s<Record<string, unknown>>`SELECT id, entry_id, holder, book, amount_cents, balance_after_cents, category, title,
    payment_method, charge_id, end_to_end_id, counterparty::text AS counterparty, reference_id, created_at FROM ledger_lines ORDER BY seq`)
  const entries = await sql((s) => s<Record<string, unknown>>`SELECT id, account_id, kind, reference_id, created_at FROM ledger_entries`)
  const perEntry = Map.groupBy(rows, (row) => row.entry_id as string)
  const baselineBatches = Array.from({ length: Math.ceil(entries.length / BATCH) }, (_, b) => entries.slice(b * BATCH, (b + 1) * BATCH))
  const baselineSeconds = await timed(baselineBatches.map((batch) => () =>
    sql((s) => s.withTransaction(Effect.gen(function*() {
      yield* s`INSERT INTO bench_entries ${s.insert(batch.map((e) => ({ ...e, id: `b${e.id}`, reference_id: `b${e.reference_id}` })) as Array<Record<string, unknown>> as never)}`
      const lines = batch.flatMap((e) => perEntry.get(e.id as string)!).map((l) => ({ ...l, id: `b${l.id}`, entry_id: `b${l.entry_id}` }))
      yield* s`INSERT INTO bench_lines ${s.insert(lines as never)}`
    })))))

  const perSecond = payments / ledgerSeconds
  const baselinePerSecond = payments / baselineSeconds
  console.log(`posting: ${payments} payments (${lines} lines) in ${fmt(ledgerSeconds)} s = ${fmt(perSecond)}/s; bare rows ${fmt(baselineSeconds)} s = ${fmt(baselinePerSecond)}/s`)

  // An account with a long history: its statement lines seeded in SQL (triggers off, balances computed the same way).
  const big = await engine.createAccount({ name: "Loja antiga" })
  const seedStarted = performance.now()
  await sql((s) => s.withTransaction(Effect.gen(function*() {
    yield* s`SET LOCAL session_replication_role = replica`
    yield* s.unsafe(`INSERT INTO ledger_entries (id, account_id, kind, reference_id, created_at)
      SELECT 'jrn_big_' || g, '${big.accountId}', 'PAYMENT', 'cha_big_' || g, now() - make_interval(secs => ${statementLines} - g) FROM generate_series(1, ${statementLines}) g`)
    yield* s.unsafe(`INSERT INTO ledger_lines (id, entry_id, holder, book, amount_cents, balance_after_cents, category, title, payment_method, charge_id, reference_id, created_at)
      SELECT 'txn_big_' || g, 'jrn_big_' || g, '${big.accountId}', 'AVAILABLE', 100 + g % 900,
        sum(100 + g % 900) OVER (ORDER BY g), 'PAYMENT', 'Pagamento recebido', 'PIX', 'cha_big_' || g, 'cha_big_' || g,
        now() - make_interval(secs => ${statementLines} - g) FROM generate_series(1, ${statementLines}) g ORDER BY g`)
    yield* s.unsafe(`INSERT INTO ledger_lines (id, entry_id, holder, book, amount_cents, category, title, created_at)
      SELECT 'txn_bigh_' || g, 'jrn_big_' || g, 'HOUSE', 'CLEARING', -(100 + g % 900), 'PAYMENT', 'Pagamento recebido', now() FROM generate_series(1, ${statementLines}) g`)
    yield* s.unsafe(`UPDATE ledger_balances SET balance_cents = (SELECT sum(100 + g % 900) FROM generate_series(1, ${statementLines}) g)
      WHERE holder = '${big.accountId}' AND book = 'AVAILABLE'`)
  })))
  await sql((s) => s`ANALYZE`)
  console.log(`seeded ${statementLines} statement lines in ${fmt((performance.now() - seedStarted) / 1000)} s`)

  const token = await engine.token(big)
  const read = async (path: string) => {
    const latencies: Array<number> = []
    let body: any
    // The first reads compile the route's code and fill the caches: not counted.
    for (let i = -Math.min(200, reads); i < reads; i++) {
      const t0 = performance.now()
      const response = await fetch(`${engine.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } })
      body = await response.json()
      if (i >= 0) latencies.push(performance.now() - t0)
      if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`)
    }
    latencies.sort((a, b) => a - b)
    return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), body }
  }
  const balance = await read("/v1/wallet/balance")
  const statement = await read("/v1/wallet/transactions")
  if (statement.body.transactions.length !== 50 || statement.body.transactions[0].balanceAfter !== balance.body.availableBalance) {
    throw new Error("the statement's first line does not end at the balance")
  }
  // The same reads' floor: an authenticated route that reads nothing of the ledger.
  const floor = await read("/v1/wallet/withdrawals?limit=1")
  // The same two reads through the library, without HTTP: what the ledger itself costs.
  const direct = async (effect: Effect.Effect<unknown, unknown, any>) => {
    const latencies: Array<number> = []
    const asBig = effect.pipe(Billing.asAccount(big.accountId))
    for (let i = -Math.min(200, reads); i < reads; i++) {
      const t0 = performance.now()
      await run(asBig)
      if (i >= 0) latencies.push(performance.now() - t0)
    }
    latencies.sort((a, b) => a - b)
    return { p50: percentile(latencies, 50), p99: percentile(latencies, 99) }
  }
  const balanceDirect = await direct(Billing.walletBalance({}))
  const statementDirect = await direct(Billing.walletStatement({}))
  console.log(`library reads: balance p50 ${fmt(balanceDirect.p50, 2)} ms p99 ${fmt(balanceDirect.p99, 2)} ms; first statement page p50 ${fmt(statementDirect.p50, 2)} ms p99 ${fmt(statementDirect.p99, 2)} ms`)
  console.log(`reads over ${statementLines} lines: balance p50 ${fmt(balance.p50)} ms p99 ${fmt(balance.p99)} ms; first statement page p50 ${fmt(statement.p50)} ms p99 ${fmt(statement.p99)} ms; empty list p99 ${fmt(floor.p99)} ms`)
  console.log(
    `RESULT wallet per_s=${fmt(perSecond)} baseline_per_s=${fmt(baselinePerSecond)} ratio=${fmt(perSecond / baselinePerSecond)} ` +
      `balance_p99_ms=${fmt(balance.p99)} statement_p99_ms=${fmt(statement.p99)} baseline_read_p99_ms=${fmt(floor.p99)} ` +
      `library_balance_p99_ms=${fmt(balanceDirect.p99, 2)} library_statement_p99_ms=${fmt(statementDirect.p99, 2)}`
  )
} finally {
  await engine.dispose()
}
