/**
 * Ids sort in the order they were made (what keeps primary keys growing at
 * their right edge), carry the account's sandbox prefix, and never repeat.
 */
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { ChargeIds, InvoiceIds } from "../../src/domain/Ids.ts"
import { Ids, timeOrdered } from "../../src/ports/Ids.ts"

const bytewise = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b))

describe("Ids", () => {
  it("orders ids of a later millisecond after those of an earlier one, byte by byte and by locale", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 2 ** 45 }), fc.integer({ min: 1, max: 2 ** 40 }), (earlier, gap) => {
      const [a, b] = [timeOrdered(earlier), timeOrdered(earlier + gap)]
      expect(bytewise(a, b)).toBeLessThan(0)
      expect(a.localeCompare(b, "en")).toBeLessThan(0)
    }))
  })

  it("is 21 base 36 characters, the first nine the millisecond's", () => {
    // Read back by parseInt: the inverse of the encoding, not the encoding itself.
    const at = Date.UTC(2026, 10, 26)
    const id = timeOrdered(at)
    expect(id).toMatch(/^[0-9a-z]{21}$/)
    expect(parseInt(id.slice(0, 9), 36)).toBe(at)
    expect(timeOrdered(-5).slice(0, 9)).toBe("000000000")
  })

  it("makes distinct prefixed ids within one millisecond, on the clock's time", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.UTC(2026, 10, 26))
      const ids = yield* Ids
      const made = yield* Effect.forEach(Array.from({ length: 10_000 }), () => ids.make(ChargeIds, { sandbox: true }))
      expect(new Set(made).size).toBe(made.length)
      for (const id of made) expect(id).toMatch(/^SANDBOX_cha_[0-9a-z]{21}$/)
      expect(parseInt(made[0]!.slice("SANDBOX_cha_".length, "SANDBOX_cha_".length + 9), 36)).toBe(Date.UTC(2026, 10, 26))
      expect(yield* ids.make(InvoiceIds)).toMatch(/^inv_/)
    }).pipe(Effect.provide(Ids.layer), Effect.provide(TestClock.layer()), Effect.runPromise))
})
