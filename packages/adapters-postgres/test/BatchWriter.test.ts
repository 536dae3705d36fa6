/**
 * Group commit: rows queued together go out in few statements, each caller
 * resumes once its own row is written, and a failing batch fails only the
 * row that is bad.
 */
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { makeBatchWriter } from "../src/BatchWriter.ts"

/** A fake table: records every statement, takes `latency` ms per statement, dies on rows in `bad`. */
const table = (options: { readonly latencyMillis: number; readonly bad?: ReadonlySet<number> }) => {
  const statements: Array<ReadonlyArray<number>> = []
  const rows: Array<number> = []
  const write = (batch: ReadonlyArray<number>) =>
    Effect.gen(function*() {
      statements.push(batch)
      yield* Effect.sleep(options.latencyMillis)
      // All or nothing, as one INSERT statement is.
      if (batch.some((row) => options.bad?.has(row))) return yield* Effect.die(new Error("constraint violated"))
      rows.push(...batch)
    })
  return { statements, rows, writeMany: write, writeOne: (row: number) => write([row]) }
}

const run = <A, E>(effect: Effect.Effect<A, E, any>) => Effect.runPromise(Effect.scoped(effect) as Effect.Effect<A, E, never>)

describe("BatchWriter (group commit)", () => {
  it("writes 50 concurrent rows exactly once each, in far fewer statements than rows", async () => {
    const t = table({ latencyMillis: 5 })
    await run(Effect.gen(function*() {
      const write = yield* makeBatchWriter({ writeMany: t.writeMany, writeOne: t.writeOne, writers: 2, maxBatch: 64 })
      yield* Effect.forEach(Array.from({ length: 50 }, (_, i) => i), write, { concurrency: "unbounded" })
    }))
    expect([...t.rows].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i))
    // While the first statements are in flight the rest queue behind them.
    expect(t.statements.length).toBeLessThanOrEqual(4)
  })

  it("resumes a caller only once its own row is written", async () => {
    const t = table({ latencyMillis: 20 })
    const seen = await run(Effect.gen(function*() {
      const write = yield* makeBatchWriter({ writeMany: t.writeMany, writeOne: t.writeOne, writers: 1, maxBatch: 64 })
      return yield* Effect.forEach([1, 2, 3], (row) => Effect.map(write(row), () => t.rows.includes(row)), { concurrency: "unbounded" })
    }))
    expect(seen).toEqual([true, true, true])
  })

  it("sends a lone row at once, without waiting for company", async () => {
    const t = table({ latencyMillis: 0 })
    const started = performance.now()
    await run(Effect.gen(function*() {
      const write = yield* makeBatchWriter({ writeMany: t.writeMany, writeOne: t.writeOne, writers: 2, maxBatch: 64 })
      yield* write(7)
    }))
    expect(t.statements).toEqual([[7]])
    expect(performance.now() - started).toBeLessThan(100)
  })

  it("never puts more than maxBatch rows in one statement", async () => {
    const t = table({ latencyMillis: 5 })
    await run(Effect.gen(function*() {
      const write = yield* makeBatchWriter({ writeMany: t.writeMany, writeOne: t.writeOne, writers: 1, maxBatch: 8 })
      yield* Effect.forEach(Array.from({ length: 60 }, (_, i) => i), write, { concurrency: "unbounded" })
    }))
    expect(t.rows).toHaveLength(60)
    expect(Math.max(...t.statements.map((s) => s.length))).toBeLessThanOrEqual(8)
  })

  it("fails only the caller of a bad row: the others of its batch are written one by one", async () => {
    const t = table({ latencyMillis: 5, bad: new Set([13]) })
    const outcomes = await run(Effect.gen(function*() {
      const write = yield* makeBatchWriter({ writeMany: t.writeMany, writeOne: t.writeOne, writers: 1, maxBatch: 64 })
      return yield* Effect.forEach(
        Array.from({ length: 30 }, (_, i) => i),
        (row) => write(row).pipe(Effect.exit, Effect.map((exit) => [row, exit._tag] as const)),
        { concurrency: "unbounded" }
      )
    }))
    expect(outcomes.filter(([, tag]) => tag === "Failure").map(([row]) => row)).toEqual([13])
    expect([...t.rows].sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i).filter((i) => i !== 13))
  })
})
