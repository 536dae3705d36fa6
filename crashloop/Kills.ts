/**
 * The kills: every so often (a gap the seed draws) one of the engine's
 * processes is killed with SIGKILL and, after a pause the seed also draws,
 * started again. The victims go round in an order the seed shuffles anew
 * each round, and the kills go on past the deadline until each process was
 * killed at least once.
 */
import { setTimeout as pause } from "node:timers/promises"
import * as Random from "../sim/Random.ts"
import type { ProcessName, Supervised } from "./Processes.ts"

export interface KillReport {
  readonly kills: Record<ProcessName, number>
  /** The longest a process stayed down (from its kill until it was up again), in milliseconds. */
  readonly longestDownMillis: number
}

export interface KillOptions {
  readonly seed: number
  readonly until: number
  /** Milliseconds between kills, drawn in this range. */
  readonly gap: readonly [number, number]
  /** Milliseconds a killed process stays down before it is started again. */
  readonly down: readonly [number, number]
  readonly progress?: (line: string) => void
}

const shuffled = <A>(random: Random.Random, items: ReadonlyArray<A>): Array<A> => {
  const out = [...items]
  for (let i = out.length - 1; i > 0; i--) {
    const j = Random.int(random, 0, i)
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}

/** Kills and restarts `processes` until `options.until` (epoch millis) and each was killed; every process is up again when it returns. */
export const runKills = async (processes: ReadonlyArray<Supervised>, options: KillOptions): Promise<KillReport> => {
  const random = Random.stream(options.seed, "kills")
  const kills = Object.fromEntries(processes.map((p) => [p.name, 0])) as Record<ProcessName, number>
  let longestDownMillis = 0
  let round: Array<Supervised> = []
  for (;;) {
    await pause(Random.int(random, ...options.gap))
    if (Date.now() >= options.until && Object.values(kills).every((n) => n > 0)) break
    if (round.length === 0) round = shuffled(random, processes)
    const victim = round.shift()!
    const killedAt = Date.now()
    victim.kill()
    kills[victim.name]++
    options.progress?.(`killed ${victim.name}`)
    await pause(Random.int(random, ...options.down))
    await victim.start()
    options.progress?.(`${victim.name} up again`)
    longestDownMillis = Math.max(longestDownMillis, Date.now() - killedAt)
  }
  return { kills, longestDownMillis }
}
