// `npm run bench -- <name>` runs bench/<name>.ts; `npm run bench` runs every benchmark in turn.
// Each benchmark is its own process so one cannot warm or pollute the heap of the next.
import { spawnSync } from "node:child_process"
import { readdirSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const here = dirname(fileURLToPath(import.meta.url))
const all = readdirSync(here)
  .filter((f) => f.endsWith(".ts") && f !== "run.ts" && !f.startsWith("_"))
  .map((f) => f.slice(0, -3))
  .sort()
const wanted = process.argv.slice(2)
const names = wanted.length > 0 ? wanted : all
let failed = 0
for (const name of names) {
  if (!all.includes(name)) {
    console.error(`unknown benchmark "${name}"; known: ${all.join(", ")}`)
    process.exit(2)
  }
  console.log(`== bench ${name}`)
  const run = spawnSync(process.execPath, [join(here, `${name}.ts`)], { stdio: "inherit", env: process.env })
  if (run.status !== 0) failed++
}
process.exit(failed === 0 ? 0 : 1)
