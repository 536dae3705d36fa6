/**
 * A fake PSP's token endpoint and one protected route, on `node:https` with
 * mutual TLS as PSPs run it: `requestCert` and `rejectUnauthorized`, so a
 * client without a certificate signed by the test CA never gets an answer.
 * It records every token request and counts them; tokens it has revoked
 * answer 401 on the protected route.
 */
import { createServer, type Server } from "node:https"
import type { AddressInfo } from "node:net"
import type { TestPki } from "./TestCertificates.ts"

export interface RecordedTokenRequest {
  readonly headers: Readonly<Record<string, string | Array<string> | undefined>>
  readonly body: string
  /** The client certificate's subject CN the TLS layer saw. */
  readonly clientCn: string | undefined
}

export interface FakeTokenEndpoint {
  /** `https://127.0.0.1:PORT` (the server certificate names that address) */
  readonly origin: string
  readonly tokenUrl: string
  readonly requests: Array<RecordedTokenRequest>
  /** Tokens issued so far, in order (`token-1`, `token-2`, …). */
  readonly issued: Array<string>
  /** Makes the protected route answer 401 to `token`, as a PSP does to a token revoked early. */
  readonly revoke: (token: string) => void
  /** The next token answers: status and body, used once each before the default (200, a token for `expiresIn` s). */
  readonly answerNext: (status: number, body: unknown) => void
  /** Handshakes the server refused (no client certificate, or one it does not trust). */
  readonly refusedHandshakes: () => number
  readonly close: () => Promise<void>
}

export const startFakeTokenEndpoint = async (pki: TestPki, options: { readonly expiresIn?: number } = {}): Promise<FakeTokenEndpoint> => {
  const requests: Array<RecordedTokenRequest> = []
  const issued: Array<string> = []
  const revoked = new Set<string>()
  const scripted: Array<{ status: number; body: unknown }> = []
  let refused = 0
  const server: Server = createServer(
    { key: pki.server.keyPem, cert: pki.server.certPem, ca: [pki.caPem], requestCert: true, rejectUnauthorized: true },
    (request, response) => {
      let body = ""
      request.on("data", (chunk: Buffer) => (body += chunk.toString()))
      request.on("end", () => {
        const answer = (status: number, payload: unknown) => {
          response.writeHead(status, { "content-type": "application/json" })
          response.end(JSON.stringify(payload))
        }
        if (request.method === "POST" && request.url === "/oauth/token") {
          const peer = (request.socket as import("node:tls").TLSSocket).getPeerCertificate()
          requests.push({ headers: request.headers, body, clientCn: peer?.subject?.CN as string | undefined })
          const next = scripted.shift()
          if (next !== undefined) return answer(next.status, next.body)
          const token = `token-${issued.length + 1}`
          issued.push(token)
          return answer(200, { access_token: token, token_type: "Bearer", expires_in: options.expiresIn ?? 3600, scope: "cob.write cob.read" })
        }
        if (request.method === "GET" && request.url === "/v2/cob") {
          const token = request.headers.authorization?.replace(/^Bearer /, "") ?? ""
          if (!issued.includes(token) || revoked.has(token)) return answer(401, { type: "https://pix.bcb.gov.br/api/v2/error/AcessoNegado", title: "Acesso Negado", status: 401 })
          return answer(200, { token })
        }
        answer(404, {})
      })
    }
  )
  server.on("tlsClientError", () => refused++)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    tokenUrl: `${origin}/oauth/token`,
    requests,
    issued,
    revoke: (token) => revoked.add(token),
    answerNext: (status, body) => scripted.push({ status, body }),
    refusedHandshakes: () => refused,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
