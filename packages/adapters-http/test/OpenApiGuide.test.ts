/**
 * The guide at the top of `/docs` claims only what exists: every route it
 * names is an operation of the document, the sandbox tables it prints are
 * the sandbox layers' own, and it announces nothing the engine lacks.
 */
import { SANDBOX_DECLINING_CARDS, SANDBOX_REFUSAL_MARK, SANDBOX_KYC_REPROVING_PREFIX } from "@billing/core"
import { OpenApi } from "effect/http-api"
import { describe, expect, it } from "vitest"
import { BillingApi } from "../src/api/Api.ts"

type Json = { readonly [key: string]: any }

const doc = OpenApi.fromApi(BillingApi) as unknown as Json
const guide: string = doc.info.description

/** `GET /v1/charges/{id}` as a pattern over the document's paths (`{chargeId}` for any parameter name). */
const operationExists = (method: string, path: string) =>
  Object.entries(doc.paths as Json).some(([template, item]) =>
    new RegExp(`^${template.replace(/\{[^}]+\}/g, "\\{[^}]+\\}")}$`).test(path) && (item as Json)[method.toLowerCase()] !== undefined)

describe("the guide of the API reference", () => {
  it("names only operations the document has", () => {
    const named = [...guide.matchAll(/\b(GET|POST|PUT|PATCH|DELETE) (\/[\w/{}.-]+)/g)].map(([, method, path]) => [method!, path!] as const)
    expect(named.length).toBeGreaterThan(5)
    for (const [method, path] of named) expect(operationExists(method, path), `${method} ${path}`).toBe(true)
  })

  it("prints the sandbox's own card and KYC tables", () => {
    for (const [number, code] of Object.entries(SANDBOX_DECLINING_CARDS)) expect(guide).toContain(`| \`${number}\` | declined: \`${code}\` |`)
    for (const prefix of Object.values(SANDBOX_KYC_REPROVING_PREFIX)) expect(guide).toContain(`| \`${prefix}…\``)
  })

  it("prints the sandbox city's table of notes with its own refusal mark", () => {
    expect(guide).toContain(`description containing \`${SANDBOX_REFUSAL_MARK}\``)
    expect(guide).toContain("`PROCESSING`, then `AUTHORIZED` at the worker's next pass")
  })
})
