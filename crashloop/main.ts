/**
 * `npm run crash-loop -- --seed N --seconds S --cycles C`: one crash loop
 * (`CrashLoop.ts`) on the PostgreSQL server of `DATABASE_URL` (the test
 * server by default), its figures and the `RESULT` line; exit code 1 on any
 * violation, each printed with the seed to run again.
 */
import { runCrashLoop } from "./CrashLoop.ts"

const DEFAULTS = { seed: 1, seconds: 60, cycles: 20_000 }

const parseArgs = (argv: ReadonlyArray<string>): typeof DEFAULTS | { readonly error: string } => {
  const options = { ...DEFAULTS }
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i]!.split("=", 2) as [string, string | undefined]
    const name = flag.replace(/^--/, "")
    if (!flag.startsWith("--") || !(name in DEFAULTS)) return { error: `unknown argument ${argv[i]}` }
    const text = inline ?? argv[++i]
    const n = Number(text)
    if (text === undefined || text === "" || !Number.isSafeInteger(n) || n < 0) return { error: `--${name} takes a whole number, not ${text ?? "nothing"}` }
    options[name as keyof typeof DEFAULTS] = n
  }
  return options
}

const options = parseArgs(process.argv.slice(2))
if ("error" in options) {
  console.error(`crash-loop: ${options.error}\nusage: npm run crash-loop -- [--seed N] [--seconds S] [--cycles C]`)
  process.exit(2)
}
const report = await runCrashLoop({ ...options, progress: (line) => console.error(line) })
const kills = Object.entries(report.kills.kills).map(([name, n]) => `${name}:${n}`).join(",")
const operations = Object.entries(report.load.operations).map(([kind, n]) => `${kind}:${n}`).join(",")
console.log(`load ${operations} cut=${report.load.cut} resent=${report.load.resent} callbacks sent=${report.load.callbacks.sent} lost=${report.load.callbacks.lost}`)
console.log(`at the providers ${Object.entries(report.atTheProviders).map(([k, n]) => `${k}=${n}`).join(" ")}`)
console.log(`kills ${kills} longestDownMs=${report.kills.longestDownMillis}`)
console.log(`backlog when the kills ended ${JSON.stringify(report.backlogAtEnd)}, drained in ${report.settleMillis} ms; webhooks received=${report.webhooksReceived}; seeded history's own findings=${report.baseline}; card charges never taken (left to their window)=${report.cardsNeverTaken}`)
for (const v of report.violations) console.log(`  violation ${v.invariant}: ${v.detail}`)
if (report.violations.length > 0) console.log(`FAILED: npm run crash-loop -- --seed ${report.seed} --seconds ${report.seconds} --cycles ${report.cycles}`)
console.log(`RESULT crash-loop seed=${report.seed} seconds=${report.seconds} cycles=${report.cycles} kills=${Object.values(report.kills.kills).reduce((a, b) => a + b, 0)} violations=${report.violations.length} elapsedSeconds=${(report.elapsedMillis / 1000).toFixed(1)}`)
process.exitCode = report.violations.length > 0 ? 1 : 0
