/**
 * One PGlite, many connections: a PostgreSQL wire-protocol server on a unix
 * socket in front of an embedded PGlite, so that this process's own client
 * and other processes (`billing accounts create` next to a running
 * `billing serve`) share one database instead of opening the same files
 * twice, which corrupts them.
 *
 * PGlite runs a single backend session. Connections therefore take turns at
 * the granularity PostgreSQL itself guarantees to be self-contained: a
 * connection keeps the session from its first message until the backend
 * answers `ReadyForQuery` with status idle, that is after a whole extended
 * query (Parse/Bind/Execute up to Sync) or simple query, and after the end of
 * any transaction it opened. `@electric-sql/pglite-socket` queues single
 * messages instead, so two clients' Parse and Bind interleave and one runs the
 * other's statement; hence this module.
 *
 * Clients must not rely on session state across turns: no named prepared
 * statements (`prepare: false`), no session `SET`, no `LISTEN`.
 */
import type { PGlite } from "@electric-sql/pglite"
import { Effect } from "effect"
import { chmodSync, rmSync } from "node:fs"
import { createServer, type Socket } from "node:net"

const SSL_REQUEST = 80877103
const GSSENC_REQUEST = 80877104
const CANCEL_REQUEST = 80877102
const TERMINATE = 0x58 // 'X'
const READY_FOR_QUERY = 0x5a // 'Z'
const IDLE = 0x49 // 'I'

/** `Sync`: ends an extended query a vanished client left half sent. */
const SYNC = Buffer.from([0x53, 0, 0, 0, 4])

const simpleQuery = (sql: string) => {
  const text = Buffer.from(`${sql}\0`, "utf8")
  const message = Buffer.alloc(5 + text.length)
  message[0] = 0x51 // 'Q'
  message.writeInt32BE(4 + text.length, 1)
  text.copy(message, 5)
  return message
}
const ROLLBACK = simpleQuery("ROLLBACK")

interface Connection {
  readonly socket: Socket
  input: Buffer
  started: boolean
  closed: boolean
}

/** Whether the backend's output ends with `ReadyForQuery` outside a transaction. */
const endsIdle = (output: Uint8Array) => {
  const view = Buffer.from(output.buffer, output.byteOffset, output.byteLength)
  let offset = 0
  let last = -1
  while (offset + 5 <= view.length) {
    last = offset
    offset += 1 + view.readInt32BE(offset + 1)
  }
  return last >= 0 && view[last] === READY_FOR_QUERY && view[last + 5] === IDLE
}

/**
 * Hands the single PGlite session to one connection at a time. Every call
 * into PGlite goes through `drain`, one at a time, so a departing client's
 * cleanup never runs beside another client's query.
 */
class Sessions {
  private holder: Connection | undefined
  /** Connections with input to look at, in arrival order (a `Set` keeps insertion order). */
  private readonly ready = new Set<Connection>()
  private running: Promise<void> | undefined
  private stopped = false
  private readonly db: PGlite

  constructor(db: PGlite) {
    this.db = db
  }

  received(connection: Connection, chunk: Buffer) {
    connection.input = connection.input.length === 0 ? chunk : Buffer.concat([connection.input, chunk])
    this.ready.add(connection)
    this.wake()
  }

  closed(connection: Connection) {
    connection.closed = true
    if (this.holder === connection) this.ready.add(connection)
    else this.ready.delete(connection)
    this.wake()
  }

  /** Stops handing out the session; resolves once the call in progress, if any, has finished. */
  stop() {
    this.stopped = true
    return this.running ?? Promise.resolve()
  }

  private wake() {
    if (this.running !== undefined || this.stopped) return
    this.running = this.drain().finally(() => {
      this.running = undefined
    })
  }

  private next() {
    if (this.holder !== undefined) return this.ready.has(this.holder) ? this.holder : undefined
    for (const connection of this.ready) return connection
    return undefined
  }

  private async drain() {
    for (let connection = this.next(); connection !== undefined && !this.stopped; connection = this.next()) {
      this.ready.delete(connection)
      if (connection.closed) {
        if (this.holder === connection) {
          this.holder = undefined
          await this.reset()
        }
        continue
      }
      const batch = this.take(connection)
      if (batch === undefined) continue
      this.holder = connection
      try {
        const output = await this.db.runExclusive(() => this.db.execProtocolRaw(batch))
        if (!connection.closed) connection.socket.write(output)
        if (endsIdle(output)) this.holder = undefined
      } catch {
        // PGlite itself failed on this input: drop the client, keep serving the others.
        connection.socket.destroy()
        this.closed(connection)
      }
    }
  }

  /** Leaves the session as a fresh client expects it: no half-sent query, no open transaction. */
  private async reset() {
    await this.db.runExclusive(async () => {
      await this.db.execProtocolRaw(SYNC)
      if (this.db.isInTransaction()) await this.db.execProtocolRaw(ROLLBACK)
    }).catch(() => undefined)
  }

  /** The complete messages received so far, answering the pre-startup requests PGlite does not know. */
  private take(connection: Connection): Uint8Array | undefined {
    const input = connection.input
    const parts: Array<Buffer> = []
    let offset = 0
    for (;;) {
      if (!connection.started) {
        if (input.length - offset < 8) break
        const length = input.readInt32BE(offset)
        const code = input.readInt32BE(offset + 4)
        if (input.length - offset < length) break
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
          connection.socket.write("N")
        } else if (code === CANCEL_REQUEST) {
          // A single backend has nothing to cancel.
          connection.socket.end()
        } else {
          connection.started = true
          parts.push(input.subarray(offset, offset + length))
        }
        offset += length
        continue
      }
      if (input.length - offset < 5) break
      const length = 1 + input.readInt32BE(offset + 1)
      if (input.length - offset < length) break
      // Terminate ends the client's connection, not the one shared backend.
      if (input[offset] === TERMINATE) connection.socket.end()
      else parts.push(input.subarray(offset, offset + length))
      offset += length
    }
    connection.input = input.subarray(offset)
    return parts.length === 0 ? undefined : parts.length === 1 ? parts[0] : Buffer.concat(parts)
  }
}

/**
 * Serves `db` on the unix socket `path` (mode 600: whoever reaches it owns
 * the data) until the scope closes. A file left at `path` by a process that
 * died is replaced: callers hold the data folder's lock.
 */
export const serve = (db: PGlite, path: string) =>
  Effect.acquireRelease(
    Effect.callback<{ readonly close: () => Promise<void> }, Error>((resume) => {
      const sessions = new Sessions(db)
      const sockets = new Set<Socket>()
      const server = createServer((socket) => {
        const connection: Connection = { socket, input: Buffer.alloc(0), started: false, closed: false }
        sockets.add(socket)
        socket.setNoDelay(true)
        socket.on("data", (chunk: Buffer) => sessions.received(connection, chunk))
        socket.on("error", () => socket.destroy())
        socket.on("close", () => {
          sockets.delete(socket)
          sessions.closed(connection)
        })
      })
      const close = async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve())
          for (const socket of sockets) socket.destroy()
        })
        await sessions.stop()
      }
      rmSync(path, { force: true })
      server.once("error", (error) => resume(Effect.fail(error)))
      server.listen(path, () => {
        chmodSync(path, 0o600)
        resume(Effect.succeed({ close }))
      })
    }),
    ({ close }) => Effect.promise(close)
  )
