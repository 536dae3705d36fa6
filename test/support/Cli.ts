/**
 * The `billing` command as an operator runs it: real processes, spawned with
 * this Node, their output collected.
 */
import { type ChildProcess, spawn } from "node:child_process"

export const main = "packages/cli/src/main.ts"

export interface Finished {
  readonly status: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Runs `billing args` to its end without blocking the event loop (a server spawned earlier keeps answering). */
export const runBilling = (args: ReadonlyArray<string>, env: Record<string, string | undefined> = {}, timeoutMs = 60_000) =>
  new Promise<Finished>((resolve, reject) => {
    const child = spawn(process.execPath, [main, ...args], { env: { ...process.env, ...env } })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`billing ${args.join(" ")} did not finish: ${stdout}${stderr}`))
    }, timeoutMs)
    child.on("exit", (status) => {
      clearTimeout(timer)
      // Let the pipes drain after the exit.
      setImmediate(() => resolve({ status, stdout, stderr }))
    })
  })

export interface Running {
  readonly child: ChildProcess
  readonly stdout: () => string
  readonly stderr: () => string
  /** Resolves with stdout once it matches `pattern`. */
  readonly waitFor: (pattern: RegExp, timeoutMs?: number) => Promise<RegExpMatchArray>
  /** Sends SIGTERM and resolves with the exit code. */
  readonly stop: () => Promise<number | null>
}

/** Starts a long-running `billing` command (serve, worker). */
export const startBilling = (args: ReadonlyArray<string>, env: Record<string, string | undefined> = {}): Running => {
  const child = spawn(process.execPath, [main, ...args], { env: { ...process.env, ...env } })
  let stdout = ""
  let stderr = ""
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code, signal) => resolve(code ?? (signal ? 128 : null))))
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    waitFor: (pattern, timeoutMs = 30_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const match = stdout.match(pattern)
          if (match === null) return false
          cleanup()
          resolve(match)
          return true
        }
        const onExit = () => {
          cleanup()
          reject(new Error(`billing ${args.join(" ")} exited before printing ${pattern}: ${stdout}${stderr}`))
        }
        const timer = setTimeout(() => {
          cleanup()
          reject(new Error(`billing ${args.join(" ")} did not print ${pattern}: ${stdout}${stderr}`))
        }, timeoutMs)
        const cleanup = () => {
          clearTimeout(timer)
          child.stdout!.off("data", check)
          child.off("exit", onExit)
        }
        if (check()) return
        child.stdout!.on("data", check)
        child.once("exit", onExit)
      }),
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM")
      return exited
    }
  }
}
