/**
 * Every operation of the OpenAPI document, fuzzed with bad input through real
 * HTTP on PostgreSQL: each top-level body field and each query parameter in
 * turn replaced by a hostile value (null, wrong types, NUL, huge numbers, a
 * 5,000-character string, deep nesting), ids that do not exist or hold a NUL.
 * Nothing answers 5xx, every refusal is in one of the spec's shapes, and a
 * refused request stores nothing. Bounded: a few hundred requests.
 */
import { AllScopes } from "@billing/core"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startEngine, type TestEngine } from "./support/Engine.ts"

type Json = { readonly [key: string]: any }

/** `value` wrapped in `depth` arrays. */
const nest = (depth: number, value: unknown): unknown => (depth === 0 ? value : [nest(depth - 1, value)])

const hostile: ReadonlyArray<unknown> = [
  null,
  "",
  "a\u0000b",
  "x".repeat(5_000),
  -1,
  1e308,
  1.005,
  true,
  {},
  [],
  nest(40, "deep")
]
const hostileQuery: ReadonlyArray<string> = ["", "a%00b", "1e308", "-1", "x".repeat(300), "%FF"]
const hostileIds: ReadonlyArray<string> = ["cha_doesnotexist", "a%00b", "x".repeat(150), "%2e%2e"]

/** The spec's error shapes: the envelope, the bare scope 401, OAuth, the card 402, a coupon verdict, the proposal route's `{ message, code }`. */
const isSpecShape = (status: number, body: Json | undefined, path: string) =>
  body !== undefined && (
    (typeof body.error === "object" && typeof body.error?.code === "string" && typeof body.error?.timestamp === "string") ||
    (status === 401 && typeof body.message === "string") ||
    (/^\/v1\/(sandbox\/)?proposals/.test(path) && typeof body.message === "string" && typeof body.code === "string") ||
    typeof body.error === "string" ||
    (status === 402 && body.success === false) ||
    typeof body.valid === "boolean"
  )

describe("every operation, fuzzed", () => {
  let engine: TestEngine
  let headers: Record<string, string>
  let document: Json
  const sql = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) => engine.run(Effect.flatMap(SqlClient.SqlClient, f))
  const stored = () =>
    sql((s) => s<{ n: string }>`SELECT (SELECT count(*) FROM charges) + (SELECT count(*) FROM customers) + (SELECT count(*) FROM products)
      + (SELECT count(*) FROM coupons) + (SELECT count(*) FROM webhooks) + (SELECT count(*) FROM checkout_links)
      + (SELECT count(*) FROM nfse_configs) AS n`).then((r) => Number(r[0]!.n))

  beforeAll(async () => {
    engine = await startEngine("postgres")
    const account = await engine.createAccount({ name: "Loja Fuzz", scopes: [...AllScopes] })
    headers = { authorization: `Bearer ${await engine.token(account)}`, "content-type": "application/json" }
    document = await (await fetch(`${engine.baseUrl}/v1/openapi.json`)).json()
  })
  afterAll(() => engine?.dispose())

  it("answers no bad request with 5xx, refuses in the spec's shapes, and stores nothing it refused", async () => {
    const failures: Array<string> = []
    let sent = 0
    const send = async (method: string, path: string, body: unknown) => {
      const before = await stored()
      const response = await fetch(`${engine.baseUrl}${path}`, {
        method: method.toUpperCase(),
        headers: path.startsWith("/auth/") ? { "content-type": "application/json" } : headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
      sent++
      const text = await response.text()
      const json = (() => {
        try {
          return JSON.parse(text) as Json
        } catch {
          return undefined
        }
      })()
      const where = `${method.toUpperCase()} ${path} ${JSON.stringify(body)?.slice(0, 80)} → ${response.status} ${text.slice(0, 120)}`
      if (response.status >= 500) failures.push(`5xx: ${where}`)
      else if (response.status >= 400 && !isSpecShape(response.status, json, path)) failures.push(`shape: ${where}`)
      else if (response.status >= 400 && (await stored()) !== before) failures.push(`stored: ${where}`)
    }
    for (const [template, item] of Object.entries(document.paths as Json)) {
      for (const [method, operation] of Object.entries(item as Json)) {
        if (template === "/v1/charges/{chargeId}/boleto.pdf") continue
        const ids = (template.match(/\{[^}]+\}/g) ?? []).length
        const paths = ids === 0 ? [template] : hostileIds.map((id) => template.replace(/\{[^}]+\}/g, id))
        const example = (operation as Json).requestBody?.content?.["application/json"]?.example
        const fields = example !== null && typeof example === "object" && !Array.isArray(example) ? Object.keys(example) : []
        for (const path of paths) {
          if (fields.length === 0) await send(method, path, ["GET", "DELETE"].includes(method.toUpperCase()) ? undefined : hostile[2])
          for (const field of fields) {
            for (const value of hostile) await send(method, path, { ...example, [field]: value })
          }
          if (ids > 0) break // the hostile bodies once, on the first id; the other ids with the example body
        }
        for (const path of paths.slice(1)) await send(method, path, example)
        const queries = ((operation as Json).parameters ?? []).filter((p: Json) => p.in === "query").map((p: Json) => p.name as string)
        for (const name of queries) {
          for (const value of hostileQuery) await send(method, `${paths[0]}?${name}=${value}`, undefined)
        }
      }
    }
    expect(failures).toEqual([])
    expect(sent).toBeGreaterThan(300)
  }, 120_000)
})
