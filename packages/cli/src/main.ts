#!/usr/bin/env node
/**
 * `billing <command>`: serve | worker | migrate | accounts create. Run
 * `billing --help` for the commands and the environment they read.
 */
import { NodeRuntime, NodeServices } from "@effect/platform-node"
import { Effect } from "effect"
import { run } from "./Cli.ts"

NodeRuntime.runMain(run(process.argv.slice(2)).pipe(Effect.provide(NodeServices.layer)))
