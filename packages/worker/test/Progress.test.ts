/**
 * Worker job progress in the logs: one `Debug` line per drain that handled
 * rows (job, rows, duration), none for an idle poll.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Logger, References } from "effect"
import { type ClaimableJob, drainLogged } from "../src/ClaimableJob.ts"

interface Entry {
  readonly level: string
  readonly message: unknown
  readonly annotations: Readonly<Record<string, unknown>>
}

describe("worker job progress", () => {
  it.effect("a drain that handled rows logs job, rows and duration once at Debug; an idle one logs nothing", () => {
    const entries: Array<Entry> = []
    const logger = Logger.make(({ fiber, logLevel, message }) => {
      entries.push({ level: logLevel, message: (message as ReadonlyArray<unknown>)[0], annotations: { ...fiber.getRef(References.CurrentLogAnnotations) } })
    })
    let pending = 250
    const job: ClaimableJob = {
      name: "expiry",
      batchSize: 100,
      pollInterval: "1 second",
      runBatch: (limit) =>
        Effect.sync(() => {
          const claimed = Math.min(limit, pending)
          pending -= claimed
          return claimed
        })
    }
    return Effect.gen(function*() {
      assert.strictEqual(yield* drainLogged(job), 250)
      assert.deepStrictEqual(entries, [{
        level: "Debug",
        message: "expiry: 250 rows in 0ms",
        annotations: { job: "expiry", rows: 250, durationMs: 0 }
      }])
      assert.strictEqual(yield* drainLogged(job), 0)
      assert.strictEqual(entries.length, 1)
    }).pipe(Effect.provide(Layer.mergeAll(Logger.layer([logger]), Layer.succeed(References.MinimumLogLevel, "Debug"))))
  })
})
