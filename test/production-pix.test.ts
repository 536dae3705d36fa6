/**
 * A production account takes a real Pix, end to end through real HTTP on
 * PostgreSQL, against a fake PSP of the BCB API Pix (mutual TLS, every
 * message checked against the BCB OpenAPI): the charge is registered at the
 * PSP (`PUT /cob`) and shows the PSP's BR Code and name; the PSP's callback
 * (`POST /psp/pix/{name}/{secret}/pix`) confirms it once however often it
 * comes; the merchant's webhook receives a signed `payment.success` with the
 * PSP's end-to-end id. A wrong secret is a 404 and changes nothing.
 */
import { verifyWebhookSignature } from "@billing/core"
import { callbackSecret, fromPem, type ProvidersConfig } from "@billing/providers"
import { deliveryPass } from "@billing/worker"
import { Redacted, Result } from "effect"
import { parsePix } from "pix-utils"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type FakePsp, startFakePsp } from "../packages/providers/test/support/FakePsp.ts"
import { makeTestPki } from "../packages/providers/test/support/TestCertificates.ts"
import { startEngine, type TestEngine } from "./support/Engine.ts"
import { startReceiver } from "./support/Receiver.ts"

const PSP = "fake-bcb"
const PIX_KEY = "11444777000161"

describe("production Pix through a PSP", () => {
  const pki = makeTestPki()
  let fake: FakePsp
  let engine: TestEngine
  beforeAll(async () => {
    fake = await startFakePsp(pki, { profile: "bcb", pixKey: PIX_KEY })
    const providers: ProvidersConfig = {
      publicUrl: "http://127.0.0.1",
      pix: [{
        name: PSP,
        profile: "bcb",
        baseUrl: fake.baseUrl,
        tokenUrl: fake.tokenUrl,
        clientId: "client-1",
        clientSecret: Redacted.make("secret-1"),
        pixKey: { type: "CNPJ", value: PIX_KEY },
        certificate: Result.getOrThrow(fromPem(pki.client.certPem, pki.client.keyPem)),
        ca: pki.caPem,
        scopes: [],
        appKey: undefined
      }]
    }
    engine = await startEngine("postgres", { providers })
  })
  afterAll(async () => {
    await engine?.dispose()
    await fake?.close()
  })

  it("registers the charge at the PSP, and its callback pays it once, with the PSP's end-to-end id in payment.success", async () => {
    const production = await engine.createAccount({ sandbox: false })
    const headers = { authorization: `Bearer ${await engine.token(production)}`, "content-type": "application/json" }
    const call = (path: string, init: RequestInit = {}) => fetch(`${engine.baseUrl}${path}`, { ...init, headers })
    const receiver = await startReceiver()
    const hook = await (await call("/v1/users/webhooks", { method: "POST", body: JSON.stringify({ url: receiver.url, events: ["payment.success"] }) })).json()

    const created = await call("/v1/charges/pix", { method: "POST", body: JSON.stringify({ amount: 12.34 }) })
    expect(created.status).toBe(200)
    const { chargeId, emv } = await created.json()
    const detail = await (await call(`/v1/charges/${chargeId}?view=detail`)).json()
    expect(detail.pix.psp).toBe(PSP)
    // The PSP holds the charge under our txid behind its prefix, for the amount asked; the code is the PSP's own.
    const cob = fake.book.cobs.get(`BLNG${detail.pix.txid}`)!
    expect(cob.request.valor.original).toBe("12.34")
    const code = parsePix(emv) as { type: string; url?: string }
    expect(code.type).toBe("DYNAMIC")
    expect(code.url).toBe(cob.location)

    const endToEndId = fake.pay(`BLNG${detail.pix.txid}`)
    const received = fake.book.pix.find((pix) => pix.endToEndId === endToEndId)!
    const secret = await engine.run(callbackSecret(PSP))
    const callback = (path: string) =>
      fetch(`${engine.baseUrl}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ pix: [received, received] }) })

    expect((await callback(`/psp/pix/${PSP}/${"0".repeat(secret.length)}/pix`)).status).toBe(404)
    expect((await (await call(`/v1/charges/${chargeId}`)).json()).status).toBe("PENDING")

    expect((await callback(`/psp/pix/${PSP}/${secret}/pix`)).status).toBe(200)
    // The PSP repeats its callback: nothing moves twice.
    expect((await callback(`/psp/pix/${PSP}/${secret}/pix`)).status).toBe(200)
    const paid = await (await call(`/v1/charges/${chargeId}?view=detail`)).json()
    expect(paid).toMatchObject({ status: "PAID", pix: { endToEndId } })

    await engine.run(deliveryPass())
    const deliveries = receiver.received.filter((r) => JSON.parse(r.body).chargeId === chargeId)
    expect(deliveries).toHaveLength(1)
    const delivered = deliveries[0]!
    expect(await verifyWebhookSignature({ header: delivered.headers["x-webhook-signature"] as string, body: delivered.body, secret: hook.secret }))
      .toMatchObject({ valid: true })
    expect(JSON.parse(delivered.body)).toMatchObject({ event: "payment.success", chargeId, paymentId: endToEndId })
    expect(fake.violations).toEqual([])
    await receiver.close()
  })
})
