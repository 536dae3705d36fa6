/**
 * The deterministic simulator (issue 32): its seeded numbers, fixed seeds
 * run for twenty simulated days with every invariant holding while the
 * world misbehaves (a production merchant's two PSPs down, late, silent or
 * calling twice; its acquirer not answering; its city late or losing
 * answers; the engine's process dying inside a call and starting again),
 * the wider workload (plan changes, coupons, splits to sub-accounts,
 * withdrawals and transfers within and beyond the balance, MED and
 * disputes) happening across the seeds, a seed replayed step for step to
 * the same database, and the checker catching rows corrupted behind the
 * engine's back.
 */
import { Database } from "@billing/adapters-postgres"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import fc from "fast-check"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { parseArgs } from "../sim/Cli.ts"
import { all as everyInvariant, checkAll, paidStatuses } from "../sim/Invariants.ts"
import * as Random from "../sim/Random.ts"
import { run, simulate, type SimResult, withSimulatedTime } from "../sim/Simulation.ts"
import { WorldLive } from "../sim/World.ts"

const SEEDS = [1, 2, 3] as const
const DAYS = 20
/** A seed whose first four days have a paid charge split by a fixed part, an upgrade charged by prorata and a coupon with no limit. */
const CORRUPTED = 2
/** A seed whose first two days leave a production Pix charge expired, with no split. */
const EXPIRED = 4

/** The messages of an error and of its causes, the database's own last. */
const messages = (error: unknown): string => {
  const found: Array<string> = []
  for (let e: unknown = error; e instanceof Error || (typeof e === "object" && e !== null && "cause" in e); e = (e as { cause?: unknown }).cause) {
    if (e instanceof Error) found.push(e.message)
  }
  return found.join(" / ")
}

/** Each seed's run, made once and shared by the tests that look at it. */
const runs = new Map<number, Promise<SimResult>>()
const runOf = (seed: number) => {
  if (!runs.has(seed)) runs.set(seed, run({ seed, days: DAYS }))
  return runs.get(seed)!
}

describe("the simulator's random numbers", () => {
  it("gives xoshiro128**'s sequence from a known state (worked by hand from the reference algorithm)", () => {
    // State (1, 2, 3, 4): rotl(2 * 5, 7) * 9 = 11520; then s1 becomes 0, so 0; then s1 = 1029: rotl(5145, 7) * 9 = 5927040.
    const random = Random.fromState([1, 2, 3, 4])
    expect([random.uint32(), random.uint32(), random.uint32()]).toEqual([11520, 0, 5927040])
  })

  it("law: the same seed and stream name give the same sequence; another name or seed another", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.string(), (seed, name) => {
      const draw = (r: Random.Random) => Array.from({ length: 8 }, () => r.uint32())
      const first = draw(Random.stream(seed, name))
      expect(draw(Random.stream(seed, name))).toEqual(first)
      expect(draw(Random.stream(seed, `${name}'`))).not.toEqual(first)
      expect(draw(Random.stream(seed + 1, name))).not.toEqual(first)
    }))
  })

  it("law: int stays within its bounds, both reachable, and pick only picks what it was given", () => {
    fc.assert(fc.property(fc.integer(), fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: 0, max: 5 }), (seed, min, span) => {
      const random = Random.stream(seed)
      const drawn = Array.from({ length: 200 }, () => Random.int(random, min, min + span))
      expect(drawn.every((n) => Number.isInteger(n) && n >= min && n <= min + span)).toBe(true)
      expect(new Set(drawn)).toEqual(new Set(Array.from({ length: span + 1 }, (_, i) => min + i)))
      expect(["a", "b", "c"]).toContain(Random.pick(random, ["a", "b", "c"]))
    }))
  })

  it("is the only chance in sim/: no Math.random, no Date.now", () => {
    const dir = join(import.meta.dirname, "..", "sim")
    const offenders = readdirSync(dir).filter((file) => /Math\.random|Date\.now/.test(readFileSync(join(dir, file), "utf8")))
    expect(offenders).toEqual([])
  })
})

describe("npm run simulate's arguments", () => {
  it("takes --seed, --days (also as --name=value; 1 and 30 by default), --load and --database, and names what it refuses", () => {
    expect(parseArgs([])).toEqual({ seed: 1, days: 30 })
    expect(parseArgs(["--seed", "42", "--days=7"])).toEqual({ seed: 42, days: 7 })
    expect(parseArgs(["--days", "-1"])).toEqual({ error: "--days takes a whole number, not -1" })
    expect(parseArgs(["--seed"])).toEqual({ error: "--seed takes a whole number, not nothing" })
    expect(parseArgs(["--speed", "3"])).toEqual({ error: "unknown argument --speed" })
    expect(parseArgs(["--database", "postgres://127.0.0.1/test", "--seed=3"])).toStrictEqual({ seed: 3, days: 30, database: "postgres://127.0.0.1/test" })
    expect(parseArgs(["--database", "/tmp/db"])).toEqual({ error: "--database takes a postgres:// URL, not /tmp/db" })
    expect(parseArgs(["--load", "3"])).toStrictEqual({ seed: 1, days: 30, load: 3 })
    expect(parseArgs(["--load", "0"])).toEqual({ error: "--load takes 1 to 20, not 0" })
    expect(parseArgs(["--load=21"])).toEqual({ error: "--load takes 1 to 20, not 21" })
  })
})

describe("simulated days", () => {
  it.each(SEEDS)(`runs seed %i for ${DAYS} days with every invariant holding, through faults and failed webhooks`, async (seed) => {
    const result = await runOf(seed)
    expect({ failedDay: result.failedDay, violations: result.violations, defects: result.defects }).toEqual({ failedDay: null, violations: [], defects: [] })
    // The run did what it claims to check: money moved both ways, subscriptions renewed, faults struck and healed.
    const steps = result.steps.join("\n")
    expect(steps).toMatch(/^pay .* -> requested$/m)
    expect(steps).toMatch(/^refund .* -> \S+ CONFIRMED$/m)
    expect(steps).toMatch(/^subscribe (pix|boleto|creditcard) .* -> (paid|pending) \S+ SANDBOX_sub_/m)
    expect(steps).toMatch(/ -> !PROVIDER_UNAVAILABLE$/m)
    expect(result.receipts.accepted).toBeGreaterThan(0)
  }, 120_000)

  it("struck with every kind of fault across its seeds, and the engine's process died and came back", async () => {
    const results = await Promise.all(SEEDS.map(runOf))
    const struck = (fault: string) => results.reduce((n, r) => n + (r.faults[fault] ?? 0), 0)
    const kinds = ["pspDown", "pspLostBefore", "pspLostAfter", "callbackDuplicate", "callbackEarly", "callbackLost", "cardUnknown", "cityLate", "cityLost", "receiverOutage", "crash"]
    expect(kinds.filter((fault) => struck(fault) === 0)).toEqual([])
    expect(results.reduce((n, r) => n + r.crashes, 0)).toBeGreaterThan(0)
    // The production merchant's buyers paid at its PSPs, and notes were emitted, reissued or canceled.
    const steps = results.flatMap((r) => r.steps).join("\n")
    expect(steps).toMatch(/^pay \S+ at psp-[ab] -> E\w+$/m)
    expect(steps).toMatch(/nota/)
  }, 120_000)

  it("ran the wider workload across its seeds: plan changes, coupons, splits to sub-accounts, withdrawals and transfers, MED and disputes", async () => {
    const steps = (await Promise.all(SEEDS.map(runOf))).flatMap((r) => r.steps)
    const text = steps.join("\n")
    // Up charges a prorata at once; down waits for the next cycle and charges nothing.
    expect(text).toMatch(/^plan up \S+ \S+ -> \S+ -> UPGRADE prorata=[1-9]\d* (paid|pending) \S*cha_\w+ effective=-$/m)
    expect(text).toMatch(/^plan down \S+ \S+ -> \S+ -> DOWNGRADE prorata=- - - effective=\d{4}-\d{2}-\d{2}$/m)
    expect(text).toMatch(/^coupon SIM\d+C\d+ PERCENTAGE \d+ .* -> \S*coup_\w+$/m)
    expect(text).toMatch(/^coupon SIM\d+C\d+ FIXED \d+ .* -> \S*coup_\w+$/m)
    expect(text).toMatch(/^(checkout|subscribe) .* coupon=SIM\d+C\d+.* -> (paid|pending) \S*cha_/m)
    expect(text).toMatch(/^open sub-account \d of \S+ -> \S*acc_\w+ \d+$/m)
    expect(text).toMatch(/^pix \d+ of \S+ split=\d+:\d+(\.\d+)?%? -> \S*cha_\w+$/m)
    expect(text).toMatch(/^withdraw \d+ of \S+ \(available \d+, within\) to \d+ -> SANDBOX_wdr_\w+ PROCESSING$/m)
    expect(text).toMatch(/^transfer \d+ of \S+ \(available \d+, within\) to \d+ -> SANDBOX_trf_\w+ PROCESSING$/m)
    expect(text).toMatch(/^open med (all|\d+) of \S+ -> SANDBOX_med_\w+ OPEN$/m)
    expect(text).toMatch(/^open dispute (all|\d+) of \S+ -> SANDBOX_dis_\w+ OPEN$/m)
    expect(text).toMatch(/^(release|return) med \S+ -> (RELEASED|RETURNED) /m)
    expect(text).toMatch(/^(win|lose) dispute \S+ -> (WON|LOST) /m)
    // Beyond the balance, nothing ever goes out: refused, or the process died before it answered.
    const beyond = steps.filter((line) => /^(withdraw|transfer) .*, beyond\)/.test(line))
    expect(beyond.length).toBeGreaterThan(0)
    expect(beyond.filter((line) => !/ -> (!INSUFFICIENT_BALANCE|~crash at .*)$/.test(line))).toEqual([])
  }, 120_000)

  it("replays a seed step for step: the same operations, the same database", async () => {
    const first = await runOf(SEEDS[0])
    const again = await run({ seed: SEEDS[0], days: DAYS })
    expect(again.steps).toEqual(first.steps)
    expect(again.digestByTable).toEqual(first.digestByTable)
    expect(again.digest).toBe(first.digest)
    // And another seed is another run.
    expect((await runOf(SEEDS[1])).digest).not.toBe(first.digest)
  }, 120_000)

  it("leaves the same database on the PostgreSQL server as in memory, the run's own database dropped after", async () => {
    const server = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test"
    const [inMemory, onServer] = [await run({ seed: 5, days: 6 }), await run({ seed: 5, days: 6, database: server })]
    expect(onServer.violations).toEqual([])
    expect(onServer.steps).toEqual(inMemory.steps)
    expect(onServer.digestByTable).toEqual(inMemory.digestByTable)
    const left = await Effect.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ n: string }>`SELECT count(*)::text AS n FROM pg_database WHERE datname LIKE ${`sim_5_${process.pid}`}`)
      .pipe(Effect.provide(Database.postgres(server, { maxConnections: 1 }))))
    expect(left).toEqual([{ n: "0" }])
  }, 120_000)

  it("has seeds whose receiver failed deliveries that were made good by the end", async () => {
    const failed = await Promise.all(SEEDS.map(async (seed) => (await runOf(seed)).receipts.failed))
    expect(failed.some((n) => n > 0)).toBe(true)
  }, 120_000)
})

describe("the invariants' checker", () => {
  it("reports a split part its receiver was not credited, an upgrade charged off its prorata and a coupon counting a redemption it never had", async () => {
    const outcome = await Effect.runPromise(Effect.gen(function*() {
      const result = yield* simulate({ seed: CORRUPTED, days: 4 })
      const sql = yield* SqlClient.SqlClient
      const before = yield* checkAll(everyInvariant, { final: true })
      // A fixed part of a paid charge one centavo more than its rule and than what its receiver was credited.
      const [part] = yield* sql<{ chargeId: string; position: number; value: string }>`
        SELECT s.charge_id AS "chargeId", s.position, s.value::text AS value FROM charge_splits s JOIN charges c ON c.id = s.charge_id
        WHERE c.status = 'PAID' AND s.type = 'fixed' ORDER BY 1, 2 LIMIT 1`
      yield* sql`UPDATE charge_splits SET amount_cents = amount_cents + 1 WHERE charge_id = ${part!.chargeId} AND position = ${part!.position}`
      // An upgrade's prorata charge 1.00 dearer than the prorata (and its invoice).
      const [upgrade] = yield* sql<{ subscriptionId: string; chargeId: string; prorata: string }>`
        SELECT subscription_id AS "subscriptionId", body::jsonb ->> 'chargeId' AS "chargeId", body::jsonb ->> 'prorataAmount' AS prorata FROM subscription_changes
        WHERE kind = 'PLAN' AND body::jsonb ->> 'type' = 'UPGRADE' AND body::jsonb ->> 'chargeId' IS NOT NULL ORDER BY 1 LIMIT 1`
      yield* sql`UPDATE charges SET amount_cents = amount_cents + 100, net_cents = net_cents + 100 WHERE id = ${upgrade!.chargeId}`
      // A coupon counting one redemption more than it has.
      const [coupon] = yield* sql<{ id: string; counted: number }>`
        UPDATE coupons SET current_redemptions = current_redemptions + 1 WHERE id = (SELECT min(id) FROM coupons WHERE max_redemptions IS NULL)
        RETURNING id, current_redemptions AS counted`
      return { result, before, part: part!, upgrade: upgrade!, coupon: coupon!, after: yield* checkAll(everyInvariant, { final: true }) }
    }).pipe(withSimulatedTime, Effect.provide(WorldLive(CORRUPTED))))

    expect(outcome.result.violations).toEqual([])
    expect(outcome.before).toEqual([])
    const of = (name: string) => outcome.after.filter((v) => v.invariant === name).map((v) => v.detail)
    const value = Number(outcome.part.value)
    expect(of("splitsAddUp").map((d) => JSON.parse(d))).toEqual([
      expect.objectContaining({ id: outcome.part.chargeId, parts: String(value + 1), credited: String(value), ruled: false })
    ])
    const prorata = Number(outcome.upgrade.prorata)
    expect(of("prorataAsRuled")).toEqual([`${outcome.upgrade.subscriptionId} UPGRADE: charged ${prorata + 100} on an invoice of ${prorata} for a prorata of ${prorata}`])
    expect(of("couponsWithinLimits").map((d) => JSON.parse(d))).toEqual([
      { what: "count", id: outcome.coupon.id, counted: String(outcome.coupon.counted), redemptions: String(outcome.coupon.counted - 1), max: null }
    ])
  }, 60_000)

  it("refuses an unbalanced ledger line in the database itself, and reports a charge paid without payment and a webhook never delivered", async () => {
    const outcome = await Effect.runPromise(Effect.gen(function*() {
      const result = yield* simulate({ seed: EXPIRED, days: 2 })
      const sql = yield* SqlClient.SqlClient
      const before = yield* checkAll(everyInvariant, { final: true })
      // One line of +1.00 alone: its entry cannot sum to zero.
      const unbalanced = yield* sql.withTransaction(Effect.gen(function*() {
        const [account] = yield* sql<{ id: string }>`SELECT id FROM accounts ORDER BY id LIMIT 1`
        yield* sql`INSERT INTO ledger_entries (id, account_id, kind, reference_id, created_at) VALUES ('len_corrupt', ${account!.id}, 'PAYMENT', 'corrupt', now())`
        yield* sql`INSERT INTO ledger_lines (id, entry_id, holder, book, amount_cents, category, title, created_at)
          VALUES ('lin_corrupt', 'len_corrupt', 'HOUSE', 'CLEARING', 100, 'PAYMENT', 'corrupt', now())`
      })).pipe(Effect.flip, Effect.map(messages))
      // A production Pix charge never paid (expired, split to no one), set PAID behind the engine's back; a delivered webhook set failed.
      const [unpaid] = yield* sql<{ id: string; paymentType: string }>`
        SELECT c.id, c.payment_type AS "paymentType" FROM charges c JOIN accounts a ON a.id = c.account_id
        WHERE c.status = 'EXPIRED' AND c.status <> ALL (${paidStatuses() as Array<string>}) AND c.payment_type = 'PIX' AND NOT a.sandbox
          AND NOT EXISTS (SELECT 1 FROM charge_splits s WHERE s.charge_id = c.id)
        ORDER BY c.id LIMIT 1`
      yield* sql`UPDATE charges SET status = 'PAID' WHERE id = ${unpaid!.id}`
      const [undelivered] = yield* sql<{ webhookId: string; event: string }>`
        UPDATE webhook_deliveries SET status = 'failed' WHERE seq = (SELECT min(seq) FROM webhook_deliveries WHERE status = 'delivered')
        RETURNING webhook_id AS "webhookId", event`
      return { result, unbalanced, unpaid: unpaid!, undelivered: undelivered!, before, after: yield* checkAll(everyInvariant, { final: true }) }
    }).pipe(withSimulatedTime, Effect.provide(WorldLive(EXPIRED))))

    expect(outcome.result.violations).toEqual([])
    expect(outcome.before).toEqual([])
    expect(outcome.unbalanced).toMatch(/ledger entry len_corrupt does not balance: its lines sum to 100/)
    // The charge set PAID breaks four invariants at once: paid by nothing, expired then paid, paid with no payment.success, paid by no Pix.
    expect(outcome.after.map((v) => v.invariant)).toEqual(["paidOnce", "everyEventDelivered", "oneEventPerChange", "oneEventPerChange", "pixReceivedBehindCredits"])
    expect(JSON.parse(outcome.after[0]!.detail)).toEqual({ id: outcome.unpaid.id, status: "PAID", payment_type: outcome.unpaid.paymentType, payments: 0, end_to_end_id: null })
    expect(JSON.parse(outcome.after[1]!.detail)).toMatchObject({ event: outcome.undelivered.event, webhook: outcome.undelivered.webhookId, status: "failed" })
    expect(outcome.after.slice(2, 4).map((v) => JSON.parse(v.detail))).toEqual([
      { event: "charge.expired", id: outcome.unpaid.id, status: "PAID", events: 1 },
      { event: "payment.success", id: outcome.unpaid.id, status: "PAID", events: 0 }
    ])
    expect(outcome.after[4]!.detail).toBe(`charge ${outcome.unpaid.id} is PAID by no Pix, which no PSP received`)
  }, 60_000)
})
