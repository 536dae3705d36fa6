/**
 * The engine as an operator runs it, in real processes on one PostgreSQL:
 * `billing serve` (the HTTP server, with the scheduler loops in it, as by
 * default) and two `billing worker`s. Each can be killed with SIGKILL at
 * any moment and started again with the same command and environment, as a
 * supervisor would; `serve` comes back on the same port, so the PSP's
 * registered callback URL and the merchant's base URL stay good.
 */
import { type Running, startBilling } from "../test/support/Cli.ts"

export type ProcessName = "serve" | "worker-1" | "worker-2"

export const PROCESS_NAMES: ReadonlyArray<ProcessName> = ["serve", "worker-1", "worker-2"]

export interface Supervised {
  readonly name: ProcessName
  /** Starts it; resolves once it is up (`serve` listening, a worker running). */
  readonly start: () => Promise<void>
  /** SIGKILL: no handler runs, nothing is flushed, its transactions die with their connections. */
  readonly kill: () => void
  readonly running: () => boolean
  /** SIGTERM, and the exit. */
  readonly stop: () => Promise<void>
}

const supervised = (name: ProcessName, args: ReadonlyArray<string>, ready: RegExp, env: Record<string, string>): Supervised => {
  let current: Running | undefined
  return {
    name,
    start: async () => {
      current = startBilling(args, env)
      await current.waitFor(ready, 60_000)
    },
    kill: () => {
      current?.child.kill("SIGKILL")
      current = undefined
    },
    running: () => current !== undefined,
    stop: async () => {
      await current?.stop()
      current = undefined
    }
  }
}

/** The three processes over `env` (database, key, providers file), `serve` on `port`. */
export const engineProcesses = (env: Record<string, string>, port: number): ReadonlyArray<Supervised> => [
  supervised("serve", ["serve", "--port", String(port)], /billing engine listening/, env),
  supervised("worker-1", ["worker"], /billing worker running/, env),
  supervised("worker-2", ["worker"], /billing worker running/, env)
]
