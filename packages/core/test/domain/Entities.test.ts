/**
 * Each persisted entity is one Schema (DESIGN: Schema first). Its JSON codec,
 * derived from it, is lossless: for any value the schema admits,
 * decode(encode(x)) is x again, through real JSON text.
 */
import * as Core from "@billing/core"
import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"

const entityNames = [
  "Account",
  "ApiClient",
  "Charge",
  "CheckoutLink",
  "Coupon",
  "Customer",
  "IssuedToken",
  "Notification",
  "OutboxEvent",
  "PaymentMethod",
  "Product",
  "WebhookDelivery",
  "WebhookRegistration"
] as const

describe("entity schemas", () => {
  for (const name of entityNames) {
    const schema = Core[name]
    const codec = Schema.toCodecJson(schema as Schema.Top & { readonly DecodingServices: never; readonly EncodingServices: never })
    const encode = Schema.encodeSync(codec)
    const decode = Schema.decodeUnknownSync(codec)
    // The schema's own equivalence: numbers compare as numbers (JSON has no -0), dates by instant.
    const equivalent = Schema.toEquivalence(schema as Schema.Schema<unknown>)
    it.prop(`${name}: decode(parse(stringify(encode(x)))) is equivalent to x`, { value: schema }, ({ value }) => {
      const text = JSON.stringify(encode(value))
      const back = decode(JSON.parse(text))
      expect(equivalent(back, value), text).toBe(true)
      // And encoding again gives the same text: nothing is lost or reordered.
      expect(JSON.stringify(encode(back))).toBe(text)
    }, { arbitrary: { runs: 100 } })
  }
})
