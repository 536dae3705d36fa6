import { createHmac } from "node:crypto"
import { describe, expect, it } from "vitest"
import { signWebhook, verifyWebhookSignature } from "../../src/webhooks/Signature.ts"

const secret = "whsec_test_secret_value"
const body = `{"event":"payment.success","amount":10.00}`
const t = 1_795_000_000_000

describe("webhook signature", () => {
  it("is HMAC-SHA256 over `<t>.<raw body>` in hex, as an independent HMAC computes it", async () => {
    const expected = createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")
    expect(await signWebhook(secret, body, t)).toBe(`t=${t},v1=${expected}`)
  })

  it("verifies its own signature within the tolerance, from text or bytes", async () => {
    const header = await signWebhook(secret, body, t)
    expect(await verifyWebhookSignature({ header, body, secret, nowMillis: t + 299_000 })).toEqual({ valid: true, timestampMillis: t })
    expect(await verifyWebhookSignature({ header, body: new TextEncoder().encode(body), secret, nowMillis: t }))
      .toMatchObject({ valid: true })
  })

  it("refuses a tampered body, a wrong secret, a stale or future timestamp, and malformed headers", async () => {
    const header = await signWebhook(secret, body, t)
    const at = { nowMillis: t }
    expect(await verifyWebhookSignature({ header, body: body.replace("10.00", "10.01"), secret, ...at }))
      .toEqual({ valid: false, reason: "bad_signature" })
    expect(await verifyWebhookSignature({ header, body: `${body} `, secret, ...at })).toEqual({ valid: false, reason: "bad_signature" })
    expect(await verifyWebhookSignature({ header, body, secret: `${secret}x`, ...at })).toEqual({ valid: false, reason: "bad_signature" })
    expect(await verifyWebhookSignature({ header, body, secret, nowMillis: t + 301_000 })).toEqual({ valid: false, reason: "stale" })
    expect(await verifyWebhookSignature({ header, body, secret, nowMillis: t - 301_000 })).toEqual({ valid: false, reason: "stale" })
    expect(await verifyWebhookSignature({ header: undefined, body, secret, ...at })).toEqual({ valid: false, reason: "missing_header" })
    expect(await verifyWebhookSignature({ header: "v1=abc", body, secret, ...at })).toEqual({ valid: false, reason: "malformed_header" })
    expect(await verifyWebhookSignature({ header: `t=${t}`, body, secret, ...at })).toEqual({ valid: false, reason: "malformed_header" })
  })

  it("uses the timestamp that was signed: replacing `t` breaks the signature", async () => {
    const header = await signWebhook(secret, body, t)
    const moved = header.replace(`t=${t}`, `t=${t + 1000}`)
    expect(await verifyWebhookSignature({ header: moved, body, secret, nowMillis: t })).toEqual({ valid: false, reason: "bad_signature" })
  })

  it("honours a custom tolerance", async () => {
    const header = await signWebhook(secret, body, t)
    expect(await verifyWebhookSignature({ header, body, secret, nowMillis: t + 10_000, toleranceSeconds: 5 }))
      .toEqual({ valid: false, reason: "stale" })
  })
})
