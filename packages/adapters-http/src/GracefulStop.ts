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
  return { server, drain }
}
