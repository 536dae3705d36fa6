/**
 * Ids that a seed decides: the engine's `Ids` port with the clock's
 * millisecond first (ids still sort in the order they were made, as the
 * engine's keyset pages expect) and a counter where the real layer puts
 * random characters. Secrets come from the seed's own stream.
 */
import { Ids } from "@billing/core"
import { Clock, Effect, Layer } from "effect"
import * as Random from "./Random.ts"

const TIME_DIGITS = 9
const COUNTER_DIGITS = 12

const hex = (random: Random.Random, bytes: number) => {
  let out = ""
  for (let i = 0; i < bytes; i++) out += (random.uint32() & 0xff).toString(16).padStart(2, "0")
  return out
}

/** The `Ids` of a run of `seed`: the same calls in the same order give the same ids. */
export const layer = (seed: number) =>
  Layer.sync(Ids, () => {
    const random = Random.stream(seed, "ids")
    let counter = 0
    return Ids.of({
      make: (prefix, options) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          counter++
          const time = Math.max(0, Math.floor(now)).toString(36).padStart(TIME_DIGITS, "0")
          return `${options?.sandbox ? "SANDBOX_" : ""}${prefix}_${time}${counter.toString(36).padStart(COUNTER_DIGITS, "0")}`
        }),
      randomHex: (bytes) => Effect.sync(() => hex(random, bytes))
    })
  })
