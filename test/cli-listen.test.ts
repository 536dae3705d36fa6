/**
 * `billing listen` and `billing trigger`, as Stripe's CLI users know them:
 * a triggered sandbox event goes through the real pipeline (charge, sandbox
 * payment, worker, outbox, delivery) to the URL `listen` forwards to, signed
 * with the secret `listen` printed.
 */
import { verifyWebhookSignature } from "@billing/core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Running, runBilling, startBilling } from "./support/Cli.ts"
import { freshPostgresDatabase } from "./support/Engine.ts"
import { startReceiver } from "./support/Receiver.ts"

describe("billing listen and billing trigger", () => {
  let db: Awaited<ReturnType<typeof freshPostgresDatabase>>
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  const running: Array<Running> = []
  const env = () => ({ DATABASE_URL: db.url })
  beforeAll(async () => {
    db = await freshPostgresDatabase()
    receiver = await startReceiver(() => ({ status: 204 }))
  })
  afterAll(async () => {
    await Promise.all(running.map((process) => process.stop()))
    await receiver?.close()
    await db?.drop()
  })

  it("trigger payment.success reaches the URL listen forwards to, signed with the secret it printed", async () => {
    const server = startBilling(["serve", "--port", "0"], env())
    running.push(server)
    const [, base] = await server.waitFor(/billing engine listening on (\S+)/, 60_000)
    const created = await runBilling(["accounts", "create", "--name", "Loja", "--document", "11444777000161", "--sandbox"], env())
    expect(created.status, created.stderr).toBe(0)
    const account = JSON.parse(created.stdout)

    const listen = startBilling(["listen", "--forward-to", receiver.url, "--account", account.accountId], env())
    running.push(listen)
    const [, secret] = await listen.waitFor(/webhook signing secret is (whsec_\w+)/)

    const triggered = await runBilling(["trigger", "payment.success", "--account", account.accountId], env())
    expect(triggered.status, triggered.stderr).toBe(0)
    const [, chargeId] = triggered.stdout.match(/payment\.success recorded for (\S+);/)!

    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(1)
    const [delivery] = receiver.received
    expect(await verifyWebhookSignature({ header: delivery!.headers["x-webhook-signature"] as string, body: delivery!.body, secret: secret! }))
      .toMatchObject({ valid: true })
    expect(JSON.parse(delivery!.body)).toMatchObject({ event: "payment.success", chargeId, metadata: { trigger: "payment.success" } })
    const eventId = delivery!.headers["x-webhook-event-id"]
    await listen.waitFor(new RegExp(`<-- \\[204\\] POST ${receiver.url} \\[${eventId}\\]`))
    expect(listen.stdout()).toContain(`--> payment.success [${eventId}]`)

    // Stopped, listen leaves no webhook behind.
    await listen.stop()
    const token = await fetch(`${base}/auth/token`, {
      method: "POST",
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: account.clientId, client_secret: account.clientSecret })
    }).then((r) => r.json())
    const webhooks = await fetch(`${base}/v1/users/webhooks`, { headers: { authorization: `Bearer ${token.access_token}` } }).then((r) => r.json())
    expect(webhooks.items).toEqual([])
  }, 120_000)

  it("trigger refuses an event it cannot emit, and an unknown account, in one line", async () => {
    const event = await runBilling(["trigger", "charge.expired", "--account", "acc_x"], env())
    expect(event.status).toBe(2)
    expect(event.stderr.split("\n")[0]).toBe(`billing: invalid <event> "charge.expired": expected payment.success`)
    const account = await runBilling(["trigger", "payment.success", "--account", "acc_nobody"], env())
    expect(account.status).toBe(2)
    expect(account.stderr.trim().split("\n").at(-1)).toMatch(/^billing: ACCOUNT_NOT_FOUND/)
  }, 60_000)
})
