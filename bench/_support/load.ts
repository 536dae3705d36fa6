/**
 * A closed-loop load generator: `concurrency` workers each run `task` back to
 * back for `durationMillis`, and the latency of every call is recorded.
 * Used by the HTTP benchmarks and by their database baselines alike, so both
 * figures of a run are measured the same way.
 */
export interface LoadResult {
  readonly completed: number
  readonly failed: number
  readonly seconds: number
  readonly perSecond: number
  readonly p50Millis: number
  readonly p99Millis: number
}

const percentile = (sorted: Float64Array, p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!

export const runLoad = async (options: {
  readonly concurrency: number
  readonly durationMillis: number
  readonly task: (worker: number, n: number) => Promise<boolean>
}): Promise<LoadResult> => {
  const latencies: Array<number> = []
  let failed = 0
  const started = performance.now()
  const deadline = started + options.durationMillis
  const worker = async (w: number) => {
    let n = 0
    while (performance.now() < deadline) {
      const t0 = performance.now()
      let ok = false
      try {
        ok = await options.task(w, n++)
      } catch {
        ok = false
      }
      if (ok) latencies.push(performance.now() - t0)
      else failed++
    }
  }
  await Promise.all(Array.from({ length: options.concurrency }, (_, w) => worker(w)))
  const seconds = (performance.now() - started) / 1000
  const sorted = Float64Array.from(latencies).sort()
  return {
    completed: latencies.length,
    failed,
    seconds,
    perSecond: latencies.length / seconds,
    p50Millis: percentile(sorted, 50),
    p99Millis: percentile(sorted, 99)
  }
}

export const fmt = (n: number, digits = 1) => n.toFixed(digits)
