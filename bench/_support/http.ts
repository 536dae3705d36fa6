/**
 * A lean HTTP/1.1 client for the load generator: `connections` keep-alive
 * sockets, one request in flight on each, requests written as one buffer and
 * responses read by `Content-Length` (or chunked framing). On a 2-core machine
 * every microsecond the client spends is taken from the server being measured:
 * `fetch` costs several times what `node:http` does, and `node:http` itself
 * about 0.2 ms per request, several times what this costs.
 */
import { connect, type Socket } from "node:net"

export interface HttpResponse {
  readonly status: number
  /** Decoded on demand: a load run only looks at the status. */
  readonly body: () => string
}

const HEADER_END = Buffer.from("\r\n\r\n")
const CHUNKED_END = Buffer.from("0\r\n\r\n")

class Connection {
  private buffered: Buffer = Buffer.alloc(0)
  private waiting: { resolve: (r: HttpResponse) => void; reject: (e: Error) => void } | undefined
  private readonly socket: Socket

  constructor(host: string, port: number) {
    this.socket = connect({ host, port, noDelay: true })
    this.socket.on("data", (chunk: Buffer) => {
      this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk])
      this.tryComplete()
    })
    const fail = (error: Error) => {
      const waiting = this.waiting
      this.waiting = undefined
      waiting?.reject(error)
    }
    this.socket.on("error", fail)
    this.socket.on("close", () => fail(new Error("connection closed")))
  }

  send(request: Buffer): Promise<HttpResponse> {
    if (this.socket.destroyed) return Promise.reject(new Error("connection closed"))
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject }
      this.socket.write(request)
    })
  }

  close() {
    this.socket.destroy()
  }

  private tryComplete() {
    const headerEnd = this.buffered.indexOf(HEADER_END)
    if (headerEnd < 0) return
    const head = this.buffered.toString("latin1", 0, headerEnd)
    const status = Number(head.slice(9, 12))
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head)
    const bodyStart = headerEnd + 4
    const data = this.buffered
    let body: () => string
    let end: number
    if (length !== null) {
      end = bodyStart + Number(length[1])
      if (data.length < end) return
      body = () => data.toString("utf8", bodyStart, end)
    } else if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
      const last = data.indexOf(CHUNKED_END, bodyStart)
      if (last < 0) return
      end = last + CHUNKED_END.length
      body = () => dechunk(data.subarray(bodyStart, end))
    } else {
      end = bodyStart
      body = () => ""
    }
    this.buffered = data.subarray(end)
    const waiting = this.waiting
    this.waiting = undefined
    waiting?.resolve({ status, body })
  }
}

const dechunk = (data: Buffer) => {
  const parts: Array<Buffer> = []
  let at = 0
  for (;;) {
    const lineEnd = data.indexOf("\r\n", at)
    const size = parseInt(data.toString("latin1", at, lineEnd), 16)
    if (!(size > 0)) break
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size))
    at = lineEnd + 2 + size + 2
  }
  return Buffer.concat(parts).toString("utf8")
}

export const makeClient = (baseUrl: string, connections: number) => {
  const url = new URL(baseUrl)
  const host = url.hostname
  const port = Number(url.port || 80)
  const idle: Array<Connection> = Array.from({ length: connections }, () => new Connection(host, port))
  const all = [...idle]
  return {
    /** Sends one request on an idle connection; at most `connections` may be in flight. */
    send: async (method: string, path: string, headers: Record<string, string>, body?: string): Promise<HttpResponse> => {
      const connection = idle.pop()
      if (connection === undefined) throw new Error(`more than ${connections} requests in flight`)
      let head = `${method} ${path} HTTP/1.1\r\nhost: ${url.host}\r\n`
      for (const name in headers) head += `${name}: ${headers[name]}\r\n`
      const payload = body === undefined ? undefined : Buffer.from(body)
      if (payload !== undefined) head += `content-length: ${payload.length}\r\n`
      head += "\r\n"
      const request = payload === undefined ? Buffer.from(head, "latin1") : Buffer.concat([Buffer.from(head, "latin1"), payload])
      try {
        return await connection.send(request)
      } finally {
        idle.push(connection)
      }
    },
    close: () => all.forEach((c) => c.close())
  }
}
