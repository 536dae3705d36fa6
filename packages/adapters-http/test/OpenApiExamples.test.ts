/**
 * The examples and reading guide of the OpenAPI document: every operation has
 * an example request body and an example of each response, one per error
 * code, and says its scope and its error codes. (That each example is valid
 * under its schema is checked by Redocly in `OpenApi.test.ts`.)
 */
import { OpenApi } from "effect/http-api"
import { describe, expect, it } from "vitest"
import { BillingApi } from "../src/index.ts"

type Json = { readonly [key: string]: any }

const doc = OpenApi.fromApi(BillingApi) as unknown as Json
const operations = Object.entries(doc.paths as Json).flatMap(([path, item]) =>
  Object.entries(item as Json).map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, operation: operation as Json }))
)

const resolve = (node: Json): Json =>
  typeof node.$ref === "string" ? resolve(node.$ref.slice(2).split("/").reduce((at: Json, part: string) => at[part], doc)) : node

const codesOf = (schema: Json): Array<string> => {
  const resolved = resolve(schema)
  if (resolved.anyOf) return resolved.anyOf.flatMap(codesOf)
  return resolved.properties?.error?.properties?.code?.enum ?? resolved.properties?.error?.enum ?? resolved.properties?.code?.enum ?? []
}

describe("OpenAPI examples", () => {
  it("gives every request body an example", () => {
    const withBody = operations.filter((o) => o.operation.requestBody)
    expect(withBody.length).toBeGreaterThan(15)
    for (const { key, operation } of withBody) {
      for (const [type, media] of Object.entries(operation.requestBody.content as Json)) {
        expect((media as Json).example, `${key} ${type}`).toBeTypeOf("object")
      }
    }
  })

  it("gives every JSON response an example, and each error code of a status its own", () => {
    for (const { key, operation } of operations) {
      for (const [status, response] of Object.entries(operation.responses as Json)) {
        const media = (response as Json).content?.["application/json"]
        if (media === undefined) continue
        const examples = Object.values(media.examples ?? {}) as Array<Json>
        expect(examples.length, `${key} ${status}`).toBeGreaterThan(0)
        const codes = codesOf(media.schema)
        const exampleCodes = examples.map((e) => e.value.error?.code ?? e.value.error ?? e.value.code)
        if (codes.length > 0) expect(exampleCodes.sort(), `${key} ${status}`).toEqual([...codes].sort())
      }
    }
  })

  it("writes realistic values: ids with their prefixes, amounts as numbers, instants in ISO 8601", () => {
    const pix = doc.paths["/v1/charges/{chargeId}"].get
    const detail = (Object.values(pix.responses["200"].content["application/json"].examples) as Array<Json>)[0]!.value
    expect(detail.chargeId).toMatch(/^cha_/)
    expect(detail.amount).toBeTypeOf("number")
    expect(detail.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    expect(pix.parameters.find((p: Json) => p.name === "chargeId").example).toMatch(/^cha_/)
  })

  it("states each operation's scope, or that it is public, and its error codes", () => {
    for (const { key, operation } of operations) {
      const scopes = (operation.security as Array<Json>).flatMap((r) => Object.values(r).flat() as Array<string>)
      const isPublic = (operation.security as Array<Json>).length === 0
      if (isPublic) expect(operation.description, key).toContain("**Access:** public")
      else if (scopes.length === 0) expect(operation.description, key).toContain("**Scope:** any valid token")
      for (const scope of scopes) expect(operation.description, key).toContain(`\`${scope}\``)
      const codes = Object.entries(operation.responses as Json)
        .filter(([status]) => !status.startsWith("2"))
        .flatMap(([, r]) => Object.values((r as Json).content ?? {}).flatMap((m) => codesOf((m as Json).schema)))
      for (const code of codes) expect(operation.description, key).toContain(`\`${code}\``)
    }
  })
})
