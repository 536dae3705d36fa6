/**
 * A billing batch reads its subscriptions once and, under their locks,
 * compares versions instead of reading them again (`VersionedBillable`). The
 * version must change with any write that could change what a cycle bills
 * (the subscription, an item changed or added, a cycle) and with nothing
 * else; on both databases the engine runs on.
 */
import { SubscriptionId, Subscriptions, Transactor } from "@billing/core"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { databaseKinds, startEngine, type TestEngine } from "./support/Engine.ts"

describe.each(databaseKinds)("billable versions on %s", (kind) => {
  let engine: TestEngine
  let subscriptionId: SubscriptionId
  const sql = (f: (sql: SqlClient.SqlClient) => Effect.Effect<unknown, unknown>) => engine.run(Effect.flatMap(SqlClient.SqlClient, f))
  const readVersion = async () => {
    const [read] = await engine.run(Effect.flatMap(Subscriptions, (s) => s.findBillable([subscriptionId])))
    return read!.version
  }
  const lockedVersion = () =>
    engine.run(Effect.flatMap(Transactor, (t) => t.withTransaction(Effect.flatMap(Subscriptions, (s) => s.lockMany([subscriptionId])))))
      .then((versions) => versions.get(subscriptionId))

  beforeAll(async () => {
    engine = await startEngine(kind)
    const account = await engine.createAccount()
    const headers = { authorization: `Bearer ${await engine.token(account)}`, "content-type": "application/json" }
    const post = async (path: string, body: unknown) =>
      (await fetch(`${engine.baseUrl}${path}`, { method: "POST", headers, body: JSON.stringify(body) })).json()
    const product = await post("/v1/products", {
      name: "Plano",
      type: "RECURRING",
      prices: [{ title: "Plano", amount: 99.9, recurrenceType: "MONTHLY", recurrenceInterval: 1 }]
    })
    const bought = await post("/v1/charges", {
      paymentMethod: "pix",
      customer: { name: "Ana Souza", email: "ana@example.com", documentNumber: "52998224725", phone: "+5511987654321" },
      items: [{ priceId: product.prices[0].priceId }]
    })
    subscriptionId = SubscriptionId.make(bought.subscriptionId)
  })
  afterAll(() => engine?.dispose())

  it("is the same under the lock when nothing was written, and reading does not change it", async () => {
    const read = await readVersion()
    expect(await lockedVersion()).toBe(read)
    expect(await readVersion()).toBe(read)
  })

  it("changes when the subscription, an item or a cycle is written, or an item added", async () => {
    const writes = [
      (s: SqlClient.SqlClient) => s`UPDATE subscriptions SET cancel_at_period_end = cancel_at_period_end WHERE id = ${subscriptionId}`,
      (s: SqlClient.SqlClient) => s`UPDATE subscription_items SET quantity = 2 WHERE subscription_id = ${subscriptionId}`,
      (s: SqlClient.SqlClient) => s`UPDATE billing_cycles SET adjustment_cents = 0 WHERE subscription_id = ${subscriptionId}`,
      (s: SqlClient.SqlClient) =>
        s`INSERT INTO subscription_items SELECT (jsonb_populate_record(i, jsonb_build_object('id', 'copy', 'position', 9, 'status', 'CANCELED'))).*
          FROM subscription_items i WHERE subscription_id = ${subscriptionId}`
    ]
    for (const write of writes) {
      const read = await readVersion()
      await sql(write)
      const locked = await lockedVersion()
      expect(locked).not.toBe(read)
      // And the new version is what a new read finds.
      expect(await readVersion()).toBe(locked)
    }
  })
})
