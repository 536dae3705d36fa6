/**
 * Webhook receivers for the delivery benchmark, in their own process (so
 * they take no CPU from the worker's event loop): `count` HTTP servers on
 * free ports, keep-alive, answering 200 at once, or after `slowMillis` for
 * the receiver `slowIndex`. Each receipt is counted per receiver with its
 * time; the parent asks for the counts (`{ type: "counts" }`) and at the end
 * for every receipt time (`{ type: "times" }`), over IPC.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"

const { count, slowIndex, slowMillis } = JSON.parse(process.argv[2] ?? "{}") as { count: number; slowIndex: number; slowMillis: number }
const times: Array<Array<number>> = Array.from({ length: count }, () => [])

const ports = await Promise.all(Array.from({ length: count }, (_, i) =>
  new Promise<number>((resolve) => {
    const server = createServer((req, res) => {
      req.resume()
      req.on("end", () => {
        times[i]!.push(Date.now())
        const answer = () => res.writeHead(200, { "content-type": "text/plain", "content-length": "2" }).end("ok")
        if (i === slowIndex) setTimeout(answer, slowMillis)
        else answer()
      })
    })
    server.keepAliveTimeout = 60_000
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port))
  })))

process.on("message", (message: { type: string }) => {
  if (message.type === "counts") process.send!({ type: "counts", counts: times.map((t) => t.length) })
  if (message.type === "times") process.send!({ type: "times", times })
})
process.send!({ type: "ready", ports })
