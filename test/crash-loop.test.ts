/**
 * The crash loop (`crashloop/`) at the size CI affords: `serve` and two
 * `worker`s on PostgreSQL, killed with SIGKILL and started again for 30
 * seconds while a production merchant takes Pix and cards at the fakes of
 * the provider issues, refunds, withdraws and issues notes at the national
 * system's fake, and the workers bill 2,000
 * subscriptions due today. Once every process is up and the backlog has
 * drained, every invariant of the books holds, by SQL, and the fakes' books
 * agree with ours. `npm run crash-loop` runs any seed, length and size.
 */
import { describe, expect, it } from "vitest"
import { runCrashLoop } from "../crashloop/CrashLoop.ts"

describe("the crash loop on the real processes", () => {
  it("kills serve and both workers under load, and the books hold after the restart", async () => {
    const report = await runCrashLoop({ seed: 1, seconds: 30, cycles: 2_000 })
    expect(report.violations).toEqual([])
    // Each process was killed (the victims go round), and the load met the kills.
    expect(Object.values(report.kills.kills).every((n) => n >= 1)).toBe(true)
    expect(report.load.resent).toBeGreaterThan(0)
    // Callbacks were lost (the poll had to find those Pix), and webhooks reached the merchant.
    expect(report.load.callbacks.lost).toBeGreaterThan(0)
    expect(report.webhooksReceived).toBeGreaterThan(0)
    // Every provider was reached: Pix paid, cards charged, Pix sent out, notes issued.
    expect(Object.values(report.atTheProviders).every((n) => n > 0), JSON.stringify(report.atTheProviders)).toBe(true)
    // The seeded history's own findings (first charges paid in SQL, without their payment entries) were the baseline.
    expect(report.baseline).toBeGreaterThan(0)
  }, 600_000)
})
