/**
 * Stopping the HTTP server without cutting a request: when its scope closes
 * (SIGTERM), the server stops listening, reads and answers every request on
 * the connections it has accepted (each answer with `Connection: close`, so
 * clients take their next request elsewhere), and only then lets Effect's
 * own shutdown close the rest; past `deadline` whatever still runs is
 * interrupted.
 *
 * Why not Node's `server.close()` alone (what Effect's shutdown calls): it
 * also closes at once every connection with no request being answered, and a
 * connection accepted a moment ago, whose request is not read yet, is one:
 * its client sees a reset for a request it sent. Here such a connection is
 * given `FRESH_GRACE` to deliver its request, and requests being answered get
 * up to the deadline; a connection kept alive after an answer is closed at
 * once, as HTTP lets a server do (a client retries a request it sent on it).
 * Go's `http.Server.Shutdown` draws the same line between new and idle
 * connections.
 *
 * What no process can keep: connections the kernel completed but the process
 * never accepted are reset when the socket closes. A load balancer that
 * stops routing before the signal (Kubernetes' `preStop`) avoids them;
 * `docs/operations.md` says how.
 *
 * The start has its own edge: Effect's Node server binds the port when it is
 * built and listens for requests only once the app is served, after the
 * routes are built; a request read in between (a client retrying while the
 * process restarts) had no listener and was never answered. Such requests
 * are held here and handed to the app the moment it listens.
 */
import { Duration, Effect } from "effect"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import { Server as NetServer, type Socket } from "node:net"

/** How long a stop waits for a connection accepted before it to send its first request. */
const FRESH_GRACE = Duration.seconds(2)

export interface GracefulServer {
  /** The Node server, for `NodeHttpServer.layer`. */
  readonly server: Server
  /** Stops listening and waits, at most `deadline`, for the requests in flight and those not read yet. */
  readonly drain: (deadline: Duration.Input) => Effect.Effect<void>
  /** Requests read before the app was served, waiting for it. */
  readonly held: () => number
}

type RequestEvent = "request" | "checkContinue"

/**
 * Holds the requests `server` reads before another listener than ours takes
 * them (the app, at `serve`), and emits them again to it once it has;
 * answers how many it holds.
 */
const holdUntilServed = (server: Server) => {
  const early: Array<readonly [RequestEvent, IncomingMessage, ServerResponse]> = []
  let served = false
  const hold = (kind: RequestEvent) => (request: IncomingMessage, response: ServerResponse) => {
    if (!served) early.push([kind, request, response])
  }
  server.on("request", hold("request"))
  server.on("checkContinue", hold("checkContinue"))
  // Registered after our own listeners, so that only a later one (the app's) counts.
  server.on("newListener", (event: string | symbol) => {
    if (served || (event !== "request" && event !== "checkContinue")) return
    served = true
    // Node calls this before it adds the listener, and the app adds both of its own in one step: replay after.
    setImmediate(() => early.splice(0).forEach(([kind, request, response]) => server.emit(kind, request, response)))
  })
  return () => early.length
}

/** A Node HTTP server whose connections and requests are counted, so that a stop can wait for them. */
export const gracefulServer = (): GracefulServer => {
  const server = createServer()
  /** Accepted, no request read yet. */
  const fresh = new Set<Socket>()
  const inFlight = new Set<ServerResponse>()
  let draining = false
  const waiters = new Set<() => void>()
  const changed = () => waiters.forEach((wake) => wake())
  server.on("connection", (socket: Socket) => {
    fresh.add(socket)
    socket.once("close", () => {
      fresh.delete(socket)
      changed()
    })
  })
  const track = (request: IncomingMessage, response: ServerResponse) => {
    if (inFlight.has(response)) return
    fresh.delete(request.socket)
    inFlight.add(response)
    if (draining) response.shouldKeepAlive = false
    response.once("close", () => {
      inFlight.delete(response)
      changed()
    })
  }
  server.on("request", track)
  // A request with `Expect: 100-continue` comes as this event instead (Effect's server listens to both).
  server.on("checkContinue", track)
  const held = holdUntilServed(server)
  /** Resumes once `done` holds, checked now and after every change. */
  const until = (done: () => boolean) =>
    Effect.callback<void>((resume) => {
      const check = () => {
        if (!done()) return
        waiters.delete(check)
        resume(Effect.void)
      }
      waiters.add(check)
      check()
      return Effect.sync(() => waiters.delete(check))
    })
  // Every request answered and every fresh connection heard from (or closed); past the grace, only the answers count.
  const answered = until(() => inFlight.size === 0 && fresh.size === 0).pipe(
    Effect.raceFirst(Effect.andThen(Effect.sleep(FRESH_GRACE), until(() => inFlight.size === 0)))
  )
  const drain = (deadline: Duration.Input) =>
    Effect.suspend(() => {
      draining = true
      // Answers not yet begun close their connection once sent.
      for (const response of inFlight) if (!response.headersSent) response.shouldKeepAlive = false
      // The listening socket only: `Server#close` of `node:http` would also close the connections not read yet.
      if (server.listening) NetServer.prototype.close.call(server)
      return Effect.timeoutOrElse(answered, {
        duration: deadline,
        orElse: () => Effect.logWarning(`HTTP stop: ${inFlight.size} requests still running at the deadline; interrupting them`)
      })
    })
  return { server, drain, held }
}
