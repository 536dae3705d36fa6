/**
 * A lean HTTP/1.1 client for the load generator: `node:http` with a
 * keep-alive agent of exactly `connections` sockets. `fetch` costs several
 * times more CPU per request, and on a 2-core machine the client's CPU is
 * taken from the server being measured.
 */
import { Agent, request } from "node:http"

export const makeClient = (baseUrl: string, connections: number) => {
  const url = new URL(baseUrl)
  const agent = new Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections })
  return {
    send: (method: string, path: string, headers: Record<string, string>, body?: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(
          { host: url.hostname, port: url.port, method, path, agent, headers: body === undefined ? headers : { ...headers, "content-length": Buffer.byteLength(body) } },
          (res) => {
            const chunks: Array<Buffer> = []
            res.on("data", (c: Buffer) => chunks.push(c))
            res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }))
            res.on("error", reject)
          }
        )
        req.on("error", reject)
        req.end(body)
      }),
    close: () => agent.destroy()
  }
}
