/**
 * Ids that a seed decides: the engine's `Ids` port with the clock's
 * millisecond first (ids still sort in the order they were made, as the
 * engine's keyset pages expect) and a counter where the real layer puts
 * random characters. Secrets come from the seed's own stream.
 *
 * The counter lives outside the engine's process: a process started again
 * after a crash draws new ids, as a real one draws new random characters,
 * never one the dead process already used. Drawing an id is also a point
 * where the process may die (`Crash`): use cases draw theirs inside and
 * outside their transactions.
 */
import { Ids } from "@billing/core"
import { Clock, Effect, Layer, Random as EffectRandom } from "effect"
import { Crash } from "./Crash.ts"
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
  Layer.effect(Ids, Effect.gen(function*() {
    const crash = yield* Crash
    const random = Random.stream(seed, "ids")
    let counter = 0
    return Ids.of({
      make: (kind, options) =>
        Effect.andThen(crash.point(`id ${kind.prefix}`), Clock.currentTimeMillis).pipe(Effect.map((now) => {
          counter++
          const time = Math.max(0, Math.floor(now)).toString(36).padStart(TIME_DIGITS, "0")
          return kind.schema.make(`${options?.sandbox ? "SANDBOX_" : ""}${kind.prefix}_${time}${counter.toString(36).padStart(COUNTER_DIGITS, "0")}`)
        })),
      randomHex: (bytes) => Effect.andThen(crash.point("random"), Effect.sync(() => hex(random, bytes)))
    })
  }))

/**
 * Effect's `Random` from the seed's own stream: what the engine draws with it
 * (a sandbox account's Pix key, hence its BR Codes) is the same on every run.
 */
export const randomLayer = (seed: number) =>
  Layer.sync(EffectRandom.Random, () => {
    const random = Random.stream(seed, "engine-random")
    return {
      nextDoubleUnsafe: () => random.float(),
      // 53 bits from two draws, as a safe integer.
      nextIntUnsafe: () => (random.uint32() & 0x1fffff) * 4_294_967_296 + random.uint32()
    }
  })
