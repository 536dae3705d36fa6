/**
 * A request that reaches `serve` while it starts: the port is bound before
 * the routes are served (Effect's Node server listens when it is built, and
 * takes requests only once the app is served), and a client connecting in
 * between (a merchant retrying while the process restarts) must be answered
 * once the app is served, not left waiting forever. Found by the crash loop
 * (`crashloop/`): requests sent to a restarting `serve` hung.
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Effect, Exit, Layer, Scope } from "effect"
import { HttpServer, HttpServerResponse } from "effect/http"
import { describe, expect, it } from "vitest"
import { gracefulServer } from "../src/GracefulStop.ts"

describe("a request arriving before the routes are served", () => {
  it("is held, and answered once the app is served; later requests are answered once each", async () => {
    const graceful = gracefulServer()
    const scope = Effect.runSync(Scope.make())
    try {
      const context = await Effect.runPromise(Layer.buildWithScope(NodeHttpServer.layer(() => graceful.server, { port: 0, host: "127.0.0.1" }), scope))
      const address = (graceful.server.address() as { port: number }).port
      const early = fetch(`http://127.0.0.1:${address}/early`).then(async (r) => [r.status, await r.text()])
      // The request has been read, and nothing answers it yet.
      await expect.poll(() => graceful.held()).toBe(1)
      let answered = 0
      const app = Effect.sync(() => HttpServerResponse.text(`answer ${++answered}`))
      await Effect.runPromise(HttpServer.serve(app).pipe(Layer.buildWithScope(scope), Effect.provide(context)))
      expect(await early).toEqual([200, "answer 1"])
      const later = await fetch(`http://127.0.0.1:${address}/later`)
      expect([later.status, await later.text()]).toEqual([200, "answer 2"])
      expect(answered).toBe(2)
    } finally {
      await Effect.runPromise(Scope.close(scope, Exit.void))
    }
  })
})
