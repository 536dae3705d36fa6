/**
 * `billing serve` stopped by SIGTERM in the middle of requests, as an
 * orchestrator stops it: every request it had accepted is answered (each
 * with `Connection: close`), a connection accepted but not yet heard from is
 * still read and answered, nothing is cut, and the process then exits.
 *
 * The requests are held in flight without timing: each one is sent with
 * `Expect: 100-continue`, and its body only after the server asked for it
 * (the server's handler is then reading it), after the signal.
 */
import { request as httpRequest, Agent, type ClientRequest, type IncomingMessage } from "node:http"
import { connect } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Running, startBilling } from "./support/Cli.ts"
import { freshPostgresDatabase } from "./support/Engine.ts"

const CLIENT = { id: "graceful-client", secret: "graceful-secret-long-enough-for-the-sandbox" }
const FORM = new URLSearchParams({ grant_type: "client_credentials", client_id: CLIENT.id, client_secret: CLIENT.secret }).toString()

interface Answer {
  readonly status: number
  readonly connection: string | undefined
  readonly body: string
}

const answerOf = (response: IncomingMessage) =>
  new Promise<Answer>((resolve, reject) => {
    let body = ""
    response.on("data", (chunk: Buffer) => (body += chunk.toString()))
    response.on("end", () => resolve({ status: response.statusCode!, connection: response.headers.connection, body }))
    response.on("error", reject)
  })

/** A token request held after its headers: resolves `continued` once the server asks for the body. */
const heldTokenRequest = (base: URL, agent: Agent) => {
  let request!: ClientRequest
  const answer = new Promise<Answer>((resolve, reject) => {
    request = httpRequest({
      host: base.hostname,
      port: base.port,
      path: "/auth/token",
      method: "POST",
      agent,
      headers: { "content-type": "application/x-www-form-urlencoded", "content-length": Buffer.byteLength(FORM), expect: "100-continue" }
    }, (response) => answerOf(response).then(resolve, reject))
    request.on("error", reject)
  })
  const continued = new Promise<void>((resolve) => request.once("continue", () => resolve()))
  request.flushHeaders()
  return { answer, continued, send: () => request.end(FORM) }
}

describe("billing serve stopped by SIGTERM", () => {
  let db: Awaited<ReturnType<typeof freshPostgresDatabase>>
  let server: Running
  beforeAll(async () => {
    db = await freshPostgresDatabase()
  })
  afterAll(async () => {
    server?.child.kill("SIGKILL")
    await db?.drop()
  })

  it("answers every request it accepted, then exits", async () => {
    server = startBilling(["serve", "--port", "0", "--no-worker"], {
      DATABASE_URL: db.url,
      BILLING_SANDBOX_CLIENT_ID: CLIENT.id,
      BILLING_SANDBOX_CLIENT_SECRET: CLIENT.secret
    })
    const [, listening] = await server.waitFor(/billing engine listening on (\S+)/, 60_000)
    const base = new URL(listening!)
    const agent = new Agent({ keepAlive: true, maxSockets: 8 })

    // Eight requests in flight on kept-alive connections, each one's body asked for by the server.
    const held = Array.from({ length: 8 }, () => heldTokenRequest(base, agent))
    await Promise.all(held.map((h) => h.continued))
    // And a connection the server accepted whose request has not been sent yet.
    const quiet = connect(Number(base.port), base.hostname)
    await new Promise<void>((resolve) => quiet.once("connect", () => resolve()))
    let quietAnswer = ""
    quiet.on("data", (chunk: Buffer) => (quietAnswer += chunk.toString()))
    const quietClosed = new Promise<void>((resolve) => quiet.once("close", () => resolve()))

    const exited = new Promise<number | null>((resolve) => server.child.once("exit", (code) => resolve(code)))
    server.child.kill("SIGTERM")
    // The signal reached the process: it stopped listening (a new connection is refused).
    await expect.poll(() => new Promise<boolean>((resolve) => {
      const probe = connect(Number(base.port), base.hostname)
      probe.once("connect", () => resolve(probe.destroy() && false))
      probe.once("error", () => resolve(true))
    }), { timeout: 10_000, interval: 50 }).toBe(true)

    held.forEach((h) => h.send())
    quiet.write(`POST /auth/token HTTP/1.1\r\nhost: ${base.host}\r\ncontent-type: application/x-www-form-urlencoded\r\ncontent-length: ${Buffer.byteLength(FORM)}\r\n\r\n${FORM}`)

    const answers = await Promise.all(held.map((h) => h.answer))
    for (const answer of answers) {
      expect(answer.status).toBe(200)
      expect(JSON.parse(answer.body).access_token).toEqual(expect.any(String))
      expect(answer.connection).toBe("close")
    }
    await quietClosed
    expect(quietAnswer).toMatch(/^HTTP\/1\.1 200 /)
    expect(quietAnswer).toMatch(/access_token/)
    // Stopped by SIGTERM: 143 (128 + 15), the code supervisors expect of a process that honoured it.
    expect(await exited).toBe(143)
    agent.destroy()
  })
})
