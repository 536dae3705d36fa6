#!/usr/bin/env node
/**
 * `billing <command>`: serve | worker | migrate | accounts create. Run
 * `billing --help` for the commands and the environment they read.
 */
// Modules of their own, not the package index, which loads every adapter (Redis, sockets, workers): 27 MB of RSS.
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect, Runtime } from "effect"
import { run } from "./Cli.ts"

// The first SIGTERM or SIGINT starts a graceful stop (runMain interrupts the command: requests in flight are
// answered, leases handed back); it may wait for them, so a second signal exits at once (128 + the signal's number).
let signals = 0
let stoppedBy: number | undefined
for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
  process.on(signal, () => {
    stoppedBy ??= code
    if (++signals > 1) process.exit(code)
  })
}

// A command stopped by a signal exits with that signal's code (143 for SIGTERM, as supervisors expect), not
// Effect's 130 for any interruption; every other end as Effect's default.
const teardown: Runtime.Teardown = (exit, onExit) =>
  Runtime.defaultTeardown(exit, (code) => onExit(code === 130 && stoppedBy !== undefined ? stoppedBy : code))

NodeRuntime.runMain(run(process.argv.slice(2)).pipe(Effect.provide(NodeServices.layer)), { teardown })
