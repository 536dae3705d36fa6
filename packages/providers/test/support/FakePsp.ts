/**
 * A fake PSP of the BCB API Pix for tests, on `node:https` with mutual TLS
 * as PSPs run it (`requestCert`, `rejectUnauthorized`, the test CA): its
 * token endpoint, the routes the adapter uses (`/v2/cob`, `/v2/cobv`,
 * devoluções, `/v2/pix`, `/v2/webhook`, and Efí's `/v2/gn/pix` under the
 * `efi` profile), books in memory (`FakePspBook.ts`), and controls for a
 * test: pay a cob, receive a Pix, force the next answers (a status, a
 * problem, a timeout after doing the work or without doing it), choose the
 * next devolução's or send's outcome, revoke a token.
 *
 * Every request it receives and every answer it gives is checked against
 * the BCB OpenAPI under our overlay (`PixApiContract.ts`); what does not
 * keep it is recorded in `violations`, which a test asserts empty, so a
 * drift on either side fails it.
 */
import { type PspProfileName, PspProfiles } from "../../src/pix/PixProfiles.ts"
import { createServer, type Server } from "node:https"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { type Answer, type Book, makeBook, problem, spiId } from "./FakePspBook.ts"
import { getDevolucao, getSent, listPix, type Outcomes, requestDevolucao, sendPix } from "./FakePspPix.ts"
import { loadPixApiContract, type PixApiContract } from "./PixApiContract.ts"
import type { TestPki } from "./TestCertificates.ts"

/**
 * An answer forced on the next API call: a status (the work not done), a
 * problem, a timeout (the work done, no answer), or a drop (no answer and the
 * work not done: the request lost on its way in).
 */
export type Forced =
  | { readonly kind: "status"; readonly status: 500 | 502 | 503 | 504 }
  | { readonly kind: "problem"; readonly answer: Answer }
  | { readonly kind: "timeout" }
  | { readonly kind: "drop" }

export interface FakePspOptions {
  readonly profile: PspProfileName
  /** The receiving key the fake holds (webhooks are registered for it only). */
  readonly pixKey: string
  /** BB's application key, required on every call of the `bb` profile. */
  readonly appKey?: string
  /** Pix per page of `GET /pix` (default 100, the standard's). */
  readonly pageSize?: number
}

export interface RecordedCall {
  readonly method: string
  readonly path: string
  readonly query: URLSearchParams
}

type Route = readonly [method: string, pattern: RegExp, handle: (match: RegExpExecArray, body: any, query: URLSearchParams) => Answer]

const routesOf = (book: Book, outcomes: Outcomes, options: FakePspOptions): ReadonlyArray<Route> => [
  ["PUT", /^\/cob\/([^/]+)$/, (m, body) => book.createCob("cob", m[1]!, body)],
  ["GET", /^\/cob\/([^/]+)$/, (m) => book.getCob("cob", m[1]!)],
  ["PATCH", /^\/cob\/([^/]+)$/, (m, body) => book.removeCob("cob", m[1]!, body)],
  ["PUT", /^\/cobv\/([^/]+)$/, (m, body) => book.createCob("cobv", m[1]!, body)],
  ["GET", /^\/cobv\/([^/]+)$/, (m) => book.getCob("cobv", m[1]!)],
  ["PATCH", /^\/cobv\/([^/]+)$/, (m, body) => book.removeCob("cobv", m[1]!, body)],
  ["PUT", /^\/pix\/([^/]+)\/devolucao\/([^/]+)$/, (m, body) => requestDevolucao(book, outcomes, m[1]!, m[2]!, body)],
  ["GET", /^\/pix\/([^/]+)\/devolucao\/([^/]+)$/, (m) => getDevolucao(book, m[1]!, m[2]!)],
  ["GET", /^\/pix$/, (_, __, query) => listPix(book, query, options.pageSize ?? 100)],
  ["PUT", /^\/webhook\/([^/]+)$/, (m, body) => {
    const chave = decodeURIComponent(m[1]!)
    if (chave !== options.pixKey) return problem(400, "WebhookOperacaoInvalida", "Webhook inválido.", "A chave não pertence a este usuário recebedor.")
    book.webhooks.set(chave, body.webhookUrl)
    return { status: 200 }
  }],
  ...(PspProfiles[options.profile].sendPix === "efi" ? efiRoutes(book, outcomes) : [])
]

/** Efí's send-Pix routes, served under the `efi` profile only. */
const efiRoutes = (book: Book, outcomes: Outcomes): ReadonlyArray<Route> => [
  ["PUT", /^\/gn\/pix\/([^/]+)$/, (m, body) => sendPix(book, outcomes, m[1]!, body)],
  ["GET", /^\/gn\/pix\/enviados\/id-envio\/([^/]+)$/, (m) => getSent(book, m[1]!)]
]

const readBody = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = ""
    request.on("data", (chunk: Buffer) => (text += chunk.toString()))
    request.on("end", () => resolve(text))
  })

const parseJson = (text: string): { readonly ok: boolean; readonly value: unknown } => {
  if (text === "") return { ok: true, value: undefined }
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false, value: undefined }
  }
}

/** What the fake keeps besides its books: tokens, forced answers, the calls received, the contract's violations. */
interface FakeState {
  readonly issued: Array<string>
  readonly revoked: Set<string>
  readonly forced: Array<Forced>
  readonly calls: Array<RecordedCall>
  readonly violations: Array<string>
  tokenRequests: number
  refused: number
}

/** Writes `answer`, recording where it breaks the contract. */
const respond = (contract: PixApiContract, state: FakeState) => (response: ServerResponse, call: Pick<RecordedCall, "method" | "path">, answer: Answer) => {
  state.violations.push(...contract.checkResponse(call, { status: answer.status, contentType: answer.contentType, body: answer.body }))
  response.writeHead(answer.status, answer.contentType === undefined ? {} : { "content-type": answer.contentType })
  response.end(answer.body === undefined ? "" : JSON.stringify(answer.body))
}

/** An API call: checked against the contract, authorized, then forced or routed. */
const apiHandler = (state: FakeState, contract: PixApiContract, routes: ReadonlyArray<Route>, options: FakePspOptions) => {
  const answer = respond(contract, state)
  const appKey = PspProfiles[options.profile].appKeyParameter
  return (request: IncomingMessage, response: ServerResponse, url: URL, text: string) => {
    const call = { method: request.method ?? "", path: url.pathname.slice("/v2".length), query: url.searchParams }
    state.calls.push(call)
    const body = parseJson(text)
    const found = body.ok
      ? contract.checkRequest({ ...call, contentType: request.headers["content-type"], body: body.value })
      : [`${call.method} ${call.path}: body is not JSON`]
    state.violations.push(...found)
    if (found.length > 0) return answer(response, call, problem(400, "RequisicaoInvalida", "Requisição inválida.", found.join("; ")))
    const token = request.headers.authorization?.replace(/^Bearer /, "") ?? ""
    if (!state.issued.includes(token) || state.revoked.has(token)) return answer(response, call, problem(401, "AcessoNegado", "Token inválido."))
    if (appKey !== undefined && url.searchParams.get(appKey) !== options.appKey) state.violations.push(`${call.method} ${call.path}: ${appKey} is not the entry's appKey`)
    const forced = state.forced.shift()
    if (forced?.kind === "status") return answer(response, call, problem(forced.status, "ServicoIndisponivel", "Serviço indisponível."))
    if (forced?.kind === "problem") return answer(response, call, forced.answer)
    if (forced?.kind === "drop") return
    const route = routes.find(([method, pattern]) => method === call.method && pattern.test(call.path))
    const routed = route === undefined ? problem(404, "NaoEncontrado", "Não encontrado.") : route[2](route[1].exec(call.path)!, body.value, call.query)
    // A timeout after the work is done: the client cannot know whether it was.
    if (forced?.kind !== "timeout") answer(response, call, routed)
  }
}

/** The token endpoint: any client that passed mutual TLS gets `token-N`, valid an hour. */
const issueToken = (state: FakeState, response: ServerResponse) => {
  state.tokenRequests++
  const issued = `token-${state.issued.length + 1}`
  state.issued.push(issued)
  response.writeHead(200, { "content-type": "application/json" })
  response.end(JSON.stringify({ access_token: issued, token_type: "Bearer", expires_in: 3600 }))
}

const listen = async (pki: TestPki, state: FakeState, api: ReturnType<typeof apiHandler>) => {
  const server: Server = createServer({ key: pki.server.keyPem, cert: pki.server.certPem, ca: [pki.caPem], requestCert: true, rejectUnauthorized: true }, async (request, response) => {
    const text = await readBody(request)
    const url = new URL(request.url ?? "/", "https://fake.invalid")
    if (request.method === "POST" && url.pathname === "/oauth/token") return issueToken(state, response)
    if (url.pathname.startsWith("/v2/")) return api(request, response, url, text)
    response.writeHead(404).end()
  })
  server.on("tlsClientError", () => state.refused++)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return { server, origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}` }
}

export const startFakePsp = async (pki: TestPki, options: FakePspOptions) => {
  const book = makeBook()
  const outcomes: Outcomes = { devolucoes: [], sends: [] }
  const profile = PspProfiles[options.profile]
  const contract = loadPixApiContract({ appKeyParameter: profile.appKeyParameter, efiSendPix: profile.sendPix === "efi" })
  const state: FakeState = { issued: [], revoked: new Set(), forced: [], calls: [], violations: [], tokenRequests: 0, refused: 0 }
  const { server, origin } = await listen(pki, state, apiHandler(state, contract, routesOf(book, outcomes, options), options))
  /** A Pix received at `at`, with `txid` when it paid a charge. Returns its end-to-end id. */
  const receive = (valor: string, at: Date, txid?: string) => {
    const endToEndId = spiId("E", at.getTime())
    book.pix.push({ endToEndId, txid, valor, horario: at.toISOString(), devolucoes: [] })
    return endToEndId
  }
  return {
    origin,
    baseUrl: `${origin}/v2`,
    tokenUrl: `${origin}/oauth/token`,
    book,
    outcomes,
    violations: state.violations,
    issued: state.issued,
    tokenRequests: () => state.tokenRequests,
    refusedHandshakes: () => state.refused,
    revoke: (token: string) => state.revoked.add(token),
    force: (...answers: ReadonlyArray<Forced>) => state.forced.push(...answers),
    receive,
    /** Pays the cob `txid` in full: a Pix with its txid arrives and the cob is concluded. Returns its end-to-end id. */
    pay: (txid: string) => {
      const cob = book.cobs.get(txid)!
      cob.status = "CONCLUIDA"
      return receive(cob.request.valor.original, new Date(), txid)
    },
    /** Every call received since the last take. */
    takeCalls: () => state.calls.splice(0),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

export type FakePsp = Awaited<ReturnType<typeof startFakePsp>>
