/**
 * What the crash loop's real webhook receiver got, as the invariants read
 * receipts: each request's delivery id, event and body's digest, and whether its
 * signature verifies with the registration's secret (as the merchant's
 * endpoint would check it, at the moment it arrived).
 */
import { verifyWebhookSignature } from "@billing/core"
import { Layer } from "effect"
import { Receipts } from "../sim/InvariantKit.ts"
import { bodyDigest, type Receipt } from "../sim/Receiver.ts"
import type { Outside } from "./Outside.ts"

const header = (value: string | ReadonlyArray<string> | undefined) => (Array.isArray(value) ? value[0] : value) as string | undefined

/** The receipts of `receiver`, signed with `secret`, and the layer the invariants read them from. */
export const receiptsOf = async (receiver: Outside["receiver"], secret: string) => {
  const receipts: ReadonlyArray<Receipt> = await Promise.all(receiver.received.map(async (request) => ({
    url: receiver.url,
    id: header(request.headers["x-webhook-event-id"]) ?? "",
    event: header(request.headers["x-webhook-event"]) ?? "",
    bodyMd5: bodyDigest(request.body),
    signatureValid: (await verifyWebhookSignature({ header: header(request.headers["x-webhook-signature"]), body: request.body, secret, nowMillis: request.at })).valid,
    answer: 200,
    at: request.at
  })))
  return { count: receipts.length, layer: Layer.succeed(Receipts, Receipts.of({ all: () => receipts })) }
}
