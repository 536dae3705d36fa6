/**
 * Coupons through real HTTP on PostgreSQL: management, the public
 * validation with every reason, and redemptions that never exceed
 * `maxRedemptions` under concurrency.
 */
import { Billing } from "@billing/core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startEngine, type TestEngine } from "./support/Engine.ts"

describe("coupons on postgres", () => {
  let engine: TestEngine
  let account: Awaited<ReturnType<TestEngine["createAccount"]>>
  let headers: Record<string, string>
  const call = (path: string, init: RequestInit = {}, as = headers) => fetch(`${engine.baseUrl}/v1/coupons${path}`, { ...init, headers: as })
  const send = (method: string, path: string, body: unknown, as = headers) => call(path, { method, body: JSON.stringify(body) }, as)
  const validate = async (body: unknown) => {
    const response = await fetch(`${engine.baseUrl}/v1/coupons/validate`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
    expect(response.status).toBe(200)
    return response.json()
  }

  beforeAll(async () => {
    engine = await startEngine("postgres")
    account = await engine.createAccount()
    headers = { authorization: `Bearer ${await engine.token(account, "coupons/write coupons/read products/read")}`, "content-type": "application/json" }
  })
  afterAll(() => engine?.dispose())

  it("creates, reads, lists, updates and pauses a coupon; INACTIVE is terminal", async () => {
    const created = await send("POST", "", { code: "PROMO10", name: "Promo 10%", discountType: "PERCENTAGE", discountValue: 10, maxDiscount: 50, minAmount: 20 })
    expect(created.status).toBe(201)
    const coupon = await created.json()
    expect(coupon.couponId).toMatch(/^SANDBOX_coup_/)
    expect(coupon).toMatchObject({ code: "PROMO10", discountValue: 10, maxDiscount: 50, minAmount: 20, currentRedemptions: 0, status: "ACTIVE", extraPeriodUnit: null })
    expect(await (await call(`/${coupon.couponId}`)).text()).toContain('"maxDiscount":50.00')
    const list = await (await call("?search=promo")).json()
    expect(list.items.map((c: { code: string }) => c.code)).toContain("PROMO10")
    expect(list.pagination).toMatchObject({ limit: 50, hasMore: false, lastKey: null })
    const updated = await (await send("PUT", `/${coupon.couponId}`, { name: "Promo de dez" })).json()
    expect(updated).toMatchObject({ name: "Promo de dez", discountValue: 10 })
    expect((await (await send("PATCH", `/${coupon.couponId}/status`, { status: "PAUSED" })).json()).status).toBe("PAUSED")
    expect((await validate({ code: "PROMO10", accountNumber: account.accountNumber })).reason).toBe("COUPON_INACTIVE")
    expect((await (await send("PATCH", `/${coupon.couponId}/status`, { status: "ACTIVE" })).json()).status).toBe("ACTIVE")
    expect((await (await send("PATCH", `/${coupon.couponId}/status`, { status: "INACTIVE" })).json()).status).toBe("INACTIVE")
    const back = await send("PATCH", `/${coupon.couponId}/status`, { status: "ACTIVE" })
    expect(back.status).toBe(400)
    expect((await back.json()).error.code).toBe("COUPON_INACTIVE_CANNOT_REACTIVATE")
  })

  it("refuses invalid coupons and a repeated code", async () => {
    const cases: Array<[unknown, string]> = [
      [{ code: "A", name: "x", discountType: "FIXED", discountValue: 5 }, "code"],
      [{ code: "OKCODE", discountType: "FIXED", discountValue: 5 }, "name"],
      [{ code: "OKCODE", name: "x", discountType: "PERCENTAGE", discountValue: 101 }, "discountValue"],
      [{ code: "OKCODE", name: "x", discountType: "FIXED", discountValue: 5.001 }, "discountValue"],
      [{ code: "OKCODE", name: "x", discountType: "EXTRA_PERIOD", discountValue: 1 }, "extraPeriodUnit"],
      [{ code: "OKCODE", name: "x", discountType: "BOGUS", discountValue: 1 }, "discountType"],
      [{ code: "OKCODE", name: "x", discountType: "FIXED", discountValue: 5, validFrom: "2027-01-01T00:00:00Z", validUntil: "2026-01-01T00:00:00Z" }, "validUntil"]
    ]
    for (const [body, field] of cases) {
      const response = await send("POST", "", body)
      const text = await response.text()
      expect(response.status, `${JSON.stringify(body)} → ${text}`).toBe(400)
      expect(JSON.parse(text).error.code).toBe("INVALID_DATA")
      expect(text).toContain(field)
    }
    await send("POST", "", { code: "UNIQUE1", name: "x", discountType: "FIXED", discountValue: 5 })
    const again = await send("POST", "", { code: "unique1", name: "y", discountType: "FIXED", discountValue: 6 })
    expect(again.status).toBe(400)
    expect((await again.json()).error.code).toBe("COUPON_CODE_ALREADY_EXISTS")
  })

  it("validates publicly, always with 200: valid with the discount, or exactly one reason", async () => {
    const future = new Date(Date.now() + 86_400_000).toISOString()
    const past = new Date(Date.now() - 86_400_000).toISOString()
    const make = async (code: string, extra: Record<string, unknown>) =>
      (await send("POST", "", { code, name: code, discountType: "PERCENTAGE", discountValue: 15, ...extra })).json()
    const price = "SANDBOX_price_eligible"
    await make("VALID15", { maxDiscount: 20, productIds: [price], appliesTo: "ONE_TIME", minAmount: 10, firstTimeOnly: true })
    await make("LATER", { validFrom: future })
    await make("OLD", { validUntil: past })
    const exhausted = await make("ONEUSE", { maxRedemptions: 1 })
    expect(await engine.run(Billing.redeemCoupon(exhausted.couponId, "order-1", null))).toBe(true)
    const used = await make("FIRSTONLY", { firstTimeOnly: true })
    await engine.run(Billing.redeemCoupon(used.couponId, "order-2", "52998224725"))

    const on = { accountNumber: account.accountNumber }
    // 15% of 200.00 = 30.00, capped at maxDiscount 20.00 → final 180.00.
    const ok = await validate({ ...on, code: "valid15", amount: 200, productIds: [price], chargeType: "ONE_TIME", customerDocument: "11144477735" })
    expect(ok).toMatchObject({ valid: true, coupon: { code: "VALID15", discountType: "PERCENTAGE", discountValue: 15, maxDiscount: 20, appliesTo: "ONE_TIME", firstTimeOnly: true }, discountAmount: 20, finalAmount: 180 })
    const reasons: Array<[unknown, string]> = [
      [{ ...on, code: "NOPE" }, "COUPON_NOT_FOUND"],
      [{ ...on, code: "LATER" }, "COUPON_NOT_STARTED"],
      [{ ...on, code: "OLD" }, "COUPON_EXPIRED"],
      [{ ...on, code: "ONEUSE" }, "COUPON_EXHAUSTED"],
      [{ ...on, code: "VALID15", chargeType: "RECURRING" }, "COUPON_NOT_APPLICABLE"],
      [{ ...on, code: "VALID15", chargeType: "ONE_TIME", productIds: ["SANDBOX_price_other"] }, "PRODUCT_NOT_ELIGIBLE"],
      [{ ...on, code: "VALID15", chargeType: "ONE_TIME", amount: 9.99 }, "MIN_AMOUNT_NOT_MET"],
      [{ ...on, code: "FIRSTONLY", customerDocument: "529.982.247-25" }, "COUPON_ALREADY_USED"],
      [{ ...on }, "COUPON_NOT_FOUND"],
      ["not even an object", "COUPON_NOT_FOUND"]
    ]
    for (const [body, reason] of reasons) expect(await validate(body), JSON.stringify(body)).toEqual({ valid: false, reason })
  })

  it("names the merchant of a validation that sends only the spec's fields: by its products, else by a code one account alone has", async () => {
    const merchant = async (name: string) => {
      const opened = await engine.createAccount({ name })
      const as = { authorization: `Bearer ${await engine.token(opened)}`, "content-type": "application/json" }
      const body = JSON.stringify({ name: `Plano ${name}`, type: "ONE_TIME", prices: [{ title: "Avulso", amount: 100, recurrenceType: "ONE_TIME" }] })
      const product = await (await fetch(`${engine.baseUrl}/v1/products`, { method: "POST", headers: as, body })).json()
      return { opened, as, priceId: product.prices[0].priceId as string }
    }
    const a = await merchant("Loja A")
    const b = await merchant("Loja B")
    const coupon = (as: Record<string, string>, code: string, discountType: string, discountValue: number) =>
      send("POST", "", { code, name: code, discountType, discountValue }, as).then((r) => expect(r.status).toBe(201))
    await coupon(a.as, "DOISLADOS", "PERCENTAGE", 10)
    await coupon(b.as, "DOISLADOS", "FIXED", 1)
    await coupon(a.as, "SOAQUI", "FIXED", 5)

    // The only account with the code: 100.00 − 5.00.
    expect(await validate({ code: "soaqui", amount: 100 })).toMatchObject({ valid: true, coupon: { code: "SOAQUI" }, discountAmount: 5, finalAmount: 95 })
    // A code two merchants use, with nothing naming either: not found, for both.
    expect(await validate({ code: "DOISLADOS", amount: 100 })).toEqual({ valid: false, reason: "COUPON_NOT_FOUND" })
    // The price ids name their merchant: A's 10% of 100.00, B's fixed 1.00.
    expect(await validate({ code: "DOISLADOS", amount: 100, productIds: [a.priceId] })).toMatchObject({ valid: true, discountAmount: 10, finalAmount: 90 })
    expect(await validate({ code: "DOISLADOS", amount: 100, productIds: [b.priceId] })).toMatchObject({ valid: true, discountAmount: 1, finalAmount: 99 })
    // B's products name B, which has no such code: A's coupon does not answer for B's customers.
    expect(await validate({ code: "SOAQUI", productIds: [b.priceId] })).toEqual({ valid: false, reason: "COUPON_NOT_FOUND" })
    // The ways to name a merchant that existed still win: the account number in the body, the header, the path's code.
    expect(await validate({ code: "DOISLADOS", amount: 100, accountNumber: b.opened.accountNumber })).toMatchObject({ valid: true, finalAmount: 99 })
    const byHeader = await fetch(`${engine.baseUrl}/v1/coupons/validate`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-account-number": a.opened.accountNumber },
      body: JSON.stringify({ code: "DOISLADOS", amount: 100 })
    })
    expect(await byHeader.json()).toMatchObject({ valid: true, finalAmount: 90 })
    const byPath = await fetch(`${engine.baseUrl}/v1/coupons/SOAQUI/validate`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })
    expect(await byPath.json()).toMatchObject({ valid: true, coupon: { code: "SOAQUI" } })
  })

  it("never counts more than maxRedemptions under 40 concurrent redemptions", async () => {
    const coupon = await (await send("POST", "", { code: "RACE5", name: "Race", discountType: "FIXED", discountValue: 1, maxRedemptions: 5 })).json()
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => engine.run(Billing.redeemCoupon(coupon.couponId, `order-${i}`, null))))
    expect(results.filter(Boolean)).toHaveLength(5)
    expect((await (await call(`/${coupon.couponId}`)).json()).currentRedemptions).toBe(5)
    // The same purchase is never counted twice.
    const single = await (await send("POST", "", { code: "ONCE", name: "Once", discountType: "FIXED", discountValue: 1 })).json()
    expect(await engine.run(Billing.redeemCoupon(single.couponId, "order-x", null))).toBe(true)
    expect(await engine.run(Billing.redeemCoupon(single.couponId, "order-x", null))).toBe(false)
    // A redeemed coupon cannot be deleted; an unused one can.
    const refused = await call(`/${coupon.couponId}`, { method: "DELETE" })
    expect((await refused.json()).error.code).toBe("COUPON_IN_USE")
    const unused = await (await send("POST", "", { code: "UNUSED", name: "Unused", discountType: "FIXED", discountValue: 1 })).json()
    expect((await call(`/${unused.couponId}`, { method: "DELETE" })).status).toBe(200)
    expect((await call(`/${unused.couponId}`)).status).toBe(404)
  })
})
