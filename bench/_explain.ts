import { Billing } from "@billing/core"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { startEngine } from "/work/main/test/support/Engine.ts"
const engine = await startEngine("postgres")
const sql = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) => engine.run(Effect.flatMap(SqlClient.SqlClient, f))
const accounts = await Promise.all(Array.from({ length: 5 }, () => engine.createAccount()))
for (let r = 0; r < 10; r++) await engine.run(Billing.registerWebhook({ url: "http://127.0.0.1:1/", events: ["payment.success"] }).pipe(Billing.asAccount(accounts[r % 5]!.accountId)))
const ids = accounts.map((a) => a.accountId)
await sql((s) => s`INSERT INTO outbox (account_id, event, body, created_at)
    SELECT (${ids})[1 + i % 5], 'payment.success',
      json_build_object('event', 'payment.success', 'timestamp', now(), 'accountId', 'acc', 'chargeId', 'cha_bench_' || i, 'amount', 10.5, 'status', 'PAID')::text, now()
    FROM generate_series(0, 24999) AS i`)
let t = performance.now(); let n = 0
for (;;) { const k = await engine.run(Billing.fanOut(500)); if (k === 0) break; n += k }
console.log("fanout", n, (performance.now() - t).toFixed(0), "ms")
console.log((engine.config as any).databaseUrl)
let lt = 0, ct = 0
for (let i = 0; i < 200; i++) {
  t = performance.now()
  const { deliveries } = await engine.run(Billing.leaseDeliveries({ limit: 200, room: { others: 16, of: new Map() } }))
  lt += performance.now() - t; t = performance.now()
  await engine.run(Billing.recordOutcomes(deliveries.map((d) => ({ id: d.id, webhookId: d.webhookId, event: d.event, status: "delivered", responseStatusCode: 200, error: null, at: new Date(), countAttempt: false }))))
  ct += performance.now() - t
  if (i % 50 === 49) { console.log(i + 1, "lease ms", (lt / 50).toFixed(1), "complete ms", (ct / 50).toFixed(1)); lt = 0; ct = 0 }
}
await new Promise((r) => setTimeout(r, 1e9))
