/**
 * The Pix charge lifecycle on the embedded PGlite, the zero-setup default:
 * the same migrations and statements as on PostgreSQL.
 */
import { chargesPass } from "@billing/worker"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startEngine, type TestEngine } from "./support/Engine.ts"

describe("Pix charges on pglite", () => {
  let engine: TestEngine
  let auth: Record<string, string>
  beforeAll(async () => {
    engine = await startEngine("pglite")
    const account = await engine.createAccount({ name: "Loja Embutida" })
    auth = { authorization: `Bearer ${await engine.token(account)}`, "content-type": "application/json" }
  })
  afterAll(() => engine?.dispose())

  it("creates, pays in sandbox, lists and refuses what the rules refuse", async () => {
    const created = await fetch(`${engine.baseUrl}/v1/charges/pix`, { method: "POST", headers: auth, body: JSON.stringify({ amount: 12.34, metadata: { k: "v" } }) })
    expect(created.status).toBe(200)
    const { chargeId } = await created.json()
    const pay = await fetch(`${engine.baseUrl}/v1/wallet/pay/${chargeId}`, { method: "POST", headers: auth })
    expect((await pay.json()).status).toBe("PROCESSING")
    await engine.run(chargesPass())
    const view = await (await fetch(`${engine.baseUrl}/v1/charges/${chargeId}`, { headers: auth })).json()
    expect(view).toMatchObject({ chargeId, status: "PAID", amount: 12.34 })
    const list = await (await fetch(`${engine.baseUrl}/v1/charges`, { headers: auth })).json()
    expect(list.totalItems).toBe(1)
    const bad = await fetch(`${engine.baseUrl}/v1/charges/pix`, { method: "POST", headers: auth, body: JSON.stringify({ amount: 0.001 }) })
    expect((await bad.json()).error.code).toBe("INVALID_DATA")
    const cancel = await fetch(`${engine.baseUrl}/v1/charges/${chargeId}`, { method: "DELETE", headers: auth })
    expect((await cancel.json()).error.code).toBe("CHARGE_NOT_CANCELABLE")
  })
})
