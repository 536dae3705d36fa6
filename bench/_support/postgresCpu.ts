/**
 * CPU time spent by the local PostgreSQL server's processes, from `/proc`
 * (Linux): its backends' user and system time, with that of backends that
 * exited (counted in their postmaster's children time). Undefined when no
 * PostgreSQL process is visible (another machine, another OS). Two readings
 * around a run give the database's share of its work, which the run's own
 * CPU time leaves out.
 */
import { readdirSync, readFileSync } from "node:fs"

const TICKS_PER_SECOND = 100

export const postgresCpuMs = (): number | undefined => {
  let ticks = 0
  let seen = false
  for (const pid of readdirSync("/proc").filter((entry) => /^\d+$/.test(entry))) {
    let stat: string
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    } catch {
      continue // exited meanwhile
    }
    const close = stat.lastIndexOf(")")
    if (stat.slice(stat.indexOf("(") + 1, close) !== "postgres") continue
    // After the command: state, ppid, ... utime (12th), stime, cutime, cstime.
    const fields = stat.slice(close + 2).split(" ")
    ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])
    seen = true
  }
  return seen ? (ticks * 1000) / TICKS_PER_SECOND : undefined
}
