/**
 * N active monthly subscriptions due today, for the billing run's benchmark
 * and its multi-worker test: nine templates bought through the real API
 * (card, Pix and boleto; one, two or three items; some with a coupon, some
 * with a discount), cloned in SQL. Each clone has its first cycle paid (its
 * charge, its invoice and lines) and its second cycle `SCHEDULED` for today
 * in São Paulo, so one run issues exactly N cycles.
 */
import { PgClient } from "@effect/sql-pg"
import { Effect, Exit, Redacted, Scope } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import { cardExpiration } from "./Cards.ts"
import type { TestEngine } from "./Engine.ts"

/** The ids of the clones start with this; the templates' (lowercase base 36 after the prefix) never do. */
export const CLONE_PREFIX = "SANDBOX_sub_CLONE"

export const seedDueSubscriptions = async (engine: TestEngine, n: number): Promise<{ readonly accountId: string; readonly templates: number }> => {
  const scope = Effect.runSync(Scope.make())
  const url = (engine.config as { databaseUrl: string }).databaseUrl
  // One connection: the transaction below spans several statements.
  const sql = await Effect.runPromise(PgClient.make({ url: Redacted.make(url), maxConnections: 1 }).pipe(Scope.provide(scope), Effect.provide(Reactivity.layer)))
  const q = <A extends object = Record<string, unknown>>(text: string) => Effect.runPromise(sql.unsafe<A>(text))
  try {
    // Templates through the API.
    const account = await engine.createAccount()
    const headers = { authorization: `Bearer ${await engine.token(account)}`, "content-type": "application/json" }
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${engine.baseUrl}${path}`, { method: "POST", headers, body: JSON.stringify(body) })
      const json = await response.json()
      if (response.status !== 200 && response.status !== 201) throw new Error(`${path}: ${response.status} ${JSON.stringify(json)}`)
      return json
    }
    const price = async (title: string, amount: number) =>
      (await post("/v1/products", { name: title, type: "RECURRING", prices: [{ title, amount, recurrenceType: "MONTHLY", recurrenceInterval: 1 }] })).prices[0].priceId
    const prices = [await price("Plano", 99.9), await price("Usuário extra", 19.9), await price("Armazenamento", 9.9)]
    await post("/v1/coupons", { code: "BENCH10", name: "Dez por cento", discountType: "PERCENTAGE", discountValue: 10, appliesTo: "RECURRING" })
    const customer = {
      name: "Ana Souza",
      email: "ana@example.com",
      documentNumber: "52998224725",
      phone: "+5511987654321",
      address: { street: "Rua das Flores", number: "123", neighborhood: "Centro", city: "Florianópolis", state: "SC", zipCode: "88010000" }
    }
    const methods = [
      { paymentMethod: "creditcard", card: { number: "4111111111111111", cvv: "123", name: "ANA SOUZA", expiration: cardExpiration() } },
      { paymentMethod: "pix" },
      { paymentMethod: "boleto" }
    ]
    const templates: Array<string> = []
    for (const [m, method] of methods.entries()) {
      for (const count of [1, 2, 3]) {
        const extras = (m + count) % 3 === 0 ? { couponCode: "BENCH10" } : (m + count) % 3 === 1 ? { discounts: [{ type: "percentage", value: 5 }] } : {}
        const bought = await post("/v1/charges", { ...method, customer, items: prices.slice(0, count).map((priceId) => ({ priceId })), ...extras })
        templates.push(bought.subscriptionId)
      }
    }

    // Clones in SQL: N subscriptions, their items, their first charge and cycle (paid), their second cycle due today.
    const [today] = await q<{ d: string }>(`SELECT to_char(now() AT TIME ZONE 'America/Sao_Paulo', 'YYYY-MM-DD') AS d`)
    const columns = async (table: string, except: ReadonlyArray<string>) =>
      (await q<{ c: string }>(`SELECT column_name AS c FROM information_schema.columns WHERE table_name = '${table}' ORDER BY ordinal_position`))
        .map((r) => r.c).filter((c) => !except.includes(c))
    const cloneStatement = async (table: string, replaced: Record<string, string>, from: string) => {
      const cols = await columns(table, ["seq"])
      return `INSERT INTO ${table} (${cols.join(", ")}) SELECT ${cols.map((c) => (c in replaced ? `${replaced[c]}` : `t.${c}`)).join(", ")} ${from}`
    }
    const clone = async (table: string, replaced: Record<string, string>, from: string) => q(await cloneStatement(table, replaced, from))
    const list = templates.map((id) => `'${id}'`).join(", ")
    await q(`CREATE TEMP TABLE tpl AS SELECT id, row_number() OVER (ORDER BY id) - 1 AS k FROM subscriptions WHERE id IN (${list})`)
    const clones = `FROM generate_series(1, ${n}) g JOIN tpl ON tpl.k = g % 9`
    // One connection, one transaction: the cycles and charges name each other (deferred foreign keys).
    await q(`BEGIN`)
    await clone("subscriptions", {
      id: `'SANDBOX_sub_CLONE' || g`,
      status: `'ACTIVE'`,
      primary_item_id: `'SANDBOX_item_CLONE' || g || '_' || (SELECT i.position FROM subscription_items i WHERE i.id = t.primary_item_id)`,
      anchor_date: `'${today!.d}'::date`,
      anchor_cycle: "2",
      billing_day: `extract(day FROM '${today!.d}'::date)::int`,
      current_cycle_number: "1"
    }, `${clones} JOIN subscriptions t ON t.id = tpl.id`)
    await clone("subscription_items", {
      id: `'SANDBOX_item_CLONE' || g || '_' || t.position`,
      subscription_id: `'SANDBOX_sub_CLONE' || g`,
      status: `'ACTIVE'`
    }, `${clones} JOIN subscription_items t ON t.subscription_id = tpl.id`)
    await clone("charges", {
      id: `'SANDBOX_cha_CLONE' || g`,
      subscription_id: `'SANDBOX_sub_CLONE' || g`,
      status: `'PAID'`,
      txid: `'b' || g`,
      end_to_end_id: "NULL"
    }, `${clones} JOIN charges t ON t.subscription_id = tpl.id AND t.cycle_number = 1`)
    await clone("billing_cycles", {
      subscription_id: `'SANDBOX_sub_CLONE' || g`,
      status: `CASE t.cycle_number WHEN 1 THEN 'PAID' ELSE 'SCHEDULED' END`,
      charge_id: `CASE t.cycle_number WHEN 1 THEN 'SANDBOX_cha_CLONE' || g END`,
      due_date: `CASE t.cycle_number WHEN 1 THEN t.due_date ELSE '${today!.d}'::date END`,
      issue_date: `CASE t.cycle_number WHEN 1 THEN t.issue_date ELSE '${today!.d}'::date END`,
      period_start: `CASE t.cycle_number WHEN 1 THEN t.period_start ELSE '${today!.d}'::date END`
    }, `${clones} JOIN billing_cycles t ON t.subscription_id = tpl.id`)
    // The first invoice of each, as a real subscription has: the tables the run writes start at their real size.
    // Invoices with their lines in one statement, as the engine writes them: the balance is checked per statement.
    const invoices = await cloneStatement("invoices", {
      id: `'SANDBOX_inv_CLONE' || g`,
      subscription_id: `'SANDBOX_sub_CLONE' || g`,
      charge_id: `'SANDBOX_cha_CLONE' || g`,
      invoice_number: `1000 + g`,
      status: `'PAID'`
    }, `${clones} JOIN invoices t ON t.subscription_id = tpl.id AND t.cycle_number = 1`)
    const lines = await cloneStatement("invoice_lines", { invoice_id: `'SANDBOX_inv_CLONE' || g` },
      `${clones} JOIN invoices i ON i.subscription_id = tpl.id AND i.cycle_number = 1 JOIN invoice_lines t ON t.invoice_id = i.id`)
    await q(`WITH invoices_cloned AS (${invoices}) ${lines}`)
    await q(`UPDATE invoice_counters SET last_number = 1000 + ${n}`)
    await q(`COMMIT`)
    return { accountId: account.accountId, templates: templates.length }
  } finally {
    await Effect.runPromise(Scope.close(scope, Exit.void))
  }
}
