/**
 * The deployment of docs/operations.md on one PostgreSQL: two `billing
 * serve --no-worker` processes and two `billing worker` processes, no
 * balancer (the test spreads the requests itself). A mixed workload goes
 * through both servers: Pix charges created on one and paid (sandbox) on the
 * other, reads on both, while the workers confirm the payments and deliver
 * the webhooks. Then the invariants, counted from outside: every charge paid
 * once, each `payment.success` delivered once and signed, nothing left in
 * flight.
 */
import { verifyWebhookSignature } from "@billing/core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Running, runBilling, startBilling } from "./support/Cli.ts"
import { freshPostgresDatabase, TEST_SECRET_KEY } from "./support/Engine.ts"
import { startReceiver } from "./support/Receiver.ts"

const CHARGES = 40

describe("two servers and two workers on one database", () => {
  let db: Awaited<ReturnType<typeof freshPostgresDatabase>>
  const running: Array<Running> = []
  const env = () => ({ DATABASE_URL: db.url, BILLING_SECRET_KEY: TEST_SECRET_KEY, BILLING_DB_POOL: "5" })
  beforeAll(async () => {
    db = await freshPostgresDatabase()
    const migrated = await runBilling(["migrate"], env())
    expect(migrated.status, migrated.stderr).toBe(0)
  })
  afterAll(async () => {
    await Promise.all(running.map((process) => process.stop()))
    await db?.drop()
  })

  it("pays every charge once and delivers each payment.success once, whichever process took each step", async () => {
    const servers = [startBilling(["serve", "--port", "0", "--no-worker"], env()), startBilling(["serve", "--port", "0", "--no-worker"], env())]
    running.push(...servers)
    const bases = await Promise.all(servers.map(async (server) => (await server.waitFor(/billing engine listening on (\S+)/, 60_000))[1]!))
    running.push(startBilling(["worker"], env()), startBilling(["worker"], env()))

    const created = await runBilling(["accounts", "create", "--name", "Loja", "--document", "11444777000161", "--sandbox"], env())
    expect(created.status, created.stderr).toBe(0)
    const account = JSON.parse(created.stdout)
    const tokenAt = async (base: string) => {
      const body = new URLSearchParams({ grant_type: "client_credentials", client_id: account.clientId, client_secret: account.clientSecret })
      return ((await (await fetch(`${base}/auth/token`, { method: "POST", body })).json()) as { access_token: string }).access_token
    }
    // A token issued by one server is good on the other: one signing key for the installation.
    const token = await tokenAt(bases[0]!)
    const call = async (base: string, path: string, method = "GET", body?: unknown) => {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body)
      })
      return { status: response.status, body: await response.json() as any }
    }
    const receiver = await startReceiver()
    const hook = await call(bases[1]!, "/v1/users/webhooks", "POST", { url: receiver.url, events: ["payment.success"] })
    expect(hook.status).toBe(201)

    const chargeIds = await Promise.all(Array.from({ length: CHARGES }, async (_, i) => {
      const made = await call(bases[i % 2]!, "/v1/charges/pix", "POST", { amount: 10 + i })
      expect(made.status).toBe(200)
      const paid = await call(bases[(i + 1) % 2]!, `/v1/wallet/pay/${made.body.chargeId}`, "POST")
      expect(paid.body.status).toBe("PROCESSING")
      return made.body.chargeId as string
    }))

    // The workers confirm and deliver; read the outcome through either server until all is done.
    const delivered = () => new Set(receiver.received.map((r) => JSON.parse(r.body).chargeId))
    await expect.poll(() => chargeIds.every((id) => delivered().has(id)), { timeout: 60_000, interval: 200 }).toBe(true)
    let netTotal = 0
    for (const [i, chargeId] of chargeIds.entries()) {
      const view = await call(bases[i % 2]!, `/v1/charges/${chargeId}?view=detail`)
      expect(view.body.status).toBe("PAID")
      netTotal = Math.round(netTotal * 100 + view.body.netAmount * 100) / 100
    }
    // Each charge's payment.success once, signed with the registration's secret.
    expect(receiver.received).toHaveLength(CHARGES)
    for (const delivery of receiver.received) {
      expect(await verifyWebhookSignature({ header: delivery.headers["x-webhook-signature"] as string, body: delivery.body, secret: hook.body.secret }))
        .toMatchObject({ valid: true })
    }
    // The balance holds each payment once: what the merchant keeps of each.
    const balance = await call(bases[0]!, "/v1/wallet/balance")
    expect(balance.body.totalBalance).toBe(netTotal)
    await receiver.close()
  }, 180_000)
})
