#!/usr/bin/env node
// Launcher of `billing`: the CLI is TypeScript run by Node's type stripping
// (Node >= 22.18). On an older Node (this machine ships 20) it re-runs itself
// through scripts/node24.sh, which provisions Node 24 from the npm registry.
import { spawnSync } from "node:child_process"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const here = dirname(fileURLToPath(import.meta.url))
const [major, minor] = process.versions.node.split(".").map(Number)
const modern = major > 22 || (major === 22 && minor >= 18)

if (modern) {
  await import(join(here, "..", "src", "main.ts"))
} else {
  const script = join(here, "..", "..", "..", "scripts", "node24.sh")
  const run = spawnSync("bash", [script, "node", join(here, "..", "src", "main.ts"), ...process.argv.slice(2)], {
    stdio: "inherit"
  })
  process.exit(run.status ?? 1)
}
