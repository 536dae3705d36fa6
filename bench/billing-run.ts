/**
 * `npm run bench -- billing-run`: one billing run over N active monthly
 * subscriptions due today on PostgreSQL, against the baseline of the same
 * database writing the same rows without any logic.
 *
 * Seeding (not timed, `test/support/SeedSubscriptions.ts`): nine template
 * subscriptions bought through the real API (card, Pix and boleto; one, two
 * or three items; some with a coupon, some with a discount), cloned in SQL
 * into N subscriptions, each with its first cycle paid (its charge, its
 * invoice) and its second cycle scheduled for today, then vacuumed, analyzed and checkpointed (the
 * seeding's debts are not the run's). The run is `billing run` in its own process, as an operator runs it: it issues every cycle (invoice, lines, charge,
 * `charge.created`) and charges the cards to the sandbox acquirer. The
 * baseline is one `INSERT ... SELECT` per table writing N charges, N
 * invoices, the same number of lines and N events into tables shaped like
 * the real ones, in one transaction; then the same into copies that have
 * only the keys every billing schema has (`keyed_seconds`, `keyed_ratio`):
 * what any engine that keeps one invoice per cycle pays before it computes
 * anything.
 *
 * Settings: BENCH_SUBSCRIPTIONS (100000), RUN_PROCESSES (1: `billing run` processes side by side),
 * RUN_NODE_FLAGS (the run's V8 flags, see below), RUN_PROFILE=dir
 * (a CPU profile of the run), BENCH_SCANS=1 (print the tables' sequential scans after the run).
 */
import { PgClient } from "@effect/sql-pg"
import { Effect, Exit, Redacted, Scope } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import { spawn } from "node:child_process"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { startEngine, TEST_SECRET_KEY } from "../test/support/Engine.ts"
import { seedDueSubscriptions } from "../test/support/SeedSubscriptions.ts"
import { fmt } from "./_support/load.ts"
import { postgresCpuMs } from "./_support/postgresCpu.ts"

const n = Number(process.env.BENCH_SUBSCRIPTIONS ?? 100_000)
const root = join(dirname(fileURLToPath(import.meta.url)), "..")

const engine = await startEngine("postgres")
const url = (engine.config as { databaseUrl: string }).databaseUrl
const scope = Effect.runSync(Scope.make())
const sql = await Effect.runPromise(PgClient.make({ url: Redacted.make(url), maxConnections: 1 }).pipe(Scope.provide(scope), Effect.provide(Reactivity.layer)))
const q = <A extends object = Record<string, unknown>>(text: string) => Effect.runPromise(sql.unsafe<A>(text))

try {
  // The server's memory and checkpoint settings decide the database's side at a million (its tables and
  // indexes outgrow the default 128 MB of buffers, and a checkpoint every 1 GB of WAL rewrites whole pages):
  // printed with the figures, and `scripts/postgres-for-scale.sh` applies the ones the note's figures used.
  const [server] = await q<{ buffers: string; wal: string }>(
    `SELECT current_setting('shared_buffers') AS buffers, current_setting('max_wal_size') AS wal`
  )
  console.log(`PostgreSQL: shared_buffers ${server!.buffers}, max_wal_size ${server!.wal}`)
  const seedStarted = performance.now()
  const { templates } = await seedDueSubscriptions(engine, n)
  // The seeding's debts are not the run's: its dead rows and visibility map (what autovacuum would
  // otherwise do beside the run, on the same two cores) and its dirty pages (a checkpoint mid-run).
  await q(`VACUUM ANALYZE`)
  await q(`CHECKPOINT`)
  console.log(`seeded ${n} subscriptions (${templates} templates) in ${fmt((performance.now() - seedStarted) / 1000)} s`)

  // The run, as an operator runs it.
  const env = { ...process.env, DATABASE_URL: url, BILLING_SECRET_KEY: TEST_SECRET_KEY }
  const started = performance.now()
  const databaseCpuBefore = postgresCpuMs()
  // The live heap of a run stays under 100 MB, but at this allocation rate V8 grows the old generation
  // lazily to 300 MB and more; a larger young generation and a capped old one keep the process near its
  // live size for a few percent of speed (docs/decisions.md: worker memory).
  const runFlags = (process.env.RUN_NODE_FLAGS ?? "--max-semi-space-size=32 --max-old-space-size=160").split(" ").filter((f) => f !== "")
  const profile = process.env.RUN_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.RUN_PROFILE}`] : []
  // Each `billing run` claims its own batches: RUN_PROCESSES of them share the cycles as workers would.
  const runOne = async () => {
    const child = spawn(process.execPath, [...profile, ...runFlags, join(root, "packages/cli/src/main.ts"), "run"], { env, stdio: ["ignore", "pipe", "inherit"] })
    let out = ""
    // The run's progress lines come before its JSON report, the last line.
    child.stdout.on("data", (chunk) => {
      out += chunk
      for (const line of String(chunk).split("\n")) if (line.includes("rows handled")) console.log(`  ${line.trim()}`)
    })
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve))
    if (code !== 0) throw new Error(`billing run exited with ${code}: ${out}`)
    return JSON.parse(out.trim().split("\n").at(-1)!) as { peakRssMb: number; elapsedMs: number; cpuMs: number }
  }
  const reports = await Promise.all(Array.from({ length: Math.max(1, Number(process.env.RUN_PROCESSES ?? 1)) }, runOne))
  const seconds = (performance.now() - started) / 1000
  const databaseCpuAfter = postgresCpuMs()
  // Memory is each process's own; CPU and time are the run's, all processes together.
  const report = {
    peakRssMb: Math.max(...reports.map((r) => r.peakRssMb)),
    elapsedMs: Math.max(...reports.map((r) => r.elapsedMs)),
    cpuMs: reports.reduce((sum, r) => sum + r.cpuMs, 0)
  }
  const processes = reports.length === 1 ? "" : ` processes=${reports.length}`
  const [issued] = await q<{ n: string }>(`SELECT count(*)::text AS n FROM billing_cycles WHERE cycle_number = 2 AND status <> 'SCHEDULED'`)
  const [paid] = await q<{ n: string }>(`SELECT count(*)::text AS n FROM charges WHERE cycle_number = 2 AND status = 'PAID'`)
  if (Number(issued!.n) < n) throw new Error(`only ${issued!.n} of ${n} cycles issued: ${JSON.stringify(reports)}`)

  if (process.env.BENCH_SCANS) console.log(await q(`SELECT relname, seq_scan, seq_tup_read, idx_scan FROM pg_stat_user_tables ORDER BY seq_tup_read DESC LIMIT 8`))
  // Baseline: the same rows, written by INSERT ... SELECT with no logic, in one transaction.
  for (const table of ["charges", "invoices", "invoice_lines", "outbox"]) await q(`CREATE TABLE bench_${table} (LIKE ${table} INCLUDING DEFAULTS)`)
  // And into copies with nothing but the keys any billing schema has: primary keys, one invoice and one
  // charge per cycle, an invoice's charge and a line's invoice existing. No logic, sequential ids.
  await q(`CREATE TABLE bench_keyed_charges (LIKE charges INCLUDING DEFAULTS, PRIMARY KEY (id), UNIQUE (subscription_id, cycle_number))`)
  await q(`CREATE TABLE bench_keyed_invoices (LIKE invoices INCLUDING DEFAULTS, PRIMARY KEY (id), UNIQUE (subscription_id, cycle_number),
    FOREIGN KEY (charge_id) REFERENCES bench_keyed_charges (id))`)
  await q(`CREATE TABLE bench_keyed_invoice_lines (LIKE invoice_lines INCLUDING DEFAULTS, PRIMARY KEY (invoice_id, position),
    FOREIGN KEY (invoice_id) REFERENCES bench_keyed_invoices (id))`)
  await q(`CREATE TABLE bench_keyed_outbox (LIKE outbox INCLUDING DEFAULTS, PRIMARY KEY (id))`)
  const [lines] = await q<{ n: string }>(`SELECT count(*)::text AS n FROM invoice_lines l JOIN invoices i ON i.id = l.invoice_id WHERE i.cycle_number = 2`)
  const [event] = await q<{ body: string }>(`SELECT body FROM outbox WHERE event = 'charge.created' ORDER BY id DESC LIMIT 1`)
  const body = event!.body.replaceAll("'", "''")
  const writeBaseline = async (prefix: string) => {
    const started = performance.now()
    await Effect.runPromise(sql.withTransaction(Effect.gen(function*() {
      yield* sql.unsafe(`INSERT INTO ${prefix}charges (id, account_id, master_account_id, payment_type, status, amount_cents, fee_cents, fee_fixed_cents,
          fee_percent_hundredths, net_cents, txid, emv, customer, due_date, expires_at, attempts, customer_id, subscription_id, cycle_number, created_at, updated_at)
        SELECT 'c' || g, 'acc', 'acc', 'PIX', 'PENDING', 9990, 99, 0, 99, 9891, 'tx' || g, repeat('0', 160), '{"name":"Ana Souza"}', current_date,
          now(), 0, 'cus', 's' || g, 2, now(), now() FROM generate_series(1, ${n}) g`)
      yield* sql.unsafe(`INSERT INTO ${prefix}invoices (id, account_id, subscription_id, cycle_number, invoice_number, status, payment_type, due_date,
          discount_cents, total_cents, charge_id, created_at)
        SELECT 'i' || g, 'acc', 's' || g, 2, g, 'AWAITING_PAYMENT', 'PIX', current_date, 0, 9990, 'c' || g, now() FROM generate_series(1, ${n}) g`)
      yield* sql.unsafe(`INSERT INTO ${prefix}invoice_lines (invoice_id, position, name, product_name, plan_name, type, origin, unit_amount_cents,
          quantity, net_amount_cents, price_id, product_id)
        SELECT 'i' || (g % ${n} + 1), g, 'Plano', 'Plano', 'Plano', 'RECURRING', 'CHECKOUT', 9990, 1, 9990, 'p', 'p'
        FROM generate_series(1, ${Number(lines!.n)}) g`)
      yield* sql.unsafe(`INSERT INTO ${prefix}outbox (account_id, event, body, created_at)
        SELECT 'acc', 'charge.created', '${body}', now() FROM generate_series(1, ${n}) g`)
    })))
    return (performance.now() - started) / 1000
  }
  const baselineSeconds = await writeBaseline("bench_")
  const keyedSeconds = await writeBaseline("bench_keyed_")

  // The floor: the same rows written by INSERT ... SELECT into the engine's own tables, with their keys,
  // indexes, foreign keys and balance checks (the baseline's copies have none): each subscription's cycle 2
  // charge, invoice with its lines and an event copied onto the cycle 3 the run scheduled, in one
  // transaction (each copy its own txid: a Pix txid is unique, migration 0026). What issuing by set-based
  // SQL alone could at best do on this machine.
  const floorStarted = performance.now()
  await Effect.runPromise(sql.withTransaction(Effect.gen(function*() {
    yield* sql.unsafe(`INSERT INTO charges (id, account_id, master_account_id, payment_type, status, amount_cents, fee_cents, fee_fixed_cents,
        fee_percent_hundredths, net_cents, txid, emv, external_txid, description, metadata, customer, due_date, expires_at, attempts, created_at,
        updated_at, customer_id, card, boleto, address, notifications, subscription_id, cycle_number)
      SELECT 'f' || id, account_id, master_account_id, payment_type, 'PENDING', amount_cents, fee_cents, fee_fixed_cents, fee_percent_hundredths,
        net_cents, upper(left(md5('f' || id), length(txid))), emv, external_txid, description, metadata, customer, due_date + 30, expires_at + interval '30 days', 0, now(), now(),
        customer_id, card, boleto, address, notifications, subscription_id, 3
      FROM charges WHERE cycle_number = 2`)
    // Invoices with their lines in one statement, as the engine writes them (their balance is checked per statement).
    yield* sql.unsafe(`WITH invoices_copied AS (INSERT INTO invoices (id, account_id, subscription_id, cycle_number, invoice_number, status,
        payment_type, due_date, discount_cents, total_cents, charge_id, created_at)
      SELECT 'f' || id, account_id, subscription_id, 3, invoice_number + 1000000000, 'AWAITING_PAYMENT', payment_type, due_date + 30,
        discount_cents, total_cents, 'f' || charge_id, now() FROM invoices WHERE cycle_number = 2)
      INSERT INTO invoice_lines (invoice_id, position, name, product_name, plan_name, type, origin, unit_amount_cents,
        quantity, net_amount_cents, price_id, product_id)
      SELECT 'f' || l.invoice_id, l.position, l.name, l.product_name, l.plan_name, l.type, l.origin, l.unit_amount_cents, l.quantity,
        l.net_amount_cents, l.price_id, l.product_id
      FROM invoice_lines l JOIN invoices i ON i.id = l.invoice_id WHERE i.cycle_number = 2`)
    yield* sql.unsafe(`INSERT INTO outbox (account_id, event, body, created_at)
      SELECT account_id, 'charge.created', '${body}', now() FROM charges WHERE cycle_number = 2`)
  })))
  const floorSeconds = (performance.now() - floorStarted) / 1000

  console.log(`billing run: ${n} cycles issued (${paid!.n} cards paid) in ${fmt(seconds)} s wall (${fmt(report.elapsedMs / 1000)} s in the run), ${fmt(n / seconds, 0)} subscriptions/s, peak RSS ${fmt(report.peakRssMb, 0)} MB`)
  console.log(`baseline INSERT ... SELECT of ${n} charges, ${n} invoices, ${lines!.n} lines, ${n} events: ${fmt(baselineSeconds)} s`)
  console.log(`the same into copies with primary keys, unique cycles and an invoice's charge and a line's invoice as foreign keys: ${fmt(keyedSeconds)} s (the ratio of an engine that did nothing else: ${fmt(baselineSeconds / keyedSeconds, 2)})`)
  console.log(`floor: the same rows INSERT ... SELECTed into the engine's own tables (keys, indexes, foreign keys, balance checks): ${fmt(floorSeconds)} s`)
  // The run's own CPU per cycle (its start included): on a shared machine a steadier figure than the wall time.
  const cpuUs = (report.cpuMs * 1000) / n
  // And the database's, when its server runs here: the two together are what a cycle costs the machine.
  const databaseCpuUs = databaseCpuBefore === undefined || databaseCpuAfter === undefined ? undefined : ((databaseCpuAfter - databaseCpuBefore) * 1000) / n
  const databaseCpu = databaseCpuUs === undefined ? "" : ` db_cpu_us=${fmt(databaseCpuUs, 0)}`
  console.log(`RESULT billing-run n=${n}${processes} seconds=${fmt(seconds)} per_s=${fmt(n / seconds, 0)} rss_mb=${fmt(report.peakRssMb, 0)} cpu_us=${fmt(cpuUs, 0)}${databaseCpu} baseline_seconds=${fmt(baselineSeconds)} ratio=${fmt(baselineSeconds / seconds, 2)} keyed_seconds=${fmt(keyedSeconds)} keyed_ratio=${fmt(baselineSeconds / keyedSeconds, 2)} floor_seconds=${fmt(floorSeconds)} floor_ratio=${fmt(floorSeconds / seconds, 2)} pg_buffers=${server!.buffers}`)
} finally {
  await Effect.runPromise(Scope.close(scope, Exit.void))
  await engine.dispose()
}
