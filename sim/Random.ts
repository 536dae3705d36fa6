/**
 * The simulator's only source of chance. A seed names one run: every choice
 * of the workload and of the faults is drawn from streams derived from it,
 * so a failing seed replays the same run, step for step.
 *
 * xoshiro128** (Blackman and Vigna) gives the numbers; splitmix32 spreads a
 * seed (and a stream's name) over its 128 bits of state, which must never be
 * all zero. Written out here rather than taken from a package so that the
 * sequence of a seed can never change under us with a dependency's update.
 */

/** A stream of uniform numbers; each call moves it on. */
export interface Random {
  /** A uniform unsigned 32-bit integer. */
  readonly uint32: () => number
  /** A uniform number in [0, 1), from 32 bits. */
  readonly float: () => number
}

const rotl = (x: number, k: number) => ((x << k) | (x >>> (32 - k))) >>> 0

/** The xoshiro128** generator from its four words of state (not all zero). */
export const fromState = (state: readonly [number, number, number, number]): Random => {
  const s = Uint32Array.from(state)
  const uint32 = () => {
    const result = Math.imul(rotl(Math.imul(s[1], 5) >>> 0, 7), 9) >>> 0
    const t = (s[1] << 9) >>> 0
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = rotl(s[3], 11)
    return result
  }
  return { uint32, float: () => uint32() / 4_294_967_296 }
}

/** splitmix32: one well-mixed word per call from a running counter. */
const splitmix32 = (seed: number) => {
  let state = seed >>> 0
  return () => {
    state = (state + 0x9e3779b9) >>> 0
    let z = state
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0
    return (z ^ (z >>> 16)) >>> 0
  }
}

/** FNV-1a of a stream's name, so that each name starts its own sequence. */
const nameHash = (name: string) => {
  let h = 0x811c9dc5
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0
  return h
}

/**
 * The stream `name` of `seed`. Streams of one seed are independent: the
 * faults drawing one more number never shifts the workload's choices.
 */
export const stream = (seed: number, name = ""): Random => {
  const mix = splitmix32((seed >>> 0) ^ nameHash(name))
  const state: [number, number, number, number] = [mix(), mix(), mix(), mix()]
  if (state.every((word) => word === 0)) state[0] = 1
  return fromState(state)
}

/** A uniform integer in `[min, max]`, both included. */
export const int = (random: Random, min: number, max: number): number => min + Math.floor(random.float() * (max - min + 1))

/** True with probability `p`. */
export const chance = (random: Random, p: number): boolean => random.float() < p

/** One of `items` (not empty), each as likely. */
export const pick = <A>(random: Random, items: ReadonlyArray<A>): A => items[int(random, 0, items.length - 1)]!

/** One of `choices` with probability proportional to its weight (weights positive). */
export const weighted = <A>(random: Random, choices: ReadonlyArray<readonly [A, number]>): A => {
  const total = choices.reduce((sum, [, w]) => sum + w, 0)
  let x = random.float() * total
  for (const [value, w] of choices) {
    if (x < w) return value
    x -= w
  }
  return choices[choices.length - 1]![0]
}
