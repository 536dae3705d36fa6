/**
 * The webhook transport against a real receiver that closes connections the
 * way servers do when their keep-alive timeout runs out: a POST on a pooled
 * connection the receiver has just closed must not be lost as a failed
 * delivery (the spec retries nothing by itself). Found as `read ECONNRESET`
 * failures in `test/delivery-at-scale.test.ts` under load.
 */
import { WebhookTransport } from "@billing/core"
import { Effect } from "effect"
import { createServer, type IncomingMessage } from "node:http"
import type { AddressInfo, Socket } from "node:net"
import { describe, expect, it } from "vitest"
import { WebhookTransportHttp } from "../src/WebhookTransportHttp.ts"

/**
 * A receiver that answers 200, except that `drops` decides, from how many
 * requests its connection has carried before, whether to close the
 * connection instead: without an answer, as a server whose idle timeout ran
 * out as the request arrived.
 */
const receiver = async (drops: (earlierOnConnection: number) => boolean) => {
  const carried = new Map<Socket, number>()
  const seen: Array<{ readonly connection: number; readonly dropped: boolean }> = []
  const connections: Array<Socket> = []
  const server = createServer((req: IncomingMessage, res) => {
    const earlier = carried.get(req.socket) ?? 0
    carried.set(req.socket, earlier + 1)
    const dropped = drops(earlier)
    seen.push({ connection: connections.indexOf(req.socket), dropped })
    req.resume()
    req.on("end", () => (dropped ? req.socket.destroy() : res.writeHead(200).end("ok")))
  })
  server.on("connection", (socket: Socket) => connections.push(socket))
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    seen,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  }
}

/** Posts `count` webhooks to `url` one after the other through one transport (one pool of connections). */
const postInTurn = (url: string, count: number) =>
  Effect.gen(function*() {
    const transport = yield* WebhookTransport
    const answers = []
    for (let i = 0; i < count; i++) {
      // One turn of the event loop: the agent takes an answered connection back into its pool only after the answer ends.
      if (i > 0) yield* Effect.promise(() => new Promise((resolve) => setImmediate(resolve)))
      answers.push(yield* transport.post({ url, headers: { "content-type": "application/json" }, body: `{"n":${i}}`, timeoutMillis: 5_000 }))
    }
    return answers
  }).pipe(Effect.provide(WebhookTransportHttp), Effect.runPromise)

describe("webhook POSTs over pooled connections", () => {
  it("sends a POST again, once, on a new connection when the pooled one it reused was closed by the receiver", async () => {
    // The second request on any connection finds it closed.
    const hooks = await receiver((earlier) => earlier >= 1)
    try {
      const answers = await postInTurn(hooks.url, 2)
      expect(answers).toEqual([{ _tag: "Answered", status: 200, body: "ok" }, { _tag: "Answered", status: 200, body: "ok" }])
      // The first on connection 0; the second reused it and was dropped, then went on connection 1.
      expect(hooks.seen).toEqual([{ connection: 0, dropped: false }, { connection: 0, dropped: true }, { connection: 1, dropped: false }])
    } finally {
      await hooks.close()
    }
  })

  it("sends it again only once: a receiver that drops the new connection too gets a failed delivery", async () => {
    // Every request after the very first is dropped, whatever its connection.
    let requests = 0
    const hooks = await receiver(() => ++requests > 1)
    try {
      const [first, second] = await postInTurn(hooks.url, 2)
      expect(first).toEqual({ _tag: "Answered", status: 200, body: "ok" })
      expect(second).toEqual({ _tag: "NoAnswer", reason: "request failed: socket hang up" })
      expect(hooks.seen.map((s) => s.connection)).toEqual([0, 0, 1])
    } finally {
      await hooks.close()
    }
  })

  it("does not send again when a new connection is dropped: the receiver itself refused it", async () => {
    const hooks = await receiver(() => true)
    try {
      expect(await postInTurn(hooks.url, 1)).toEqual([{ _tag: "NoAnswer", reason: "request failed: socket hang up" }])
      expect(hooks.seen).toEqual([{ connection: 0, dropped: true }])
    } finally {
      await hooks.close()
    }
  })
})
