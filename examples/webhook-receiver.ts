/**
 * A plain Node HTTP receiver for the engine's webhooks, verifying
 * `X-Webhook-Signature` with the helper of `@billing/core`.
 *
 *   WEBHOOK_SECRET=whsec_... bash scripts/node.sh node examples/webhook-receiver.ts
 *
 * then register `http://127.0.0.1:4000/webhooks` with `POST /v1/users/webhooks`
 * (the `secret` in that answer is WEBHOOK_SECRET; `PORT` changes the port).
 */
import { verifyWebhookSignature } from "@billing/core"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"

const secret = process.env.WEBHOOK_SECRET
if (!secret) {
  console.error("set WEBHOOK_SECRET to the secret returned when the webhook was registered")
  process.exit(2)
}
const port = Number(process.env.PORT ?? 4000)

const server = createServer((req, res) => {
  const chunks: Array<Buffer> = []
  req.on("data", (chunk: Buffer) => chunks.push(chunk))
  req.on("end", async () => {
    // Verify the raw bytes as received: parsing and re-serializing the JSON
    // would change them and break the signature.
    const raw = Buffer.concat(chunks)
    const result = await verifyWebhookSignature({
      header: req.headers["x-webhook-signature"] as string | undefined,
      body: raw,
      secret
    })
    if (!result.valid) {
      console.warn(`refused delivery: ${result.reason}`)
      res.writeHead(401).end()
      return
    }
    const event = JSON.parse(raw.toString("utf8"))
    // Deliveries can repeat and arrive out of order: handle them idempotently,
    // ordered by `timestamp`, keyed by the `x-webhook-event-id` header.
    console.log(`${req.headers["x-webhook-event-id"] ?? "test"} ${event.event}`, event)
    res.writeHead(204).end()
  })
})
server.listen(port, "127.0.0.1", () => {
  console.log(`webhook receiver on http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`)
})
