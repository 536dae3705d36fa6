/**
 * Customers through real HTTP on PostgreSQL: create (existing → current
 * record, upsert → CUSTOMER_ALREADY_EXISTS), list with cursor and filters,
 * lookup by document, detail, update without document changes, deletion.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startEngine, type TestEngine } from "./support/Engine.ts"

describe("customers on postgres", () => {
  let engine: TestEngine
  let headers: Record<string, string>
  const call = (path: string, init: RequestInit = {}, as = headers) => fetch(`${engine.baseUrl}/v1/customers${path}`, { ...init, headers: as })
  const send = (method: string, path: string, body: unknown, as = headers) => call(path, { method, body: JSON.stringify(body) }, as)

  beforeAll(async () => {
    engine = await startEngine("postgres")
    const account = await engine.createAccount()
    headers = {
      authorization: `Bearer ${await engine.token(account, "customers/write customers/read customers/delete")}`,
      "content-type": "application/json"
    }
  })
  afterAll(() => engine?.dispose())

  const maria = {
    name: "Maria Silva",
    document: "529.982.247-25",
    email: "maria@example.com",
    phone: "+5511987654321",
    address: { zipCode: "01310-100", street: "Av. Paulista", number: "1000", neighborhood: "Bela Vista", city: "São Paulo", state: "SP" }
  }

  it("creates a customer with digits-only document, E.164 phone and the city code of its CEP", async () => {
    const response = await send("POST", "", maria)
    expect(response.status).toBe(200)
    const customer = await response.json()
    expect(customer.customerId).toMatch(/^SANDBOX_cus_/)
    expect(customer).toMatchObject({ name: "Maria Silva", document: "52998224725", phone: "+5511987654321", status: "ACTIVE" })
    // CEP 01310-100 lies in São Paulo, IBGE 3550308.
    expect(customer.address).toMatchObject({ zipCode: "01310100", state: "SP", cityCode: "3550308" })
  })

  it("answers an existing document with the current record, and with upsert: true refuses it", async () => {
    const first = await (await send("POST", "", { ...maria, document: "111.444.777-35", email: "joao@example.com", name: "João" })).json()
    const again = await send("POST", "", { name: "Outro Nome", document: "11144477735" })
    expect(again.status).toBe(200)
    expect(await again.json()).toEqual(first)
    const upsert = await send("POST", "", { name: "Outro Nome", document: "11144477735", upsert: true })
    expect(upsert.status).toBe(400)
    expect((await upsert.json()).error).toMatchObject({ code: "CUSTOMER_ALREADY_EXISTS", details: { customerId: first.customerId } })
  })

  it("creates one customer when the same document arrives concurrently", async () => {
    const results = await Promise.all(Array.from({ length: 10 }, () => send("POST", "", { name: "Concorrente", document: "45723174000110" })))
    const ids = new Set(await Promise.all(results.map(async (r) => (await r.json()).customerId)))
    expect(ids.size).toBe(1)
  })

  it("refuses bad fields with 400 INVALID_DATA and stores nothing", async () => {
    const cases: Array<[unknown, string]> = [
      [{ document: "52998224725" }, "name"],
      [{ name: "X" }, "document"],
      [{ name: "X", document: "12345678900" }, "document"],
      [{ name: "X", document: "12ABC34501DE36" }, "document"],
      [{ name: "X", document: "07526557000100", phone: "11987654321" }, "phone"],
      [{ name: "X", document: "07526557000100", email: "x" }, "email"],
      [{ name: "X", document: "07526557000100", address: { zipCode: "123" } }, "address.zipCode"],
      [{ name: "X", document: "07526557000100", address: { zipCode: "01310100", state: "XX" } }, "address.state"],
      [{ name: "X", document: "07526557000100", address: "Rua A" }, "address"]
    ]
    for (const [body, field] of cases) {
      const response = await send("POST", "", body)
      const text = await response.text()
      expect(response.status, `${JSON.stringify(body)} → ${text}`).toBe(400)
      expect(JSON.parse(text).error.code).toBe("INVALID_DATA")
      expect(text).toContain(field)
    }
    const lookup = await (await call("?lookupDocument=07526557000100")).json()
    expect(lookup).toEqual({ customer: null, address: null })
  })

  it("looks a customer up by exact document", async () => {
    const found = await (await call("?lookupDocument=529.982.247-25")).json()
    expect(found.customer.name).toBe("Maria Silva")
    expect(found.address.zipCode).toBe("01310100")
  })

  it("lists with a lastKey cursor, partial search over name, e-mail and document, and exact document", async () => {
    const fresh = await engine.createAccount({ name: "Lista" })
    const as = { authorization: `Bearer ${await engine.token(fresh, "customers/write customers/read")}`, "content-type": "application/json" }
    const docs = ["52998224725", "11144477735", "07526557000100"]
    for (const [i, document] of docs.entries()) await send("POST", "", { name: `Cliente ${i}`, document, email: `c${i}@loja.com` }, as)
    const page1 = await (await call("?limit=2", {}, as)).json()
    expect(page1.items.map((c: { name: string }) => c.name)).toEqual(["Cliente 2", "Cliente 1"])
    expect(page1.pagination.hasMore).toBe(true)
    const page2 = await (await call(`?limit=2&lastKey=${page1.pagination.lastKey}`, {}, as)).json()
    expect(page2.items.map((c: { name: string }) => c.name)).toEqual(["Cliente 0"])
    expect(page2.pagination.lastKey).toBeNull()
    expect((await (await call("?search=c1@loja", {}, as)).json()).items.map((c: { name: string }) => c.name)).toEqual(["Cliente 1"])
    expect((await (await call("?search=6557", {}, as)).json()).items.map((c: { name: string }) => c.name)).toEqual(["Cliente 2"])
    expect((await (await call("?document=11144477735", {}, as)).json()).items).toHaveLength(1)
    expect((await (await call("?document=1114447773", {}, as)).json()).items).toHaveLength(0)
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)
    expect((await (await call(`?startDate=${tomorrow}`, {}, as)).json()).items).toHaveLength(0)
    expect((await (await call("?status=GONE", {}, as)).json()).error.code).toBe("INVALID_DATA")
  })

  it("updates name, e-mail, phone and address only; another document is DOCUMENT_UPDATE_NOT_ALLOWED", async () => {
    const created = await (await send("POST", "", { name: "Carlos", document: "07526557000100" })).json()
    const patched = await send("PATCH", `/${created.customerId}`, {
      name: "Carlos Souza",
      email: "carlos@example.com",
      phone: "+552134567890",
      address: { zipCode: "20040-020", city: "Rio de Janeiro", state: "RJ" },
      document: "07526557000100",
      status: "BLOCKED"
    })
    expect(patched.status).toBe(200)
    const body = await patched.json()
    expect(body).toMatchObject({ name: "Carlos Souza", email: "carlos@example.com", phone: "+552134567890", status: "ACTIVE", document: "07526557000100" })
    expect(body.address.cityCode).toBe("3304557") // Rio de Janeiro
    const other = await send("PATCH", `/${created.customerId}`, { document: "52998224725" })
    expect(other.status).toBe(400)
    expect((await other.json()).error.code).toBe("DOCUMENT_UPDATE_NOT_ALLOWED")
    const detail = await (await call(`/${created.customerId}`)).json()
    expect(detail).toMatchObject({ name: "Carlos Souza", subscriptions: [] })
    expect(detail.addresses).toHaveLength(1)
  })

  it("deletes: hidden from listings and lookups, the document can be registered again", async () => {
    const created = await (await send("POST", "", { name: "Temporário", document: "11222333000181" })).json()
    const removed = await call(`/${created.customerId}`, { method: "DELETE" })
    expect(await removed.json()).toEqual({ message: "Cliente removido com sucesso", customerId: created.customerId })
    expect((await call(`/${created.customerId}`)).status).toBe(404)
    expect((await (await call("?document=11222333000181")).json()).items).toHaveLength(0)
    expect((await (await call("?lookupDocument=11222333000181")).json()).customer).toBeNull()
    const again = await (await send("POST", "", { name: "De Volta", document: "11222333000181" })).json()
    expect(again.customerId).not.toBe(created.customerId)
    const noDeleteScope = { authorization: `Bearer ${await engine.token(await engine.createAccount(), "customers/read")}` }
    const refused = await call(`/${again.customerId}`, { method: "DELETE" }, noDeleteScope)
    expect(refused.status).toBe(401)
  })
})
