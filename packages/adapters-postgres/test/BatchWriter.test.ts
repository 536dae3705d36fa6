/**
 * Group commit: rows queued together go out in few statements, each caller
 * resumes once its own row is written, and a failing batch fails only the
 * row that is bad.
 */
import { Cause, Deferred, Effect, Exit, Fiber, Scope } from "effect"
import { TestClock } from "effect/testing"
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
    // Under a test clock nobody moves: a writer that waited on a timer for
    // company would never send the row, and the caller would never resume.
    await run(Effect.gen(function*() {
      const write = yield* makeBatchWriter({ writeMany: t.writeMany, writeOne: t.writeOne, writers: 2, maxBatch: 64 })
      yield* write(7)
    }).pipe(Effect.provide(TestClock.layer())))
    expect(t.statements).toEqual([[7]])
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

  it("retries a failed batch with writeOne, row by row: the bad row's caller gets the error, its batch mates are written", async () => {
    const many: Array<ReadonlyArray<number>> = []
    const one: Array<number> = []
    const rows: Array<number> = []
    const outcomes = await run(Effect.gen(function*() {
      const firstStarted = yield* Deferred.make<void>()
      const releaseFirst = yield* Deferred.make<void>()
      const write = yield* makeBatchWriter<number>({
        writeMany: (batch) =>
          Effect.gen(function*() {
            many.push(batch)
            // Holds the first statement until the others are queued, so they form the second batch.
            if (many.length === 1) {
              yield* Deferred.succeed(firstStarted, undefined)
              yield* Deferred.await(releaseFirst)
            }
            if (batch.includes(5)) return yield* Effect.die(new Error("duplicate key value"))
            rows.push(...batch)
          }),
        writeOne: (row) =>
          Effect.suspend(() => {
            one.push(row)
            if (row === 5) return Effect.die(new Error("duplicate key value"))
            rows.push(row)
            return Effect.void
          }),
        writers: 1,
        maxBatch: 64
      })
      // Started at once: each caller has queued its row by the time its fork returns.
      const outcome = (row: number) => Effect.forkChild(Effect.exit(write(row)), { startImmediately: true })
      const first = yield* outcome(0)
      yield* Deferred.await(firstStarted)
      const others = yield* Effect.forEach([1, 2, 3, 4, 5, 6, 7, 8, 9], outcome)
      yield* Deferred.succeed(releaseFirst, undefined)
      return yield* Effect.forEach([first, ...others], Fiber.join)
    }))
    expect(many).toEqual([[0], [1, 2, 3, 4, 5, 6, 7, 8, 9]])
    expect(one).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9])
    expect([...rows].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 6, 7, 8, 9])
    expect(outcomes.map((exit) => exit._tag)).toEqual(["Success", "Success", "Success", "Success", "Success", "Failure", "Success", "Success", "Success", "Success"])
    const failure = outcomes[5]!
    expect(Exit.isFailure(failure) && Cause.pretty(failure.cause)).toContain("duplicate key value")
  })

  it("fails, rather than strands, the callers whose rows are still queued or being written when it shuts down", async () => {
    const exits = await Effect.runPromise(Effect.gen(function*() {
      const scope = yield* Scope.make()
      const started = yield* Deferred.make<void>()
      const write = yield* makeBatchWriter<number>({
        // A statement that never completes: the rows taken by the writer are in flight at shutdown.
        writeMany: () => Effect.andThen(Deferred.succeed(started, undefined), Effect.never),
        writeOne: () => Effect.never,
        writers: 1,
        maxBatch: 2
      }).pipe(Scope.provide(scope))
      const fibers = yield* Effect.forEach([1, 2, 3, 4], (row) => Effect.forkChild(Effect.exit(write(row))))
      yield* Deferred.await(started)
      yield* Scope.close(scope, Exit.void)
      return yield* Effect.forEach(fibers, (fiber) => Effect.timeoutOption(Fiber.join(fiber), 2_000))
    }))
    expect(exits.map((exit) => exit._tag === "Some" && exit.value._tag)).toEqual(["Failure", "Failure", "Failure", "Failure"])
  })

  it("fails only the rows whose statement cannot even be built, and keeps writing the others", async () => {
    const written: Array<number> = []
    // A row whose serialization throws, as JSON.stringify does on a value nested thousands deep.
    const build = (rows: ReadonlyArray<number>) => {
      if (rows.includes(13)) throw new RangeError("Maximum call stack size exceeded")
      return Effect.sync(() => void written.push(...rows))
    }
    const exits = await run(Effect.gen(function*() {
      const write = yield* makeBatchWriter<number>({ writeMany: build, writeOne: (row) => build([row]), writers: 1, maxBatch: 4 })
      const first = yield* Effect.forEach([11, 12, 13, 14], (row) => Effect.exit(write(row)), { concurrency: "unbounded" })
      // The writer is still there for later rows.
      const later = yield* Effect.forEach([21, 22], (row) => Effect.exit(write(row)), { concurrency: "unbounded" })
      return [...first, ...later]
    }))
    expect(exits.map((exit) => exit._tag)).toEqual(["Success", "Success", "Failure", "Success", "Success", "Success"])
    expect([...written].sort((a, b) => a - b)).toEqual([11, 12, 14, 21, 22])
  })

  it("fails the callers of a statement that hangs past its deadline, and goes on with the next rows", async () => {
    const exits = await run(Effect.gen(function*() {
      const write = yield* makeBatchWriter<number>({
        writeMany: (rows) => (rows.includes(1) ? Effect.never : Effect.void),
        writeOne: (row) => (row === 1 ? Effect.never : Effect.void),
        writers: 1,
        maxBatch: 1,
        deadline: "50 millis"
      })
      const hung = yield* Effect.forkChild(Effect.exit(write(1)))
      const next = yield* Effect.exit(write(2))
      return [yield* Fiber.join(hung), next]
    }))
    expect(exits.map((exit) => exit._tag)).toEqual(["Failure", "Success"])
    expect(Exit.isFailure(exits[0]!) && Cause.pretty(exits[0].cause)).toContain("longer than")
  })
})
