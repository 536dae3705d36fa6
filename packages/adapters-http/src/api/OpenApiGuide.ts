/**
 * The introduction of the API reference (`info.description`, the first thing
 * `/docs` shows): the guide a new integrator reads before any route. The
 * sandbox tables in it are the sandbox layers' own values, imported, so the
 * guide cannot promise a card number, a document prefix or a refund amount
 * the sandbox does not honour; it names only what the engine has.
 */
import {
  SANDBOX_DECLINING_CARDS,
  SANDBOX_FAILING_KEY_DOMAIN,
  SANDBOX_KYC_REPROVING_PREFIX,
  SANDBOX_REFUSAL_MARK,
  SANDBOX_REFUSED_REFUND_CENTS
} from "@billing/core"

const cardRows = Object.entries(SANDBOX_DECLINING_CARDS).map(([number, code]) => `| \`${number}\` | declined: \`${code}\` |`).join("\n")

const stageNames = { backgroundCheck: "background check", documentsCopy: "documents copy", proposal: "proposal analysis" } as const

const kycRows = Object.entries(SANDBOX_KYC_REPROVING_PREFIX)
  .map(([stage, prefix]) => `| \`${prefix}…\` | reproved at the ${stageNames[stage as keyof typeof stageNames]} |`)
  .join("\n")

const refusedRefund = `0.${String(SANDBOX_REFUSED_REFUND_CENTS).padStart(2, "0")}`

export const API_GUIDE = `Pix, boleto and card charges, subscriptions, split, wallet, fiscal service invoices (NFS-e) and signed webhooks, for Brazilian merchants.

## Quick start (sandbox)

1. Get a token with your client credentials (\`billing serve\` prints the sandbox account's, and \`billing accounts create --sandbox\` makes more):
   \`curl -s -X POST http://localhost:3000/auth/token -d grant_type=client_credentials -d client_id=… -d client_secret=…\`
2. Send it as \`Authorization: Bearer <access_token>\`. A token lasts \`expires_in\` seconds; ask for a new one when it ends (the same credentials get the same token while it is valid).
3. Create a Pix charge: \`POST /v1/charges/pix\` with \`{ "amount": 10.00 }\` (reais, two decimals). Pay it in the sandbox with \`POST /v1/wallet/pay/{chargeId}\`: the worker confirms it and your webhook receives \`payment.success\`.

**Scopes.** A token carries the scopes its credentials were given (all of them unless you ask for fewer with \`scope\`); each operation below names the one it needs.

## Sandbox tables

Cards: any 16 digits approve, except

| number | result |
|---|---|
${cardRows}

Sub-account proposals (KYC), by the first digits of the proposal's or a partner's document; any other is approved:

| document | result |
|---|---|
${kycRows}

Pix: a refund whose centavos are ${SANDBOX_REFUSED_REFUND_CENTS} (such as ${refusedRefund} or 20.${SANDBOX_REFUSED_REFUND_CENTS}) is refused by the payer's bank; a withdrawal to an e-mail key at \`@${SANDBOX_FAILING_KEY_DOMAIN}\` is refused by the receiving institution.

Fiscal notes (NFS-e), by the sandbox city:

| note | result |
|---|---|
| standalone (\`POST /v1/invoices/notas\`) | \`ISSUED\` at once |
| a charge's (\`emitir\`, or its configuration's \`invoiceTiming\`) | \`PROCESSING\`, then \`AUTHORIZED\` at the worker's next pass |
| description containing \`${SANDBOX_REFUSAL_MARK}\` | \`FAILED\`, the city's message in \`nf.errors\`; \`reemitir\` with another description |
| cancel (\`DELETE …?motivo=\`, 15 to 255 characters) | \`CANCELED\` |

## Idempotency

\`POST /v1/charges\` takes an \`externalId\`: a second request with the same one answers 409 \`DUPLICATE_CHARGE\` with the first charge's id instead of charging twice. Retry any request whose answer you did not get with the same \`externalId\`.

## Errors

Every refusal has one shape: \`{ "error": { "code": "INVALID_DATA", "message": "…", "details": { "field": "amount" } } }\`, with the HTTP status each operation lists (400 bad input, 401 no or bad token, 402 card refused, 404 not yours or not there, 409 conflicts, 422 business rules, 429 with \`Retry-After\`, 503 \`PROVIDER_NOT_CONFIGURED\` for a production account without the provider). \`/auth/token\` answers in OAuth 2.0's own shape (\`error\`, \`error_description\`).

## Webhooks

Register a URL with \`POST /v1/users/webhooks\`; keep the \`secret\` it answers. Every delivery is signed: \`X-Webhook-Signature: t=<ms>,v1=<hex HMAC-SHA-256(secret, "<t>.<raw body>")>\`. Verify it over the raw body before trusting it, and answer 2xx quickly; deliveries that fail are retried with backoff. With \`@billing/core\`:

\`\`\`ts
import { verifyWebhookSignature } from "@billing/core"
import { createServer } from "node:http"

createServer((req, res) => {
  let body = ""
  req.on("data", (chunk) => (body += chunk))
  req.on("end", async () => {
    const { valid } = await verifyWebhookSignature({ header: req.headers["x-webhook-signature"], body, secret: process.env.WEBHOOK_SECRET })
    res.writeHead(valid ? 204 : 401).end()
    if (valid) console.log(JSON.parse(body).event)
  })
}).listen(8080)
\`\`\`

## Test clocks

A sandbox account has its own clock: \`POST /v1/sandbox/clock/advance\` moves it (and runs everything that comes due on the way: cycles, retries, expiries, overdue marks), so a year of a subscription takes one call. \`GET /v1/sandbox/clock\` reads it.

## Going to production

A production account takes real Pix through a PSP of the Banco Central's API Pix named in the providers file (\`BILLING_PROVIDERS_FILE\`; see the README's Production section). Until a provider is configured, a production account's money routes answer 503 \`PROVIDER_NOT_CONFIGURED\` and change nothing.`
