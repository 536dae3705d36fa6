/**
 * A worker stopped mid-batch hands its claims back: the rows it claimed go
 * to the next worker at once instead of when the lease runs out. Stopping is
 * what SIGTERM does to the worker's fibers: it interrupts them. The batches
 * are held in flight by a provider that never answers (the test's own
 * provider, behind the port) and interrupted once it was asked; the database
 * shows the claims ended, and the next worker takes the rows at once.
 */
import { Acquirer, Billing, PixProvider } from "@billing/core"
import { Effect, Fiber } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startEngine, type TestEngine } from "./support/Engine.ts"
import { seedDueSubscriptions } from "./support/SeedSubscriptions.ts"

describe("claims handed back by a stopped worker", () => {
  let engine: TestEngine
  beforeAll(async () => {
    engine = await startEngine("postgres")
  })
  afterAll(() => engine?.dispose())

  const count = (query: string) =>
    engine.run(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe<{ n: string }>(query))).then((rows) => Number(rows[0]!.n))

  /** A provider call that never answers, and a promise kept once it was asked: the batch is then held in flight. */
  const silence = () => {
    let asked!: () => void
    const wasAsked = new Promise<void>((resolve) => (asked = resolve))
    return { wasAsked, never: () => Effect.andThen(Effect.sync(() => asked()), Effect.never) }
  }

  /** Runs `batch` until its provider was asked (and so holds its claims), then interrupts it. */
  const interruptWhileAsked = async (batch: Effect.Effect<unknown, unknown, any>, wasAsked: Promise<void>) => {
    const fiber = await engine.run(Effect.forkDetach(batch))
    await wasAsked
    await engine.run(Fiber.interrupt(fiber))
  }

  it("ends a refund's claim when the refund batch is interrupted, so the next batch completes it at once", async () => {
    const account = await engine.createAccount()
    const asMerchant = <A, E>(effect: Effect.Effect<A, E, any>) => engine.run(effect.pipe(Billing.asAccount(account.accountId)))
    const { chargeId } = await asMerchant(Billing.createPixCharge({ amount: 1500 as never }))
    await asMerchant(Billing.requestSandboxPayment(chargeId))
    await engine.run(Billing.confirmSandboxPayments(10))
    const refund = await asMerchant(Billing.requestRefund({ chargeId, reason: "CUSTOMER_REQUEST" }))
    expect(refund.status).toBe("PROCESSING")

    const provider = silence()
    const silent = Effect.map(PixProvider, (pix) => PixProvider.of({ ...pix, returnPix: provider.never }))
    await interruptWhileAsked(
      Effect.flatMap(silent, (pix) => Billing.completeRefunds(10).pipe(Effect.provideService(PixProvider, pix))),
      provider.wasAsked
    )
    expect(await count(`SELECT count(*) AS n FROM refunds WHERE id = '${refund.refundId}' AND claimed_until > now()`)).toBe(0)

    // The next worker's batch takes it now (the lease was a minute) and the sandbox answers.
    expect(await engine.run(Billing.completeRefunds(10))).toBe(1)
    const done = await asMerchant(Billing.getRefunds({ refundId: refund.refundId }))
    expect(done).toMatchObject({ status: "CONFIRMED" })
  })

  it("ends the claims of a billing run's batch interrupted while the acquirer is asked", async () => {
    await seedDueSubscriptions(engine, 9)
    const due = "SELECT count(*) AS n FROM billing_cycles WHERE status = 'SCHEDULED' AND issue_date <= (now() AT TIME ZONE 'America/Sao_Paulo')::date"
    const issuable = await count(due)
    expect(issuable).toBeGreaterThanOrEqual(9)
    const live = "SELECT count(*) AS n FROM billing_cycles WHERE claimed_until > now()"

    const acquirer = silence()
    const silent = Effect.map(Acquirer, (sandbox) => Acquirer.of({ ...sandbox, authorize: acquirer.never }))
    await interruptWhileAsked(Effect.flatMap(silent, (held) => Billing.issueDueCycles(100).pipe(Effect.provideService(Acquirer, held))), acquirer.wasAsked)
    // Interrupted while the acquirer was asked: no claim of the batch is live any more.
    expect(await count(live)).toBe(0)

    // The card cycles the acquirer never answered are the stalled-card job's at once, not a lease later.
    expect(await engine.run(Billing.resumeStalledCards(100))).toBeGreaterThan(0)
  })
})
