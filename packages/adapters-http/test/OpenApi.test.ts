/**
 * The OpenAPI document of `BillingApi` (served at `/v1/openapi.json`): valid
 * under Redocly's `recommended` rules, and saying what clients rely on:
 * OAuth 2.0 client credentials with every scope, the scope of each operation,
 * `X-Sub-Account`, the public routes, amounts as numbers, error codes.
 */
import { AllScopes } from "@billing/core"
import { OpenApi } from "effect/http-api"
import { execFile } from "node:child_process"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"
import { BillingApi } from "../src/index.ts"

const doc = OpenApi.fromApi(BillingApi) as unknown as Json
type Json = { readonly [key: string]: any }

const operations = Object.entries(doc.paths as Json).flatMap(([path, item]) =>
  Object.entries(item as Json).map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, operation: operation as Json }))
)
const operation = (key: string) => operations.find((o) => o.key === key)!.operation

/** Follows a local `$ref` (`#/components/...`) to the object it names. */
/** The schema behind a `$ref`; for an optional request field (`anyOf` of it and `null`), the schema of its value. */
const resolve = (node: Json): Json =>
  typeof node.$ref === "string"
    ? resolve(node.$ref.slice(2).split("/").reduce((at: Json, part: string) => at[part], doc))
    : Array.isArray(node.anyOf) && node.anyOf.length === 2 && node.anyOf.some((member: Json) => member.type === "null")
    ? resolve(node.anyOf.find((member: Json) => member.type !== "null"))
    : node

/** The error codes a response can carry: the `code` enums of its envelope schemas. */
const codesOf = (key: string, status: string): Array<string> => {
  const schema = resolve(operation(key).responses[status].content["application/json"].schema)
  return (schema.anyOf ?? [schema]).flatMap((member: Json) => resolve(member).properties.error.properties.code.enum).sort()
}

const redocly = join(dirname(createRequire(import.meta.url).resolve("@redocly/cli/package.json")), "bin/cli.js")

const lint = async (document: Json) => {
  const dir = await mkdtemp(join(tmpdir(), "billing-openapi-"))
  try {
    const file = join(dir, "openapi.json")
    await writeFile(file, JSON.stringify(document))
    // Offline and quiet: no usage data, no update check.
    const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", REDOCLY_SUPPRESS_NOTIFICATIONS: "true" }
    // Redocly exits 1 when it finds errors; the JSON report is on stdout either way.
    const { stdout } = await promisify(execFile)(process.execPath, [redocly, "lint", "--extends", "recommended", "--format", "json", file], { env })
      .catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }))
    return JSON.parse(stdout) as { totals: { errors: number; warnings: number }; problems: Array<{ ruleId: string; severity: string }> }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

describe("OpenAPI document", () => {
  it("has no errors under Redocly's recommended rules", async () => {
    const report = await lint(doc)
    expect(report.problems.filter((p) => p.severity === "error")).toEqual([])
    expect(report.totals.errors).toBe(0)
    // The only warning tolerated is outside this document's reach: the
    // project declares no licence yet (info-license).
    const tolerated = ["info-license"]
    // The spec's own nota routes overlap: `/v1/invoices/notas/config/{configId}` and
    // `/v1/invoices/notas/{notaId}/emitir` (and the note's other actions). The router
    // takes the static `config` first, and no note may be called `config`
    // (a standalone `ref` of that name is refused), so each path reaches one route.
    const specOverlap = (problem: { readonly ruleId: string; readonly message?: string }) =>
      problem.ruleId === "no-ambiguous-paths" && (problem.message ?? "").includes("`/v1/invoices/notas/config/{configId}` and `/v1/invoices/notas/{notaId}/")
    for (const problem of report.problems.filter((p) => !specOverlap(p))) expect(tolerated, JSON.stringify(problem)).toContain(problem.ruleId)
  })

  it("describes OAuth 2.0 client credentials at /auth/token with every scope", () => {
    const scheme = doc.components.securitySchemes.oauth2
    expect(scheme.type).toBe("oauth2")
    expect(scheme.flows.clientCredentials.tokenUrl).toBe("/auth/token")
    const scopes = scheme.flows.clientCredentials.scopes as Json
    expect(Object.keys(scopes)).toEqual([...AllScopes])
    for (const scope of AllScopes) expect(scopes[scope]).toMatch(/\w{3,}/)
  })

  it("lists the scope each operation requires", () => {
    const sample: Array<[string, string]> = [
      ["POST /v1/charges/pix", "pix.cob/write"],
      ["GET /v1/charges/{chargeId}", "pix.cob/read"],
      ["POST /v1/charges", "checkouts/write"],
      ["GET /v1/charges", "subaccounts/read"],
      ["GET /v1/coupons", "products/read"],
      ["POST /v1/wallet/pay/{chargeId}", "wallet/write"],
      ["POST /v1/payment-methods", "payment.methods/write"]
    ]
    for (const [key, scope] of sample) expect(operation(key).security, key).toEqual([{ oauth2: [scope] }])
    // Either scope deletes a customer; any token of the account manages its webhooks.
    expect(operation("DELETE /v1/customers/{customerId}").security).toEqual([{ oauth2: ["customers/delete"] }, { oauth2: ["customers/write"] }])
    expect(operation("POST /v1/users/webhooks").security).toEqual([{ oauth2: [] }])
  })

  it("leaves only the token route, the coupon validation, the boleto PDF, the checkout payment and the documents-copy page without security", () => {
    const publicRoutes = operations.filter((o) => o.operation.security.length === 0).map((o) => o.key)
    expect(publicRoutes.sort()).toEqual([
      "GET /v1/charges/{chargeId}/boleto.pdf",
      "GET /v1/sandbox/documentscopy/{token}",
      "POST /auth/token",
      "POST /v1/checkouts/pay",
      "POST /v1/coupons/validate",
      "POST /v1/coupons/{code}/validate",
      "POST /v1/sandbox/documentscopy/{token}"
    ])
  })

  it("declares the optional X-Sub-Account header on every authenticated operation, and the balance's accountId header", () => {
    for (const { key, operation } of operations.filter((o) => o.operation.security.length > 0)) {
      const headers = (operation.parameters as Array<Json>).map(resolve).filter((p) => p.in === "header")
      const own = key === "GET /v1/wallet/balance" ? [expect.objectContaining({ name: "accountid", required: false })] : []
      expect(headers, key).toEqual(expect.arrayContaining([expect.objectContaining({ name: "X-Sub-Account", required: false }), ...own]))
      expect(headers, key).toHaveLength(1 + own.length)
    }
  })

  it("gives every operation a summary and a unique operationId", () => {
    for (const { key, operation } of operations) expect(operation.summary, key).toMatch(/\w/)
    const ids = operations.map((o) => o.operation.operationId)
    expect(new Set(ids).size).toBe(ids.length)
  })

  it("shows request amounts as numbers, multiples of 0.01, and response amounts as numbers", () => {
    const schemas = doc.components.schemas
    const requests = [
      schemas.PixChargeRequest.properties.amount,
      schemas.CheckoutRequest.properties.amount,
      resolve(resolve(schemas.ProductInput.properties.prices).items).properties.amount
    ]
    for (const amount of requests) expect(resolve(amount)).toMatchObject({ type: "number", multipleOf: 0.01, minimum: 0.01 })
    const responses = [
      schemas.ChargeLeanStatus.properties.amount,
      schemas.ChargeDetailView.properties.fees.properties.total,
      schemas.Price.properties.amount
    ]
    for (const amount of responses) {
      expect(resolve(amount)).toMatchObject({ type: "number" })
      expect(resolve(amount)).not.toHaveProperty("anyOf")
    }
  })

  it("lists the error codes of each response", () => {
    expect(codesOf("GET /v1/charges/{chargeId}", "404")).toEqual(["ACCOUNT_NOT_FOUND", "CHARGE_NOT_FOUND", "NOT_FOUND"])
    expect(codesOf("POST /v1/charges/pix", "400")).toEqual(["INVALID_DATA", "SPLIT_EXCEEDS_NET_AMOUNT"])
    expect(codesOf("POST /v1/users/webhooks", "401")).toEqual(["UNAUTHORIZED"])
    const token = resolve(operation("POST /auth/token").responses["400"].content["application/json"].schema)
    expect(token.anyOf.map((m: Json) => resolve(m).properties.error.enum[0]).sort()).toEqual(["invalid_request", "unsupported_grant_type"])
  })

  it("documents every event the engine sends under webhooks, with its signature header and body schema", () => {
    const webhooks = doc.webhooks as Json
    expect(Object.keys(webhooks)).toEqual(expect.arrayContaining([
      "payment.success", "charge.created", "charge.expired", "payment.failed",
      "subscription.created", "subscription.trial", "subscription.activated", "subscription.canceled", "subscription.downgrade_scheduled"
    ]))
    const created = webhooks["subscription.created"].post
    expect(created.parameters).toEqual([expect.objectContaining({ name: "X-Webhook-Signature", in: "header", required: true })])
    const body = resolve(created.requestBody.content["application/json"].schema)
    expect(Object.keys(body.properties)).toEqual(expect.arrayContaining(["event", "timestamp", "accountNumber", "subscriptionId", "customerId", "customer", "items", "currentCycle"]))
    const failed = resolve(webhooks["payment.failed"].post.requestBody.content["application/json"].schema)
    expect(Object.keys(failed.properties)).toEqual(expect.arrayContaining(["accountId", "failed"]))
    expect(failed.properties).not.toHaveProperty("accountNumber")
  })
})
