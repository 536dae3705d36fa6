import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"

export interface Received {
  readonly headers: IncomingHttpHeaders
  readonly body: string
  readonly at: number
}

/**
 * A real local HTTP receiver for webhooks. `respond` decides each answer
 * (status and an optional delay), so a test can make it fail or hang.
 * `answerWhen` holds the answer until the test lets it go: an event, where a
 * delay would make the test's outcome depend on how fast the machine is.
 */
export const startReceiver = async (
  respond: (request: Received) => { status: number; delayMillis?: number; answerWhen?: Promise<unknown> } = () => ({ status: 200 })
) => {
  const received: Array<Received> = []
  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const request = { headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() }
      received.push(request)
      const { status, delayMillis, answerWhen } = respond(request)
      const answer = () => {
        if (!res.destroyed) res.writeHead(status, { "content-type": "text/plain" }).end("ok")
      }
      if (answerWhen) void answerWhen.then(answer)
      else if (delayMillis) setTimeout(answer, delayMillis)
      else answer()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
