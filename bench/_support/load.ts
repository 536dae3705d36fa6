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
  /** Every successful call's latency, sorted. */
  readonly latencies: Float64Array
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
  return summarize(Float64Array.from(latencies), failed, (performance.now() - started) / 1000)
}

const summarize = (latencies: Float64Array, failed: number, seconds: number): LoadResult => {
  const sorted = latencies.sort()
  return {
    completed: sorted.length,
    failed,
    seconds,
    perSecond: sorted.length / seconds,
    p50Millis: percentile(sorted, 50),
    p99Millis: percentile(sorted, 99),
    latencies: sorted
  }
}

/** Several runs of one load as if they were one: calls and time add up, percentiles over all calls. */
export const combineLoads = (runs: ReadonlyArray<LoadResult>): LoadResult => {
  const all = new Float64Array(runs.reduce((n, r) => n + r.completed, 0))
  let at = 0
  for (const r of runs) {
    all.set(r.latencies, at)
    at += r.completed
  }
  return summarize(all, runs.reduce((n, r) => n + r.failed, 0), runs.reduce((s, r) => s + r.seconds, 0))
}

export const fmt = (n: number, digits = 1) => n.toFixed(digits)
