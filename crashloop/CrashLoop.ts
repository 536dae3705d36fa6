/**
 * The crash loop: the engine's real processes (`serve` and two `worker`s,
 * `Processes.ts`) on one PostgreSQL, against the provider issues' fakes
 * (`Outside.ts`), killed with SIGKILL at moments the seed draws and started
 * again (`Kills.ts`), while a production merchant takes Pix and cards,
 * refunds, withdraws and issues fiscal notes through HTTP (`Load.ts`) and the workers issue a
 * billing run of `cycles` subscriptions due today. Then every process is up,
 * every fault over, the backlog drains (`Backlog.ts`), and the books are
 * checked: the simulator's invariants of the engine's own books, by SQL
 * (`ofTheBooks`, "every webhook arrives at least once" among them), and the
 * fakes' books against ours (`ProviderBooks.ts`).
 *
 * The seed draws the load's choices and the kills' moments and victims;
 * real processes interleave as the machine runs them, so two runs of a seed
 * are alike, not identical (the in-process simulator is the one that
 * replays a seed step for step).
 */
import { setTimeout as pause } from "node:timers/promises"
import { createServer } from "node:net"
import { Effect, Layer } from "effect"
import { MERCHANT_CNPJ } from "../packages/providers/test/support/TestCertificates.ts"
import { runBilling } from "../test/support/Cli.ts"
import { startEngine, TEST_SECRET_KEY, type TestEngine } from "../test/support/Engine.ts"
import { nationalConfigBody } from "../test/support/NationalConfig.ts"
import { seedDueSubscriptions } from "../test/support/SeedSubscriptions.ts"
import { checkAll, ofTheBooks, Receipts, type Violation } from "../sim/Invariants.ts"
import { type Backlog, backlog, isDrained, unansweredCards } from "./Backlog.ts"
import { type KillReport, runKills } from "./Kills.ts"
import { type LoadReport, runLoad } from "./Load.ts"
import { type Outside, startOutside } from "./Outside.ts"
import { engineProcesses, type Supervised } from "./Processes.ts"
import { providerBooksAgree } from "./ProviderBooks.ts"
import { receiptsOf } from "./Receipts.ts"

export interface CrashLoopOptions {
  readonly seed: number
  /** How long the load and the kills go on. */
  readonly seconds: number
  /** Subscriptions due today, for the workers' billing run. */
  readonly cycles: number
  /** Merchant integrations calling side by side. */
  readonly lanes?: number
  /** How long the backlog may take to drain once the kills are over. */
  readonly settleSeconds?: number
  /** Where each phase's start is told (the CLI prints it; a test says nothing). */
  readonly progress?: (line: string) => void
}

export interface CrashLoopReport {
  readonly seed: number
  readonly seconds: number
  readonly cycles: number
  readonly load: LoadReport
  readonly kills: KillReport
  /** What was left in flight when the kills ended, and how long it took to drain. */
  readonly backlogAtEnd: Backlog
  readonly settleMillis: number
  /** Card charges whose request died before Mercado Pago took it: \`PROCESSING\` until their answer window ends (15 minutes), then expired. */
  readonly cardsNeverTaken: number
  readonly webhooksReceived: number
  /** What reached the fakes: Pix paid at the PSP, payments Mercado Pago made, Pix the PSP sent, DPS the national system received. */
  readonly atTheProviders: { readonly pixReceived: number; readonly cardPayments: number; readonly pixSent: number; readonly dpsReceived: number }
  /** What the books' checks found in the seeded history before any process started, which the loop must not add to. */
  readonly baseline: number
  readonly violations: ReadonlyArray<Violation>
  readonly elapsedMillis: number
}

/** A port free now, for `serve` to take again after each restart. */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

/**
 * The production merchant (the CNPJ of the test PKI's certificate, which
 * signs its notes), its token, its webhook registration's secret (every
 * event to the receiver), and its note configuration (notes after payment).
 */
const openMerchant = async (engine: TestEngine, outside: Outside) => {
  const account = await engine.createAccount({ name: "Loja Exemplo Ltda", document: MERCHANT_CNPJ, sandbox: false })
  const token = await engine.token(account)
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${engine.baseUrl}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body)
    })
    if (response.status !== 200 && response.status !== 201) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`)
    return (await response.json()) as { readonly secret: string; readonly id: string }
  }
  const { secret } = await post("/v1/users/webhooks", { url: outside.receiver.url })
  const config = await post("/v1/invoices/notas/config", nationalConfigBody(outside.pki, { invoiceTiming: "AFTER_CONFIRMATION" }))
  return { token, document: MERCHANT_CNPJ, secret, nfConfigId: config.id }
}

const booksHold = (options: { readonly final: boolean }, receipts: Layer.Layer<Receipts>) =>
  checkAll(ofTheBooks, options).pipe(Effect.provide(receipts))

const noReceipts = Layer.succeed(Receipts, Receipts.of({ all: () => [] }))

/**
 * The violations of `after` that were not in `before`: the seeded
 * subscriptions' history is written in SQL (`SeedSubscriptions.ts`), its
 * first charges paid without a payment entry or event, and those rows are
 * not the loop's doing. A seeded row the loop changed shows again, as new.
 */
const newSince = (before: ReadonlyArray<Violation>, after: ReadonlyArray<Violation>) => {
  const known = new Set(before.map((v) => `${v.invariant}\n${v.detail}`))
  return after.filter((v) => !known.has(`${v.invariant}\n${v.detail}`))
}

/** Waits for the backlog to drain, the PSP settling its sends meanwhile; answers what was left at first. */
const settle = async (engine: TestEngine, outside: Outside, env: Record<string, string>, seconds: number) => {
  const startedAt = Date.now()
  const taken = (chargeId: string) => outside.mercadoPago.paymentsOf(chargeId).length > 0
  const atEnd = await engine.run(backlog(taken))
  outside.settleSends()
  // What an operator runs after an outage: one pass of every job, the PSP's received Pix polled at once.
  const pass = await runBilling(["run"], env, 120_000)
  if (pass.status !== 0) throw new Error(`billing run failed: ${pass.stdout}${pass.stderr}`)
  for (let now = await engine.run(backlog(taken)); !isDrained(now); now = await engine.run(backlog(taken))) {
    if (Date.now() - startedAt > seconds * 1000) throw new Error(`the backlog did not drain in ${seconds} s: ${JSON.stringify(now)}`)
    outside.settleSends()
    await pause(500)
  }
  return { atEnd, settleMillis: Date.now() - startedAt, cardsNeverTaken: (await engine.run(unansweredCards)).length }
}

/** The load and the kills side by side until the deadline; every process is up again when it returns. */
const underKills = async (options: CrashLoopOptions, processes: ReadonlyArray<Supervised>, load: Parameters<typeof runLoad>[0], say: (line: string) => void) => {
  const [loadReport, kills] = await Promise.all([
    runLoad(load).finally(() => say("load over")),
    runKills(processes, { seed: options.seed, until: load.until, gap: [1_000, 4_000], down: [100, 1_500], progress: say })
  ])
  return { load: loadReport, kills }
}

/** One crash loop of `options`, on a fresh database dropped at the end; its report (violations empty when the books hold). */
export const runCrashLoop = async (options: CrashLoopOptions): Promise<CrashLoopReport> => {
  const startedAt = Date.now()
  const port = await freePort()
  const outside = await startOutside(`http://127.0.0.1:${port}`)
  const engine = await startEngine("postgres")
  const databaseUrl = (engine.config as { databaseUrl: string }).databaseUrl
  const env = { DATABASE_URL: databaseUrl, BILLING_SECRET_KEY: TEST_SECRET_KEY, BILLING_CLAIM_LEASE_SECONDS: "5", ...outside.env }
  const processes = engineProcesses(env, port)
  try {
    const say = (line: string) => options.progress?.(`${new Date().toISOString().slice(11, 23)} ${((Date.now() - startedAt) / 1000).toFixed(1)} s: ${line}`)
    const merchant = await openMerchant(engine, outside)
    say(`seeding ${options.cycles} subscriptions due today`)
    await seedDueSubscriptions(engine, options.cycles)
    const baseline = await engine.run(booksHold({ final: false }, noReceipts))
    say("starting serve and two workers")
    await Promise.all(processes.map((p) => p.start()))
    say(`load and kills for ${options.seconds} s`)
    const until = Date.now() + options.seconds * 1000
    const ran = await underKills(options, processes, {
      merchant: { baseUrl: `http://127.0.0.1:${port}`, token: merchant.token, document: merchant.document, nfConfigId: merchant.nfConfigId },
      outside,
      seed: options.seed,
      lanes: options.lanes ?? 3,
      until
    }, say)
    say("every process up: draining the backlog")
    const settled = await settle(engine, outside, env, options.settleSeconds ?? 180)
    say("checking the books")
    const receipts = await receiptsOf(outside.receiver, merchant.secret)
    const violations = newSince(baseline, await engine.run(booksHold({ final: true }, receipts.layer)))
    const disagreements = await engine.run(providerBooksAgree(outside))
    return {
      seed: options.seed,
      seconds: options.seconds,
      cycles: options.cycles,
      ...ran,
      backlogAtEnd: settled.atEnd,
      settleMillis: settled.settleMillis,
      cardsNeverTaken: settled.cardsNeverTaken,
      webhooksReceived: receipts.count,
      atTheProviders: {
        pixReceived: outside.psp.book.pix.length,
        cardPayments: outside.mercadoPago.paymentsCreated(),
        pixSent: outside.psp.book.sent.size,
        dpsReceived: outside.sefin.books.dps.size
      },
      baseline: baseline.length,
      violations: [
        ...violations,
        ...disagreements.map((detail) => ({ invariant: "providerBooksAgree", detail })),
        ...ran.load.defects.map((detail) => ({ invariant: "documentedAnswers", detail }))
      ],
      elapsedMillis: Date.now() - startedAt
    }
  } finally {
    for (const p of processes) p.kill()
    await engine.dispose()
    await outside.close()
  }
}
