import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { simulate, withSimulatedTime } from "/work/main/sim/Simulation.ts"
import { WorldLive } from "/work/main/sim/World.ts"
import { CardBook } from "/work/main/sim/CardAcquirer.ts"
const [seed, days, id] = [Number(process.argv[2]), Number(process.argv[3]), process.argv[4]!]
await Effect.runPromise(Effect.gen(function*() {
  const r = yield* simulate({ seed, days })
  for (const l of r.steps) if (l.includes(id)) console.log("STEP", l)
  const sql = yield* SqlClient.SqlClient
  console.log(yield* sql`SELECT id, status, cycle_number, subscription_id, created_at, updated_at, expires_at, paid_at FROM charges WHERE id = ${id}`)
  console.log(yield* sql`SELECT b.subscription_id, b.cycle_number, b.status, b.attempt_count, b.claimed_until, b.charge_id FROM billing_cycles b JOIN charges c ON c.subscription_id = b.subscription_id AND c.cycle_number = b.cycle_number WHERE c.id = ${id}`)
  console.log(yield* sql`SELECT event, created_at FROM outbox WHERE body::jsonb ->> 'chargeId' = ${id} ORDER BY id`)
  const p = (yield* CardBook).payments.get(id)
  console.log(JSON.stringify(p))
  console.log(r.violations)
}).pipe(withSimulatedTime, Effect.provide(WorldLive(seed))))
