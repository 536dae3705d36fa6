/**
 * Who has an embedded PGlite data folder open. PGlite is a whole PostgreSQL
 * inside one process; two processes opening the same files each believe
 * they are alone and corrupt them. So the first process takes
 * `<dataDir>/billing.lock` (created exclusively, holding its pid) and, when it
 * runs for long (`billing serve`, `billing worker`), shares its database
 * through the unix socket `<dataDir>/.s.PGSQL.5432`; the others connect
 * there instead of opening the files. A lock whose pid is gone (a crash, a
 * `kill -9`) is recovered by the next process.
 */
import { Effect, Option, Schema, type Scope } from "effect"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"

/** What `billing.lock` says. `socket` appears once a sharing owner accepts connections. */
export const LockInfo = Schema.Struct({
  pid: Schema.Int,
  holder: Schema.String,
  shared: Schema.Boolean,
  socket: Schema.optional(Schema.String)
})
export type LockInfo = typeof LockInfo.Type

const decodeLock = Schema.decodeUnknownOption(Schema.fromJsonString(LockInfo))

/** How a process wants the folder. */
export interface AccessOptions {
  /** Who is opening it, as others will be told: `billing serve`. */
  readonly holder: string
  /** Share this process's database with other processes while it runs (long-running commands). */
  readonly share?: boolean | undefined
  /** Only as its owner: refuse when a sharing process has it, rather than connecting to it. */
  readonly exclusive?: boolean | undefined
}

/** The outcome: open the files (`Owner`), or connect to the process that has them (`Guest`). */
export type Access =
  | { readonly _tag: "Owner"; readonly socket: string; readonly created: boolean }
  | { readonly _tag: "Guest"; readonly socket: string; readonly owner: LockInfo }

/** Another live process has the folder, and waiting for it would not help. */
export class DataFolderInUse extends Schema.TaggedError<DataFolderInUse>()("DataFolderInUse", {
  dataDir: Schema.String,
  pid: Schema.Number,
  holder: Schema.String
}) {
  override get message() {
    return `the data folder ${this.dataDir} is in use by ${this.holder} (pid ${this.pid})`
  }
}

const LOCK = "billing.lock"
const SOCKET = ".s.PGSQL.5432"
/** Unix socket paths are limited to 104 bytes on macOS and 108 on Linux. */
const MAX_SOCKET_PATH = 100
const POLL = "100 millis"
/** How long to wait for a short command to release the folder, or a starting owner to open its socket. */
const PATIENCE_POLLS = 600

const isAlive = (pid: number) => {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: alive, under another user.
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

const readLock = (path: string): LockInfo | "absent" | "unreadable" => {
  let text: string
  try {
    text = readFileSync(path, "utf8")
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "absent"
    throw error
  }
  // Unreadable: being written by its creator right now, or truncated by a crash.
  return Option.getOrElse(decodeLock(text), () => "unreadable" as const)
}

/** Creates the lock file only if none exists (O_EXCL): the one atomic step every process agrees on. */
const tryCreate = (path: string, info: LockInfo) => {
  try {
    writeFileSync(path, JSON.stringify(info), { flag: "wx", mode: 0o600 })
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false
    throw error
  }
}

/**
 * Removes a lock left by a dead process. Two processes may find the same
 * stale lock; the one that creates `billing.lock.recover` first removes it,
 * so neither deletes the fresh lock the other has just taken.
 */
const recoverStale = (path: string, deadPid: number) => {
  const guard = `${path}.recover`
  if (!tryCreate(guard, { pid: process.pid, holder: "recovery", shared: false })) {
    const other = readLock(guard)
    if (typeof other === "object" && !isAlive(other.pid)) rmSync(guard, { force: true })
    return
  }
  try {
    const current = readLock(path)
    if (typeof current === "object" && current.pid === deadPid) rmSync(path, { force: true })
    else if (current === "unreadable") rmSync(path, { force: true })
  } finally {
    rmSync(guard, { force: true })
  }
}

/** Rewrites our own lock atomically (readers never see half a file). */
const rewrite = (path: string, info: LockInfo) => {
  const next = `${path}.${process.pid}`
  writeFileSync(next, JSON.stringify(info), { mode: 0o600 })
  renameSync(next, path)
}

/** A socket path in a new private temporary folder, removed with the scope: for a database no other process may reach. */
export const privateSocket = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "billing-pglite-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
).pipe(Effect.map((dir) => join(dir, SOCKET)))

/**
 * Takes the folder, or finds the process that has it. The lock is released
 * when the scope closes. An owner calls `ready` once its socket accepts
 * connections, so that guests know where to connect.
 */
export const access = Effect.fn("DataFolder.access")(function*(
  dataDir: string,
  options: AccessOptions
): Effect.fn.Return<{ readonly access: Access; readonly ready: Effect.Effect<void> }, DataFolderInUse, Scope.Scope> {
  const folder = resolve(dataDir)
  mkdirSync(folder, { recursive: true })
  const lockPath = join(folder, LOCK)
  const share = options.share === true
  const mine: LockInfo = { pid: process.pid, holder: options.holder, shared: share }
  let unreadablePolls = 0
  for (let polls = 0;; polls++) {
    if (tryCreate(lockPath, mine)) {
      yield* Effect.addFinalizer(() =>
        Effect.sync(() => {
          const current = readLock(lockPath)
          if (typeof current === "object" && current.pid === process.pid) unlinkSync(lockPath)
        })
      )
      const created = !existsSync(join(folder, "PG_VERSION"))
      const stable = join(folder, SOCKET)
      const socket = share && stable.length <= MAX_SOCKET_PATH ? stable : yield* privateSocket
      const ready = share ? Effect.sync(() => rewrite(lockPath, { ...mine, socket })) : Effect.void
      return { access: { _tag: "Owner", socket, created }, ready }
    }
    const owner = readLock(lockPath)
    if (owner === "absent") continue
    if (owner === "unreadable") {
      // A creator writes right after creating; a lock that stays unreadable was cut short by a crash.
      if (++unreadablePolls > 20) recoverStale(lockPath, Number.NaN)
      yield* Effect.sleep(POLL)
      continue
    }
    unreadablePolls = 0
    if (!isAlive(owner.pid)) {
      recoverStale(lockPath, owner.pid)
      continue
    }
    if (owner.shared && options.exclusive) {
      return yield* new DataFolderInUse({ dataDir, pid: owner.pid, holder: owner.holder })
    }
    if (owner.shared && owner.socket !== undefined && !options.exclusive) {
      return { access: { _tag: "Guest", socket: owner.socket, owner }, ready: Effect.void }
    }
    // A short command holds it, or a sharing owner is still starting: wait.
    if (polls >= PATIENCE_POLLS) return yield* new DataFolderInUse({ dataDir, pid: owner.pid, holder: owner.holder })
    yield* Effect.sleep(POLL)
  }
})
