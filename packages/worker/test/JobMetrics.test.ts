/**
 * What the worker's jobs tell `/metrics`: the rows each drain handled, by
 * job, and how long a drain took; idle drains are not timed.
 */
import { assert, it } from "@effect/vitest"
import { Effect } from "effect"
import { PrometheusMetrics } from "effect/observability"
import { describe } from "vitest"
import { drainLogged } from "../src/ClaimableJob.ts"

/** A job whose batches handle `batches` rows in turn, then none. */
const jobOf = (name: string, batches: ReadonlyArray<number>) => {
  let next = 0
  return { name, batchSize: 10, pollInterval: "1 second", runBatch: () => Effect.sync(() => batches[next++] ?? 0) } as const
}

describe("job metrics", () => {
  it.effect("counts the rows of each drain by job, and times only the drains that handled rows", () =>
    Effect.gen(function*() {
      yield* drainLogged(jobOf("metricsTestA", [10, 10, 3]))
      yield* drainLogged(jobOf("metricsTestA", [2]))
      yield* drainLogged(jobOf("metricsTestB", []))
      const text = yield* PrometheusMetrics.format()
      assert.include(text, `billing_job_rows_total{job="metricsTestA"} 25`)
      assert.include(text, `billing_job_drain_duration_seconds_count{job="metricsTestA"} 2`)
      assert.notInclude(text, `job="metricsTestB"`)
    }))
})
