/**
 * Boleto on the transparent checkout through real HTTP on PostgreSQL: valid
 * FEBRABAN codes for independent validators, a real PDF served by the engine
 * that a PDF parser reads the digitable line back from, the address rules,
 * and sandbox payment with `payment.success`.
 */
import { isValidBoleto } from "@brazilian-utils/brazilian-utils"
import { chargesPass } from "@billing/worker"
import boletoValidator from "boleto-brasileiro-validator"
import { Result } from "effect"
import { extractText } from "unpdf"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { saoPauloDate } from "../packages/core/src/brazil/BankCalendar.ts"
import { parseDigitableLine } from "../packages/core/src/brazil/Boleto.ts"
import { addDays } from "../packages/core/src/brazil/CalendarDate.ts"
import { startEngine, type TestEngine } from "./support/Engine.ts"

describe("boleto checkout on postgres", () => {
  let engine: TestEngine
  let headers: Record<string, string>
  const post = (body: unknown) => fetch(`${engine.baseUrl}/v1/charges`, { method: "POST", headers, body: JSON.stringify(body) })
  const address = { street: "Av. Paulista", number: "1000", neighborhood: "Bela Vista", city: "São Paulo", state: "SP", zipCode: "01310-100" }
  const customer = { name: "Ana Souza", email: "ana@example.com", documentNumber: "52998224725", address }

  beforeAll(async () => {
    engine = await startEngine("postgres")
    const account = await engine.createAccount({ name: "Loja Boleto" })
    headers = { authorization: `Bearer ${await engine.token(account)}`, "content-type": "application/json" }
  })
  afterAll(() => engine?.dispose())

  it("issues a boleto whose line and barcode independent validators accept, with a PDF that carries the line", async () => {
    const dueDate = addDays(saoPauloDate(Date.now()), 5)
    const response = await post({ paymentMethod: "boleto", amount: 1026.56, customer, dueDate, boletoInstructions: "Não receber após o vencimento" })
    expect(response.status).toBe(200)
    const body = await response.json()
    expect(body).toMatchObject({ success: true, status: "pending", boleto: { dueDate } })
    const { digitableLine, barCode, pdfUrl } = body.boleto
    expect(isValidBoleto(digitableLine)).toBe(true)
    expect(boletoValidator.boletoBancario(digitableLine, true)).toBe(true)
    expect(boletoValidator.boletoBancario(barCode, true)).toBe(true)
    const parsed = Result.getOrThrow(parseDigitableLine(digitableLine, dueDate))
    expect(parsed).toMatchObject({ amountCents: 102656, dueDate, barcode: barCode })

    expect(pdfUrl).toBe(`${engine.baseUrl}/v1/charges/${body.chargeId}/boleto.pdf`)
    const pdf = await fetch(pdfUrl) // public: no token
    expect(pdf.status).toBe(200)
    expect(pdf.headers.get("content-type")).toContain("application/pdf")
    const bytes = new Uint8Array(await pdf.arrayBuffer())
    expect(new TextDecoder().decode(bytes.slice(0, 8))).toBe("%PDF-1.4")
    const { text } = await extractText(bytes, { mergePages: true })
    expect(text.replace(/[\s.]/g, "")).toContain(digitableLine)
    expect(text).toContain("R$ 1.026,56")

    const detail = await (await fetch(`${engine.baseUrl}/v1/charges/${body.chargeId}?view=detail`, { headers })).json()
    expect(detail).toMatchObject({ paymentType: "BOLETO", pix: null, boleto: { digitableLine, barCode, dueDate }, address: { zipCode: "01310100", state: "SP", cityCode: "3550308" } })
  })

  it("requires a complete address and a due date after today; 404 and CHARGE_NOT_BOLETO on the PDF route", async () => {
    const today = saoPauloDate(Date.now())
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ customer: { ...customer, address: undefined } }, "customer.address"],
      [{ customer: { ...customer, address: { ...address, street: "" } } }, "customer.address.street"],
      [{ customer: { ...customer, address: { ...address, state: "XX" } } }, "customer.address.state"],
      [{ dueDate: today }, "dueDate"],
      [{ boletoDueDays: 0 }, "boletoDueDays"],
      [{ expirationAfterDueDate: 61 }, "expirationAfterDueDate"]
    ]
    for (const [extra, field] of cases) {
      const response = await post({ paymentMethod: "boleto", amount: 10, customer, ...extra })
      const text = await response.text()
      expect(response.status, `${JSON.stringify(extra)} → ${text}`).toBe(400)
      expect(text).toContain(field)
    }
    expect((await fetch(`${engine.baseUrl}/v1/charges/SANDBOX_cha_nope/boleto.pdf`)).status).toBe(404)
    const pix = await (await post({ paymentMethod: "pix", amount: 10, customer })).json()
    const notBoleto = await fetch(`${engine.baseUrl}/v1/charges/${pix.chargeId}/boleto.pdf`)
    expect(notBoleto.status).toBe(400)
    expect((await notBoleto.json()).error.code).toBe("CHARGE_NOT_BOLETO")
  })

  it("defaults to 30 days and pays in sandbox like Pix, emitting payment.success", async () => {
    const body = await (await post({ paymentMethod: "boleto", amount: 50, customer })).json()
    expect(body.boleto.dueDate).toBe(addDays(saoPauloDate(Date.now()), 30))
    const pay = await fetch(`${engine.baseUrl}/v1/wallet/pay/${body.chargeId}`, { method: "POST", headers })
    expect((await pay.json()).status).toBe("PROCESSING")
    await engine.run(chargesPass())
    const view = await (await fetch(`${engine.baseUrl}/v1/charges/${body.chargeId}`, { headers })).json()
    expect(view).toMatchObject({ status: "PAID", paymentType: "BOLETO" })
  })
})
