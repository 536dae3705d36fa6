/**
 * The invariants of subscriptions that money depends on are PostgreSQL's:
 * each test writes, behind the engine's back, what a bug or a race could
 * write, and the database refuses it.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startEngine, type TestEngine } from "./support/Engine.ts"

describe("subscription invariants in postgres", () => {
  let engine: TestEngine
  let subscriptionId: string
  let chargeId: string
  let invoiceId: string

  /** The messages of an error and of its causes, down to PostgreSQL's own. */
  const messages = (error: unknown): string => {
    const parts: Array<string> = []
    for (let e = error as { message?: string; cause?: unknown } | undefined; e !== undefined && e !== null; e = e.cause as typeof e) {
      parts.push(String(e.message ?? e))
    }
    return parts.join(" | ")
  }

  /** Runs `statements` in one transaction; the database's refusal, or "committed". */
  const attempt = (statements: (sql: SqlClient.SqlClient) => Effect.Effect<unknown, unknown>) =>
    engine.run(Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql.withTransaction(statements(sql)).pipe(
        Effect.as("committed"),
        Effect.catch((error) => Effect.succeed(messages(error)))
      )))

  beforeAll(async () => {
    engine = await startEngine("postgres")
    const account = await engine.createAccount()
    const headers = { authorization: `Bearer ${await engine.token(account)}`, "content-type": "application/json" }
    const post = async (path: string, body: unknown) =>
      (await fetch(`${engine.baseUrl}${path}`, { method: "POST", headers, body: JSON.stringify(body) })).json()
    const product = await post("/v1/products", { name: "Plano", type: "RECURRING", prices: [{ title: "Mensal", amount: 50, recurrenceType: "MONTHLY" }] })
    const created = await post("/v1/charges", {
      paymentMethod: "pix",
      customer: { name: "Ana", email: "ana@example.com", documentNumber: "52998224725" },
      items: [{ priceId: product.prices[0].priceId }]
    })
    subscriptionId = created.subscriptionId
    chargeId = created.chargeId
    const [invoice] = await engine.run(Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ id: string }>`SELECT id FROM invoices WHERE subscription_id = ${subscriptionId}`))
    invoiceId = invoice!.id
  })
  afterAll(() => engine?.dispose())

  it("bills a cycle number once", async () => {
    const result = await attempt((sql) => sql`INSERT INTO billing_cycles (subscription_id, cycle_number, status, amount_cents, discount_cents,
      credit_cents, adjustment_cents, period_start, due_date, issue_date, payment_method, ruler_history, manual_retry_count, created_at, updated_at)
      SELECT subscription_id, cycle_number, 'SCHEDULED', amount_cents, 0, 0, 0, period_start, due_date, issue_date, payment_method, '[]', 0, created_at, updated_at
      FROM billing_cycles WHERE subscription_id = ${subscriptionId} AND cycle_number = 1`)
    expect(result).toMatch(/billing_cycles_pkey/)
  })

  it("keeps every invoice balanced: an invoice without its lines, a changed total or an extra line is refused by its statement, and lines are never deleted", async () => {
    // An invoice is written with its lines in one statement; alone, it does not balance.
    const copy = (sql: SqlClient.SqlClient, id: string) => sql`INSERT INTO invoices (id, account_id, subscription_id, cycle_number, invoice_number, status, payment_type,
        due_date, discount_cents, total_cents, charge_id, created_at)
      SELECT ${id}, account_id, subscription_id, cycle_number, invoice_number + 1000, status, payment_type, due_date, discount_cents, total_cents,
        charge_id, created_at FROM invoices WHERE id = ${invoiceId}`
    expect(await attempt((sql) => copy(sql, "inv_alone"))).toMatch(/invoice inv_alone does not balance/)
    expect(await attempt((sql) => sql`WITH copied AS (${copy(sql, "inv_copy")}) INSERT INTO invoice_lines (invoice_id, position, name, product_name, plan_name,
        type, origin, unit_amount_cents, quantity, net_amount_cents, price_id, product_id)
      SELECT 'inv_copy', position, name, product_name, plan_name, type, origin, unit_amount_cents, quantity, net_amount_cents, price_id, product_id
      FROM invoice_lines WHERE invoice_id = ${invoiceId}`)).toBe("committed")
    expect(await attempt((sql) => sql`UPDATE invoices SET total_cents = total_cents + 1 WHERE id = ${invoiceId}`)).toMatch(/does not balance/)
    expect(await attempt((sql) => sql`INSERT INTO invoice_lines (invoice_id, position, name, type, origin, unit_amount_cents, quantity, net_amount_cents)
      VALUES (${invoiceId}, 9, 'extra', 'ONE_TIME', 'X', 100, 1, 100)`)).toMatch(/does not balance/)
    expect(await attempt((sql) => sql`DELETE FROM invoice_lines WHERE invoice_id = ${invoiceId}`)).toMatch(/never changed or deleted/)
    // Moving a line to another invoice would unbalance the first: lines are never changed.
    expect(await attempt((sql) => sql`UPDATE invoice_lines SET net_amount_cents = net_amount_cents WHERE invoice_id = ${invoiceId}`))
      .toMatch(/never changed or deleted/)
    // A status change keeps the balance (the check fires only when the total or the discount changes).
    expect(await attempt((sql) => sql`UPDATE invoices SET status = status WHERE id = ${invoiceId}`)).toBe("committed")
    expect(await attempt((sql) => sql`UPDATE invoices SET total_cents = total_cents + 1, status = status WHERE id = ${invoiceId}`)).toMatch(/does not balance/)
    // A discount that moves with the total keeps the balance: the check is the sum, not a frozen row.
    expect(await attempt((sql) => sql`UPDATE invoices SET total_cents = total_cents - 100, discount_cents = discount_cents + 100 WHERE id = ${invoiceId}`))
      .toBe("committed")
    // A credit line must be negative and only a credit may be.
    expect(await attempt((sql) => sql`INSERT INTO invoice_lines (invoice_id, position, name, type, origin, unit_amount_cents, quantity, net_amount_cents)
      VALUES (${invoiceId}, 8, 'not a credit', 'ONE_TIME', 'X', -100, 1, -100)`)).toMatch(/invoice_lines_check/)
    expect(await attempt((sql) => sql`INSERT INTO invoice_lines (invoice_id, position, name, type, origin, unit_amount_cents, quantity, net_amount_cents)
      VALUES (${invoiceId}, 8, 'a positive credit', 'CREDIT', 'X', 100, 1, 100)`)).toMatch(/invoice_lines_check/)
  })

  it("allows one open charge per cycle", async () => {
    const copy = (sql: SqlClient.SqlClient, id: string) => sql`INSERT INTO charges (id, account_id, master_account_id, payment_type, status,
        amount_cents, fee_cents, fee_fixed_cents, fee_percent_hundredths, net_cents, txid, expires_at, attempts, subscription_id, cycle_number,
        created_at, updated_at)
      SELECT ${id}, account_id, master_account_id, payment_type, 'PENDING', amount_cents, fee_cents, fee_fixed_cents, fee_percent_hundredths,
        net_cents, ${id}, expires_at, 0, subscription_id, cycle_number, created_at, updated_at FROM charges WHERE id = ${chargeId}`
    expect(await attempt((sql) => copy(sql, "cha_second_attempt"))).toMatch(/charges_open_cycle_idx/)
    // Once the first attempt is settled, a new one may open.
    expect(await attempt((sql) => Effect.andThen(sql`UPDATE charges SET status = 'EXPIRED' WHERE id = ${chargeId}`, copy(sql, "cha_retry")))).toBe("committed")
  })

  it("keeps a price a single live recurring item of a subscription", async () => {
    const result = await attempt((sql) => sql`INSERT INTO subscription_items (id, subscription_id, position, price_id, product_id, name, product_name,
        product_type, unit_amount_cents, quantity, type, recurrence_type, recurrence_interval, trial_days, status, origin, created_at, updated_at)
      SELECT 'item_dup', subscription_id, 9, price_id, product_id, name, product_name, product_type, unit_amount_cents, 1, type, recurrence_type,
        recurrence_interval, trial_days, 'ACTIVE', 'ADD_ON', created_at, updated_at FROM subscription_items WHERE subscription_id = ${subscriptionId}`)
    expect(result).toMatch(/subscription_items_live_price_idx/)
  })

  it("refuses statuses outside the spec's lists", async () => {
    expect(await attempt((sql) => sql`UPDATE subscriptions SET status = 'PAUSED' WHERE id = ${subscriptionId}`)).toMatch(/subscriptions_status_check/)
    expect(await attempt((sql) => sql`UPDATE billing_cycles SET status = 'OPEN' WHERE subscription_id = ${subscriptionId}`)).toMatch(/billing_cycles_status_check/)
    expect(await attempt((sql) => sql`UPDATE invoices SET status = 'VOID' WHERE id = ${invoiceId}`)).toMatch(/invoices_status_check/)
  })
})
