#!/usr/bin/env node
/**
 * `billing <command>`: serve | worker | migrate | accounts create. Run
 * `billing --help` for the commands and the environment they read.
 */
// Modules of their own, not the package index, which loads every adapter (Redis, sockets, workers): 27 MB of RSS.
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect } from "effect"
import { run } from "./Cli.ts"

NodeRuntime.runMain(run(process.argv.slice(2)).pipe(Effect.provide(NodeServices.layer)))
