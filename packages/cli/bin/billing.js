#!/usr/bin/env node
// Launcher of `billing`: the CLI is TypeScript run by Node's type stripping
// (Node >= 22.18). On an older Node (this machine ships 20) or an unsound one
// (Node 24, src/SoundRuntime.ts) it re-runs itself through scripts/node.sh,
// which provisions Node 26 from the npm registry.
import { spawnSync } from "node:child_process"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const here = dirname(fileURLToPath(import.meta.url))
const [major, minor] = process.versions.node.split(".").map(Number)
const modern = major > 22 || (major === 22 && minor >= 18)
const sound = modern && (await import(join(here, "..", "src", "SoundRuntime.ts"))).unsoundRuntime() === undefined

if (sound) {
  await import(join(here, "..", "src", "main.ts"))
} else {
  const script = join(here, "..", "..", "..", "scripts", "node.sh")
  const run = spawnSync("bash", [script, "node", join(here, "..", "src", "main.ts"), ...process.argv.slice(2)], {
    stdio: "inherit"
  })
  process.exit(run.status ?? 1)
}
