/**
 * Products and prices through real HTTP on PostgreSQL: create, list, read,
 * update (including prices by `priceId`), archive and delete, with the
 * documented errors.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startEngine, type TestEngine } from "./support/Engine.ts"

describe("products on postgres", () => {
  let engine: TestEngine
  let headers: Record<string, string>
  let otherHeaders: Record<string, string>
  const call = (path: string, init: RequestInit = {}, as = headers) =>
    fetch(`${engine.baseUrl}/v1/products${path}`, { ...init, headers: as })
  const send = (method: string, path: string, body: unknown, as = headers) =>
    call(path, { method, body: JSON.stringify(body) }, as)

  beforeAll(async () => {
    engine = await startEngine("postgres")
    const account = await engine.createAccount()
    const other = await engine.createAccount({ name: "Outra" })
    headers = { authorization: `Bearer ${await engine.token(account, "products/write products/read")}`, "content-type": "application/json" }
    otherHeaders = { authorization: `Bearer ${await engine.token(other, "products/write products/read")}`, "content-type": "application/json" }
  })
  afterAll(() => engine?.dispose())

  const plan = {
    name: "Plano Pro",
    description: "Acesso completo",
    type: "RECURRING",
    prices: [
      { title: "Mensal", amount: 99.9, recurrenceType: "MONTHLY", recurrenceInterval: 1, trialDays: 7, statementDescriptor: "PLANO PRO" },
      { title: "Bimestral", amount: "189.90", recurrenceType: "MONTHLY", recurrenceInterval: 2 }
    ]
  }

  it("creates a recurring product with its prices and reads it back", async () => {
    const response = await send("POST", "", plan)
    expect(response.status).toBe(201)
    const product = await response.json()
    expect(product.productId).toMatch(/^SANDBOX_prod_/)
    expect(product).toMatchObject({ name: "Plano Pro", type: "RECURRING", status: "active", currency: "BRL", nfConfigId: null })
    expect(product.prices).toHaveLength(2)
    expect(product.prices[0]).toMatchObject({ title: "Mensal", amount: 99.9, recurrenceType: "MONTHLY", recurrenceInterval: 1, trialDays: 7, statementDescriptor: "PLANO PRO", isActive: true })
    expect(product.prices[0].priceId).toMatch(/^SANDBOX_price_/)
    const raw = await (await call(`/${product.productId}`)).text()
    expect(raw).toContain('"amount":189.90')
    expect(JSON.parse(raw)).toEqual(product)
  })

  it("answers invalid products with 400 INVALID_PRODUCT_DATA naming the field, and stores nothing", async () => {
    const before = (await (await call("")).json()).pagination.total
    const cases: Array<[unknown, string]> = [
      [{ ...plan, name: "" }, "name"],
      [{ ...plan, type: "SOMETIMES" }, "type"],
      [{ ...plan, prices: [] }, "prices"],
      [{ ...plan, prices: [{ amount: 10, recurrenceType: "MONTHLY", statementDescriptor: "X".repeat(23) }] }, "statementDescriptor"],
      [{ ...plan, prices: [{ amount: 10, recurrenceType: "MONTHLY", recurrenceInterval: 0 }] }, "recurrenceInterval"],
      [{ ...plan, prices: [{ amount: 10, recurrenceType: "HOURLY" }] }, "recurrenceType"],
      [{ ...plan, prices: [{ amount: 10, recurrenceType: "ONE_TIME" }] }, "recurrenceType"],
      [{ ...plan, prices: [{ amount: 10 }] }, "recurrenceType"],
      [{ ...plan, prices: [{ amount: 10.001, recurrenceType: "MONTHLY" }] }, "amount"],
      [{ ...plan, prices: [{ recurrenceType: "MONTHLY" }] }, "amount"],
      [{ name: "Curso", type: "ONE_TIME", prices: [{ amount: 10, trialDays: 7 }] }, "trialDays"]
    ]
    for (const [body, field] of cases) {
      const response = await send("POST", "", body)
      const text = await response.text()
      expect(response.status, `${JSON.stringify(body)} → ${text}`).toBe(400)
      const error = JSON.parse(text).error
      expect(error.code).toBe("INVALID_PRODUCT_DATA")
      expect(JSON.stringify(error.details)).toContain(field)
    }
    expect((await (await call("")).json()).pagination.total).toBe(before)
  })

  it("updates fields and prices: priceId changes that price, a price without it is added", async () => {
    const product = await (await send("POST", "", { name: "Curso", type: "ONE_TIME", prices: [{ amount: 50 }] })).json()
    const [price] = product.prices
    expect(price).toMatchObject({ recurrenceType: "ONE_TIME", title: "Curso", amount: 50 })
    const response = await send("PUT", `/${product.productId}`, {
      name: "Curso Avançado",
      prices: [{ priceId: price.priceId, amount: 79.9 }, { title: "Com mentoria", amount: 199 }]
    })
    expect(response.status).toBe(200)
    const updated = await response.json()
    expect(updated.name).toBe("Curso Avançado")
    expect(updated.prices.map((p: { priceId: string; amount: number }) => [p.priceId === price.priceId, p.amount])).toEqual([[true, 79.9], [false, 199]])
    const foreign = await send("PUT", `/${product.productId}`, { prices: [{ priceId: "SANDBOX_price_nope", amount: 1 }] })
    expect(foreign.status).toBe(400)
    expect((await foreign.json()).error.code).toBe("INVALID_PRODUCT_DATA")
    const wrongType = await send("PUT", `/${product.productId}`, { type: "RECURRING" })
    expect((await wrongType.json()).error.code).toBe("INVALID_PRODUCT_DATA")
    expect((await (await call(`/${product.productId}`)).json()).type).toBe("ONE_TIME")
  })

  it("lists with status filter, search and a lastKey cursor", async () => {
    const fresh = await engine.createAccount({ name: "Catalogo" })
    const as = { authorization: `Bearer ${await engine.token(fresh, "products/write products/read")}`, "content-type": "application/json" }
    for (const name of ["Alfa", "Beta", "Gama"]) await send("POST", "", { name, type: "ONE_TIME", prices: [{ amount: 1 }] }, as)
    const first = await (await call("?limit=2", {}, as)).json()
    expect(first.items.map((p: { name: string }) => p.name)).toEqual(["Gama", "Beta"])
    expect(first.pagination).toMatchObject({ total: 3, limit: 2, hasMore: true })
    const second = await (await call(`?limit=2&lastKey=${first.pagination.lastKey}`, {}, as)).json()
    expect(second.items.map((p: { name: string }) => p.name)).toEqual(["Alfa"])
    expect(second.pagination).toMatchObject({ hasMore: false, lastKey: null })
    const search = await (await call("?search=et", {}, as)).json()
    expect(search.items.map((p: { name: string }) => p.name)).toEqual(["Beta"])
    const archivedId = first.items[0].productId
    const archived = await call(`/${archivedId}/archive`, { method: "POST" }, as)
    expect(await archived.json()).toMatchObject({ productId: archivedId, status: "archived" })
    expect((await (await call("?status=archived", {}, as)).json()).items.map((p: { productId: string }) => p.productId)).toEqual([archivedId])
    expect((await (await call("?status=active", {}, as)).json()).pagination.total).toBe(2)
    expect((await (await call("?status=deleted", {}, as)).json()).error.code).toBe("INVALID_PRODUCT_DATA")
  })

  it("deletes a product; another account's product is 404 PRODUCT_NOT_FOUND on every route", async () => {
    const product = await (await send("POST", "", { name: "Descartável", type: "ONE_TIME", prices: [{ amount: 2 }] })).json()
    for (const [method, path, body] of [
      ["GET", `/${product.productId}`, undefined],
      ["PUT", `/${product.productId}`, { name: "x" }],
      ["DELETE", `/${product.productId}`, undefined],
      ["POST", `/${product.productId}/archive`, undefined]
    ] as const) {
      const response = await call(path, { method, ...(body ? { body: JSON.stringify(body) } : {}) }, otherHeaders)
      expect(response.status, `${method} ${path}`).toBe(404)
      expect((await response.json()).error.code).toBe("PRODUCT_NOT_FOUND")
    }
    const removed = await call(`/${product.productId}`, { method: "DELETE" })
    expect(await removed.json()).toEqual({ message: "Produto removido com sucesso", productId: product.productId, deleted: true })
    expect((await call(`/${product.productId}`)).status).toBe(404)
  })
})
