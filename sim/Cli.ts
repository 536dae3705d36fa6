/**
 * `npm run simulate -- --seed N --days D`: one run, a line per day, and the
 * `RESULT` line; exit code 1 on any violation or defect, naming the seed
 * and the day so that the run can be replayed.
 */
import { performance } from "node:perf_hooks"
import { FINDINGS, knownIssueOf } from "./Findings.ts"
import { type DayReport, run, type SimResult } from "./Simulation.ts"

export interface CliOptions {
  readonly seed: number
  readonly days: number
  /** A PostgreSQL server's URL (`--database`): the run's database is made there instead of in memory. */
  readonly database?: string
  /** Operations a day as a multiple of the default (`--load`, 1 to 20). */
  readonly load?: number
}

const NUMBERS = ["seed", "days", "load"] as const
/** A day has 750 minutes an operation may fall on; 20 × 10 of them still leaves room to draw. */
const MAX_LOAD = 20

/**
 * `--seed N --days D [--load K] [--database URL]` (also `--name=value`);
 * seed 1 and 30 days when absent. Answers the options, or what is wrong
 * with `argv`.
 */
export const parseArgs = (argv: ReadonlyArray<string>): CliOptions | { readonly error: string } => {
  const numbers: Record<string, number> = { seed: 1, days: 30 }
  let database: string | undefined
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i]!.split("=", 2) as [string, string | undefined]
    const name = flag.replace(/^--/, "")
    if (!flag.startsWith("--") || !(name === "database" || (NUMBERS as ReadonlyArray<string>).includes(name))) return { error: `unknown argument ${argv[i]}` }
    const text = inline ?? argv[++i]
    if (name === "database") {
      if (text === undefined || !/^postgres(ql)?:\/\//.test(text)) return { error: `--database takes a postgres:// URL, not ${text ?? "nothing"}` }
      database = text
      continue
    }
    const n = Number(text)
    if (text === undefined || text === "" || !Number.isSafeInteger(n) || n < 0) return { error: `--${name} takes a whole number, not ${text ?? "nothing"}` }
    if (name === "load" && (n < 1 || n > MAX_LOAD)) return { error: `--load takes 1 to ${MAX_LOAD}, not ${text}` }
    numbers[name] = n
  }
  const load = numbers.load === undefined ? {} : { load: numbers.load }
  return { seed: numbers.seed!, days: numbers.days!, ...load, ...(database === undefined ? {} : { database }) }
}

const dayLine = (r: DayReport) => {
  const c = r.counts
  const outage = r.outage === undefined ? "" : ` outage=${r.outage.mode}`
  const pspOutage = r.pspOutage === undefined ? "" : ` ${r.pspOutage.psp}=down`
  return `day ${String(r.day).padStart(3)}: operations=${r.operations} charges=${c.charges} paid=${c.paid} refunds=${c.refunds} ` +
    `subscriptions=${c.subscriptions} invoices=${c.invoices} notas=${c.notas} events=${c.events} delivered=${c.delivered} failed=${c.failed} ` +
    `crashes=${r.crashes} warnings=${r.warnings.length}${outage}${pspOutage}`
}

const failureReport = (result: SimResult): ReadonlyArray<string> => [
  `FAILED seed=${result.seed} day=${result.failedDay}`,
  ...result.violations.map((v) => `  violation ${v.invariant}: ${v.detail}`),
  ...result.defects.map((d) => `  defect ${d}`),
  ...result.engineLog.slice(-20).map((l) => `  engine ${l.level}: ${l.message}`),
  `  replay: npm run simulate -- --seed ${result.seed} --days ${result.days}`
]

/** The known engine issues the run met (`Findings.ts`), with how often and the first occurrence. */
const knownReport = (result: SimResult): ReadonlyArray<string> =>
  FINDINGS.flatMap((finding) => {
    const seen = result.known.filter((v) => knownIssueOf(v) === finding.id)
    return seen.length === 0 ? [] : [`known engine issue ${finding.id}: ${seen.length} occurrence(s), first: ${seen[0]!.detail}`]
  })

/** Runs the simulation of `argv`; answers the process's exit code. */
export const main = async (argv: ReadonlyArray<string>): Promise<number> => {
  const options = parseArgs(argv)
  if ("error" in options) {
    console.error(`simulate: ${options.error}\nusage: npm run simulate -- [--seed N] [--days D] [--load K] [--database postgres://...]`)
    return 2
  }
  const started = performance.now()
  let subscriptions = 0
  const result = await run({
    ...options,
    onDay: (r) => {
      subscriptions = r.counts.subscriptions
      console.log(dayLine(r))
    }
  })
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  const failed = result.failedDay !== null
  if (failed) for (const line of failureReport(result)) console.log(line)
  for (const line of knownReport(result)) console.log(line)
  const faults = Object.entries(result.faults).map(([k, v]) => `${k}:${v}`).join(",")
  console.log(`faults ${faults} receiver accepted=${result.receipts.accepted} failed=${result.receipts.failed} digest=${result.digest}`)
  console.log(`RESULT simulate seed=${options.seed} days=${options.days} load=${options.load ?? 1} subscriptions=${subscriptions} operations=${result.operations} crashes=${result.crashes} violations=${result.violations.length + result.defects.length} seconds=${seconds}`)
  return failed ? 1 : 0
}
