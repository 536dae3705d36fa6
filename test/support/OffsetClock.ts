import { Clock, Effect } from "effect"

/**
 * The real clock plus an offset the test controls: timers keep running at the
 * real pace (a TestClock would stand a server's still), while every instant
 * read is shifted, so a test can start in 2030 or end a window on demand.
 */
export const offsetClock = (initialOffsetMillis = 0) => {
  const real = Effect.runSync(Clock.clockWith(Effect.succeed))
  let offset = initialOffsetMillis
  const millis = () => real.currentTimeMillisUnsafe() + offset
  const nanos = () => real.currentTimeNanosUnsafe() + BigInt(offset) * 1_000_000n
  const clock: Clock.Clock = {
    currentTimeMillisUnsafe: millis,
    currentTimeMillis: Effect.sync(millis),
    currentTimeNanosUnsafe: nanos,
    currentTimeNanos: Effect.sync(nanos),
    monotonicTimeNanosUnsafe: () => real.monotonicTimeNanosUnsafe(),
    monotonicTimeNanos: real.monotonicTimeNanos,
    sleep: (duration) => real.sleep(duration)
  }
  return { clock, advanceMillis: (ms: number) => void (offset += ms) }
}

/** A clock that reads `start` now and runs at the real pace from there. */
export const clockFrom = (start: number): Clock.Clock =>
  offsetClock(start - Effect.runSync(Clock.currentTimeMillis)).clock
