/**
 * A fake Mercado Pago for tests, on `node:http` at 127.0.0.1 (Mercado Pago
 * takes a bearer token, not a client certificate): the routes the adapter
 * uses (card tokens, payments, refunds, customers and their cards), books in
 * memory (`FakeMercadoPagoBook.ts`), the mandatory
 * `X-Idempotency-Key` answered as Mercado Pago does (the first answer to a
 * key is the answer to every repeat, and nothing is done twice), and
 * controls for a test: force the next answers of a route (a 5xx, a timeout
 * after doing the work), read the books, count the payments created.
 * Every request is recorded with its body, so a test can check what the
 * adapter sends and that the card number goes to `/v1/card_tokens` only.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import {
  type Answer,
  createCustomer,
  createPayment,
  createToken,
  makeMercadoPagoBook,
  mpError,
  refundPayment,
  saveCustomerCard,
  searchCustomers,
  searchPayments,
  updatePayment
} from "./FakeMercadoPagoBook.ts"

export const FAKE_ACCESS_TOKEN = "TEST-0000000000000000-000000-fake-access-token"
export const FAKE_PUBLIC_KEY = "TEST-fake-public-key"

/**
 * What a route's next call gets: an answer (the work not done), a timeout
 * (the work done, no answer ever), a dropped connection (the work done, the
 * connection cut before the answer), or, for a payment, a 3-D Secure
 * challenge asked by the issuer.
 */
export type Forced =
  | { readonly kind: "answer"; readonly answer: Answer }
  | { readonly kind: "timeout" }
  | { readonly kind: "drop" }
  | { readonly kind: "challenge" }

/** The routes a test may force. */
export type ForcedRoute = "tokens" | "payments" | "refunds" | "customerSearch"

const forcedRouteOf = (method: string | undefined, path: string): ForcedRoute | undefined => {
  if (method === "GET" && path === "/v1/customers/search") return "customerSearch"
  if (method !== "POST") return undefined
  if (path === "/v1/card_tokens") return "tokens"
  if (path === "/v1/payments") return "payments"
  return /^\/v1\/payments\/\d+\/refunds$/.test(path) ? "refunds" : undefined
}

export interface RecordedCall {
  readonly method: string
  readonly path: string
  readonly idempotencyKey: string | undefined
  readonly text: string
}

/**
 * How a route takes `X-Idempotency-Key`: mandatory (payments, refunds:
 * Mercado Pago refuses a call without one), honoured when sent (a kept
 * card), or not at all (reads; a customer, unique by e-mail anyway).
 */
type KeyRule = "required" | "optional" | "none"

type Route = readonly [
  method: string,
  pattern: RegExp,
  handle: (match: RegExpExecArray, body: any, query: URLSearchParams, next: Forced | undefined) => Answer,
  key: KeyRule
]

const routesOf = (book: ReturnType<typeof makeMercadoPagoBook>): ReadonlyArray<Route> => [
  ["POST", /^\/v1\/card_tokens$/, (_, body) => createToken(book, body), "none"],
  ["POST", /^\/v1\/payments$/, (_, body, __, next) => createPayment(book, body, { challenge: next?.kind === "challenge" }), "required"],
  ["GET", /^\/v1\/payments\/search$/, (_, __, query) => searchPayments(book, query), "none"],
  ["GET", /^\/v1\/payments\/(\d+)$/, (m) => {
    const payment = book.payments.get(Number(m[1]))
    return payment === undefined ? mpError(404, "Payment not found", "not_found", 2000) : { status: 200, body: payment }
  }, "none"],
  ["PUT", /^\/v1\/payments\/(\d+)$/, (m, body) => updatePayment(book, Number(m[1]), body), "required"],
  ["POST", /^\/v1\/payments\/(\d+)\/refunds$/, (m, body) => refundPayment(book, Number(m[1]), body), "required"],
  ["GET", /^\/v1\/customers\/search$/, (_, __, query) => searchCustomers(book, query), "none"],
  ["POST", /^\/v1\/customers$/, (_, body) => createCustomer(book, body), "none"],
  ["POST", /^\/v1\/customers\/([^/]+)\/cards$/, (m, body) => saveCustomerCard(book, decodeURIComponent(m[1]!), body), "optional"]
]

const readBody = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = ""
    request.on("data", (chunk: Buffer) => (text += chunk.toString()))
    request.on("end", () => resolve(text))
  })

const write = (response: ServerResponse, answer: Answer) => {
  response.writeHead(answer.status, { "content-type": "application/json" })
  response.end(answer.body === undefined ? "" : JSON.stringify(answer.body))
}

const parse = (text: string): unknown => {
  try {
    return text === "" ? undefined : JSON.parse(text)
  } catch {
    return undefined
  }
}

export const startFakeMercadoPago = async () => {
  const book = makeMercadoPagoBook()
  const routes = routesOf(book)
  const forced = new Map<ForcedRoute, Array<Forced>>()
  const calls: Array<RecordedCall> = []

  /** Routed with its key: a key seen before answers its first answer again, doing nothing. */
  const routed = (route: Route, match: RegExpExecArray, key: string | undefined, body: unknown, query: URLSearchParams, next: Forced | undefined): Answer => {
    const rule = route[3]
    if (rule === "none" || (rule === "optional" && (key === undefined || key === ""))) return route[2](match, body, query, next)
    if (key === undefined || key === "") return mpError(400, "Header X-Idempotency-Key can't be null", "bad_request", 4292)
    const first = book.answered.get(key)
    if (first !== undefined) return first
    const answer = route[2](match, body, query, next)
    book.answered.set(key, answer)
    return answer
  }

  /**
   * Routes an authorized call: by the access token, or for a card token by
   * the public key alone, as the browser SDK makes one.
   */
  const api = (request: IncomingMessage, url: URL, key: string | undefined, body: unknown, next: Forced | undefined): Answer => {
    const publicCall = request.method === "POST" && url.pathname === "/v1/card_tokens" && url.searchParams.get("public_key") === FAKE_PUBLIC_KEY
    if (!publicCall && request.headers.authorization !== `Bearer ${FAKE_ACCESS_TOKEN}`) {
      return url.searchParams.has("public_key") ? mpError(401, "invalid public_key", "unauthorized") : mpError(401, "invalid access token", "unauthorized", 401)
    }
    const route = routes.find(([method, pattern]) => method === request.method && pattern.test(url.pathname))
    if (route === undefined) return mpError(404, "resource not found", "not_found")
    return routed(route, route[1].exec(url.pathname)!, key, body, url.searchParams, next)
  }

  const handle = (request: IncomingMessage, response: ServerResponse, text: string) => {
    const url = new URL(request.url ?? "/", "http://fake.invalid")
    const key = request.headers["x-idempotency-key"] as string | undefined
    calls.push({ method: request.method ?? "", path: url.pathname, idempotencyKey: key, text })
    const name = forcedRouteOf(request.method, url.pathname)
    const next = name === undefined ? undefined : forced.get(name)?.shift()
    if (next?.kind === "answer") return write(response, next.answer)
    const answer = api(request, url, key, parse(text), next)
    // A timeout or a cut after the work is done: the client cannot know whether it was.
    if (next?.kind === "drop") return response.socket?.destroy()
    if (next?.kind !== "timeout") write(response, answer)
  }

  const server = createServer(async (request, response) => handle(request, response, await readBody(request)))
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    baseUrl: origin,
    book,
    calls,
    /** Every payment Mercado Pago created, whatever its outcome. */
    paymentsCreated: () => book.payments.size,
    /** Forces the next answers of a route. */
    force: (route: ForcedRoute, ...answers: ReadonlyArray<Forced>) => {
      forced.set(route, [...(forced.get(route) ?? []), ...answers])
    },
    /** The payments made under our `reference` (`external_reference`). */
    paymentsOf: (reference: string) => [...book.payments.values()].filter((payment) => payment.external_reference === reference),
    /** The customers of `email`, each with the cards kept under it. */
    customersOf: (email: string) =>
      [...book.customers.values()].filter((customer) => customer.email === email.toLowerCase()).map((customer) => ({
        ...customer,
        cards: [...book.cards.values()].filter((card) => card.customerId === customer.id)
      })),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

export type FakeMercadoPago = Awaited<ReturnType<typeof startFakeMercadoPago>>
