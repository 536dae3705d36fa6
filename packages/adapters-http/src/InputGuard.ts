/**
 * Bounds every request before any route sees it (DESIGN: every input is
 * bounded; one client's bad request never slows another's):
 *
 * - a body is at most `MAX_BODY_BYTES` (413 beyond, answered by ErrorHandling);
 * - JSON nests at most `MAX_JSON_DEPTH` levels: a value nested thousands deep
 *   is cheap to send and expensive everywhere it goes (serialization recurses);
 * - no string, key or query value holds a NUL character, which PostgreSQL
 *   text cannot store.
 *
 * Refusals are the spec's 400 `INVALID_DATA` naming the field (the OAuth body
 * on the token route). Path ids are bounded by their schemas, which name the
 * parameter.
 */
import { ByteSize, Effect } from "effect"
import { type HttpServerError, HttpServerRequest, HttpServerResponse } from "effect/http"
import { refusalResponse } from "./ErrorEnvelope.ts"

/** Largest request body: 1 MiB, far above any legitimate request of the API. */
export const MAX_BODY_BYTES = ByteSize.mebibytes(1)

/** Deepest JSON a body may nest (objects and arrays); the API's own bodies need fewer than 8. */
export const MAX_JSON_DEPTH = 32

interface Problem {
  readonly field: string
  readonly message: string
}

const NUL = "\u0000"
const nulMessage = "must not contain the NUL character"

const join = (path: string, key: string | number) =>
  typeof key === "number" ? `${path}[${key}]` : path === "" ? key : `${path}.${key}`

/**
 * The first problem of a parsed JSON value: too deep, or a NUL in a string
 * or key. Walks with an explicit stack, so no input can overflow it.
 */
export const jsonProblem = (value: unknown): Problem | undefined => {
  const stack: Array<{ readonly value: unknown; readonly path: string; readonly depth: number }> = [{ value, path: "", depth: 0 }]
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!
    if (typeof value === "string") {
      if (value.includes(NUL)) return { field: path, message: nulMessage }
      continue
    }
    if (typeof value !== "object" || value === null) continue
    if (depth >= MAX_JSON_DEPTH) return { field: path, message: `nests deeper than ${MAX_JSON_DEPTH} levels` }
    if (Array.isArray(value)) {
      value.forEach((item, i) => stack.push({ value: item, path: join(path, i), depth: depth + 1 }))
      continue
    }
    for (const [key, item] of Object.entries(value)) {
      if (key.includes(NUL)) return { field: path === "" ? key.replaceAll(NUL, "") : path, message: nulMessage }
      stack.push({ value: item, path: join(path, key), depth: depth + 1 })
    }
  }
  return undefined
}

/** The first query parameter holding a NUL. */
const queryProblem = (url: string): Problem | undefined => {
  const query = url.indexOf("?")
  if (query < 0) return undefined
  for (const [key, value] of new URLSearchParams(url.slice(query + 1))) {
    if (key.includes(NUL) || value.includes(NUL)) return { field: key.replaceAll(NUL, ""), message: nulMessage }
  }
  return undefined
}

/** The first problem of a form body (the token route). */
const formProblem = (text: string): Problem | undefined => {
  for (const [key, value] of new URLSearchParams(text)) {
    if (key.includes(NUL) || value.includes(NUL)) return { field: key.replaceAll(NUL, ""), message: nulMessage }
  }
  return undefined
}

/**
 * Whether JSON text could break a bound: it nests deeper than the limit, or
 * writes a NUL (JSON text can only hold one as the escape `\u0000`). One
 * pass over the characters, no parse: the common body is answered by this
 * alone, and only a suspect one is parsed to name the field.
 */
export const jsonSuspect = (text: string): boolean => {
  if (/\\u0000/i.test(text)) return true
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92) i++ // a backslash escapes the next character
      else if (c === 34) inString = false
    } else if (c === 34) {
      inString = true
    } else if (c === 91 || c === 123) {
      if (++depth > MAX_JSON_DEPTH) return true
    } else if (c === 93 || c === 125) {
      depth--
    }
  }
  return false
}

const jsonBodyProblem = (text: string): Problem | undefined => {
  if (text === "" || !jsonSuspect(text)) return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    // Not JSON: the route's own decoding answers it as every bad body.
    return undefined
  }
  return jsonProblem(parsed)
}

/**
 * The check of a body of `contentType`, when the guard has one: form and JSON
 * bodies are read whole here; any other (a multipart upload) is left to its
 * route's parser, which bounds it and reads it as a stream.
 */
const bodyCheck = (contentType: string): ((text: string) => Problem | undefined) | undefined =>
  contentType.includes("application/x-www-form-urlencoded") ? formProblem : contentType.includes("json") ? jsonBodyProblem : undefined

const refuse = (request: HttpServerRequest.HttpServerRequest, problem: Problem) =>
  refusalResponse(request.url, 400, {
    oauthDescription: `${problem.field}: ${problem.message}`,
    code: "INVALID_DATA",
    message: `Dados inválidos: ${problem.field}: ${problem.message}`,
    details: [problem]
  })

const hasBody = (method: string) => method === "POST" || method === "PUT" || method === "PATCH" || method === "DELETE"

/**
 * Runs `httpEffect` when the request is within bounds; answers the refusal
 * otherwise. The body is read once here (the request caches it for the route).
 */
export const guardInput = <E, R>(
  httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
): Effect.Effect<HttpServerResponse.HttpServerResponse, E | HttpServerError.HttpServerError, R | HttpServerRequest.HttpServerRequest> =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const inQuery = queryProblem(request.url)
    if (inQuery !== undefined) return yield* refuse(request, inQuery)
    const check = hasBody(request.method) ? bodyCheck(request.headers["content-type"] ?? "") : undefined
    if (check !== undefined) {
      const inBody = check(yield* request.text)
      if (inBody !== undefined) return yield* refuse(request, inBody)
    }
    return yield* httpEffect
  }).pipe(Effect.provideService(HttpServerRequest.MaxBodySize, MAX_BODY_BYTES))
