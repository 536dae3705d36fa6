/**
 * Subscriptions on `effect/sql`: the subscription row, its items, its cycles
 * and the invoices with their lines. Status changes are conditional UPDATEs
 * whose statuses come from the rules' tables (`CycleTransitions`,
 * `ItemTransitions`, `InvoiceTransitions`, `SubscriptionStatuses`; the
 * billing run's claims, from `BillingJobClaims`, in `CycleClaims.ts`): this
 * module decides no rule, it only stores. The uniqueness of cycles, the
 * single open charge of a cycle and the balance of invoices are the
 * database's (migration 0013).
 */
import {
  type AccountId,
  BillingCycle,
  BillingJobClaims,
  Charge,
  type CycleKey,
  type CycleMove,
  CycleTransitions,
  HIDDEN_SUBSCRIPTION_STATUSES,
  Invoice,
  InvoiceLine,
  type InvoiceTransition,
  InvoiceTransitions,
  type ItemTransition,
  ItemTransitions,
  nextCycleOf,
  OPEN_SUBSCRIPTION_STATUSES,
  PriceId,
  ProductId,
  RECURRENCE_AWAITING_BANK,
  RulerEntry,
  SCHEDULED_CYCLE_STATUSES,
  Subscription,
  SubscriptionCard,
  SubscriptionChange,
  SubscriptionCoupon,
  SubscriptionDiscount,
  SubscriptionItem,
  type ItemSelector,
  Subscriptions,
  SubscriptionId,
  SubscriptionSplitRule,
  type UnnumberedInvoice
} from "@billing/core"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient, type Statement } from "effect/sql"
import { beforeCursor } from "./Keyset.ts"
import { CentsColumn, decodeRows, Int8, jsonColumn, jsonText, withoutSeq, withSeq } from "./Rows.ts"
import { backlog, claimDue, countDue, countHeld, expireClaims, nextWorkDay } from "./CycleClaims.ts"
import { constants, containsPattern, insertRecords, orDie } from "./Statements.ts"

type Service = Subscriptions["Service"]
type Fragment = Statement.Fragment

const JsonText = <S extends Schema.Top>(schema: S) => Schema.fromJsonString(schema)

const SubscriptionRow = withSeq({
  ...Subscription.fields,
  card: jsonColumn(SubscriptionCard),
  allowedPaymentMethods: JsonText(Subscription.fields.allowedPaymentMethods),
  additionalEmails: JsonText(Subscription.fields.additionalEmails),
  splitRules: jsonColumn(Schema.Array(SubscriptionSplitRule)),
  boletoInstructions: jsonColumn(Subscription.fields.boletoInstructions.members[0]),
  pixInstructions: jsonColumn(Subscription.fields.pixInstructions.members[0]),
  coupon: jsonColumn(SubscriptionCoupon),
  discounts: JsonText(Schema.Array(SubscriptionDiscount))
})
const decodeSubscriptions = decodeRows(SubscriptionRow)
const decodeFirstSubscription = (rows: ReadonlyArray<unknown>) =>
  Effect.map(decodeSubscriptions(rows), (s) => Option.fromNullishOr(withoutSeq(s)[0]))
const decodeItems = decodeRows(Schema.Struct({ ...SubscriptionItem.fields, unitAmount: CentsColumn }))
const decodeCycles = decodeRows(Schema.Struct({
  ...BillingCycle.fields,
  amount: CentsColumn,
  discount: CentsColumn,
  credit: CentsColumn,
  adjustment: Int8,
  splitRules: jsonColumn(Schema.Array(SubscriptionSplitRule)),
  rulerHistory: JsonText(Schema.Array(RulerEntry))
}))
const decodeInvoices = decodeRows(Schema.Struct({
  ...Invoice.fields,
  invoiceNumber: Int8,
  discount: CentsColumn,
  total: CentsColumn,
  lines: JsonText(Schema.Array(InvoiceLine))
}))
const decodeChanges = decodeRows(Schema.Struct({ body: Schema.fromJsonString(SubscriptionChange) }))
const encodeChange = Schema.encodeSync(Schema.fromJsonString(SubscriptionChange))
const decodeIds = decodeRows(Schema.Struct({ id: SubscriptionId }))
const decodeVersions = decodeRows(Schema.Struct({
  id: SubscriptionId,
  rowVersion: Schema.String,
  items: Schema.NullOr(Schema.String),
  cycles: Schema.NullOr(Schema.String)
}))
const decodeLastCharges = decodeRows(Schema.Struct({ subscriptionId: SubscriptionId, net: CentsColumn, status: Charge.fields.status }))
const decodePrimaries = decodeRows(Schema.Struct({ subscriptionId: SubscriptionId, priceId: PriceId, productId: ProductId }))

/** What every statement of the storage needs: the client and the select list of each table, named as the records' fields. */
interface SubscriptionTables {
  readonly sql: SqlClient.SqlClient
  readonly columns: {
    readonly subscription: Fragment
    readonly item: Fragment
    readonly cycle: Fragment
    readonly invoice: Fragment
  }
}

const selectLists = (sql: SqlClient.SqlClient): SubscriptionTables["columns"] => ({
  subscription: sql`id, seq::text AS seq, account_id AS "accountId", master_account_id AS "masterAccountId", customer_id AS "customerId",
    checkout_id AS "checkoutId", cart_id AS "cartId", status, interval, interval_count AS "intervalCount", billing_day AS "billingDay",
    payment_method AS "paymentMethod", payment_method_id AS "paymentMethodId", card, allowed_payment_methods AS "allowedPaymentMethods",
    pass_fees_to_customer AS "passFeesToCustomer", name, email, document, phone, additional_emails AS "additionalEmails",
    current_cycle_number AS "currentCycleNumber", cancel_at_period_end AS "cancelAtPeriodEnd", canceled_at AS "canceledAt",
    cancel_reason AS "cancelReason", split_rules AS "splitRules", boleto_instructions AS "boletoInstructions",
    pix_instructions AS "pixInstructions", issue_days_before_due AS "issueDaysBeforeDue",
    expiration_after_due_date AS "expirationAfterDueDate", nf_config_id AS "nfConfigId", coupon, discounts,
    to_char(anchor_date, 'YYYY-MM-DD') AS "anchorDate", anchor_cycle AS "anchorCycle",
    to_char(trial_ends_on, 'YYYY-MM-DD') AS "trialEndsOn", primary_item_id AS "primaryItemId",
    pix_recurrency_id AS "pixRecurrencyId", pix_recurrence_status AS "pixRecurrenceStatus", archived_at AS "archivedAt", created_at AS "createdAt", updated_at AS "updatedAt"`,
  item: sql`id, subscription_id AS "subscriptionId", price_id AS "priceId", product_id AS "productId", name,
    product_name AS "productName", product_type AS "productType", statement_descriptor AS "statementDescriptor",
    unit_amount_cents AS "unitAmount", quantity, type, recurrence_type AS "recurrenceType", recurrence_interval AS "recurrenceInterval",
    trial_days AS "trialDays", status, origin, upgraded_from_item_id AS "upgradedFromItemId", upgraded_to_item_id AS "upgradedToItemId",
    charge_id AS "chargeId", created_at AS "createdAt", updated_at AS "updatedAt"`,
  cycle: sql`subscription_id AS "subscriptionId", cycle_number AS "cycleNumber", status, amount_cents AS amount,
    discount_cents AS discount, credit_cents AS credit, adjustment_cents AS adjustment, to_char(period_start, 'YYYY-MM-DD') AS "periodStart",
    to_char(due_date, 'YYYY-MM-DD') AS "dueDate", to_char(issue_date, 'YYYY-MM-DD') AS "issueDate",
    payment_method AS "paymentMethod", charge_id AS "chargeId", split_rules AS "splitRules", ruler_history AS "rulerHistory",
    manual_retry_count AS "manualRetryCount", last_manual_retry_at AS "lastManualRetryAt",
    pix_auto_scheduled_end_to_end_id AS "pixAutoScheduledEndToEndId", attempt_count AS "attemptCount",
    to_char(next_attempt_on, 'YYYY-MM-DD') AS "nextAttemptOn", overdue_at AS "overdueAt", held_reason AS "heldReason",
    approved_at AS "approvedAt",
    created_at AS "createdAt", updated_at AS "updatedAt"`,
  invoice: sql`id, subscription_id AS "subscriptionId", cycle_number AS "cycleNumber", invoice_number AS "invoiceNumber",
    status, payment_type AS "paymentType", to_char(due_date, 'YYYY-MM-DD') AS "dueDate", paid_at AS "paidAt",
    canceled_at AS "canceledAt", discount_cents AS discount, total_cents AS total, charge_id AS "chargeId", created_at AS "createdAt",
    (SELECT coalesce(json_agg(json_build_object('name', l.name, 'productName', l.product_name, 'planName', l.plan_name, 'type', l.type,
        'origin', l.origin, 'unitAmount', l.unit_amount_cents, 'quantity', l.quantity, 'netAmount', l.net_amount_cents,
        'priceId', l.price_id, 'productId', l.product_id) ORDER BY l.position), '[]')::text
      FROM invoice_lines l WHERE l.invoice_id = invoices.id) AS lines`
})

// --- Subscriptions -----------------------------------------------------------------------------------------------

const insertSubscription = (sql: SqlClient.SqlClient, s: Subscription) =>
  orDie(sql`INSERT INTO subscriptions (id, account_id, master_account_id, customer_id, checkout_id, cart_id, status, interval, interval_count,
      billing_day, payment_method, payment_method_id, card, allowed_payment_methods, pass_fees_to_customer, name, email, document, phone,
      additional_emails, current_cycle_number, cancel_at_period_end, canceled_at, cancel_reason, split_rules, boleto_instructions,
      pix_instructions, issue_days_before_due, expiration_after_due_date, nf_config_id, coupon, discounts, anchor_date, anchor_cycle,
      trial_ends_on, primary_item_id, pix_recurrency_id, pix_recurrence_status, archived_at, created_at, updated_at)
    VALUES (${s.id}, ${s.accountId}, ${s.masterAccountId}, ${s.customerId}, ${s.checkoutId}, ${s.cartId}, ${s.status}, ${s.interval},
      ${s.intervalCount}, ${s.billingDay}, ${s.paymentMethod}, ${s.paymentMethodId}, ${jsonText(s.card)}, ${jsonText(s.allowedPaymentMethods)},
      ${s.passFeesToCustomer}, ${s.name}, ${s.email}, ${s.document}, ${s.phone}, ${jsonText(s.additionalEmails)}, ${s.currentCycleNumber},
      ${s.cancelAtPeriodEnd}, ${s.canceledAt}, ${s.cancelReason}, ${jsonText(s.splitRules)}, ${jsonText(s.boletoInstructions)},
      ${jsonText(s.pixInstructions)}, ${s.issueDaysBeforeDue}, ${s.expirationAfterDueDate}, ${s.nfConfigId}, ${jsonText(s.coupon)},
      ${jsonText(s.discounts)}, ${s.anchorDate}::date, ${s.anchorCycle}, ${s.trialEndsOn}::date, ${s.primaryItemId}, ${s.pixRecurrencyId},
      ${s.pixRecurrenceStatus}, ${s.archivedAt}, ${s.createdAt}, ${s.updatedAt})`)

const insert = (tables: SubscriptionTables): Service["insert"] => ({ subscription, items, cycles, invoices }) =>
  Effect.gen(function*() {
    yield* insertSubscription(tables.sql, subscription)
    yield* insertItems(tables.sql, items)
    yield* insertCycles(tables.sql, cycles)
    yield* insertInvoices(tables.sql, invoices.map((invoice) => ({ accountId: subscription.accountId, invoice })))
  })

const find = ({ sql, columns }: SubscriptionTables): Service["find"] => (accountId, id) =>
  Effect.gen(function*() {
    const found = yield* orDie(sql`SELECT ${columns.subscription} FROM subscriptions WHERE account_id = ${accountId} AND id = ${id}`).pipe(
      Effect.flatMap(decodeFirstSubscription)
    )
    if (Option.isNone(found)) return Option.none()
    const items = yield* orDie(sql`SELECT ${columns.item} FROM subscription_items WHERE subscription_id = ${id} ORDER BY position`).pipe(
      Effect.flatMap(decodeItems)
    )
    const cycles = yield* orDie(sql`SELECT ${columns.cycle} FROM billing_cycles WHERE subscription_id = ${id} ORDER BY cycle_number`).pipe(
      Effect.flatMap(decodeCycles)
    )
    const invoices = yield* orDie(sql`SELECT ${columns.invoice} FROM invoices WHERE subscription_id = ${id} ORDER BY cycle_number, invoice_number`)
      .pipe(Effect.flatMap(decodeInvoices))
    const changes = yield* orDie(sql`SELECT body FROM subscription_changes WHERE subscription_id = ${id} ORDER BY position`).pipe(
      Effect.flatMap(decodeChanges),
      Effect.map((rows) => rows.map((row) => row.body))
    )
    return Option.some({ subscription: found.value, items, cycles, invoices, changes })
  })

type ListFilter = Parameters<Service["list"]>[1]

/** The filters of a list, each only when the query sets it; without a status, hidden subscriptions unless asked for. */
const listFilter = (sql: SqlClient.SqlClient, accountId: AccountId, q: ListFilter) => {
  const pattern = q.search === null ? null : containsPattern(q.search)
  const status = q.status === null
    ? (q.includeArchived ? sql`` : sql`AND status NOT IN ${constants(sql, HIDDEN_SUBSCRIPTION_STATUSES)}`)
    : sql`AND status = ${q.status}`
  return sql`account_id = ${accountId} ${status}
    ${q.paymentMethod === null ? sql`` : sql`AND payment_method = ${q.paymentMethod}`}
    ${q.document === null ? sql`` : sql`AND document = ${q.document}`}
    ${pattern === null ? sql`` : sql`AND (name ILIKE ${pattern} OR email ILIKE ${pattern} OR document ILIKE ${pattern} OR id ILIKE ${pattern})`}
    ${q.from === null ? sql`` : sql`AND created_at >= ${q.from}`}
    ${q.to === null ? sql`` : sql`AND created_at <= ${q.to}`}
    ${q.checkoutId === null ? sql`` : sql`AND checkout_id = ${q.checkoutId}`}
    ${q.priceId === null ? sql`` : sql`AND EXISTS (SELECT 1 FROM subscription_items i WHERE i.subscription_id = subscriptions.id
      AND i.price_id = ${q.priceId})`}
    ${q.productId === null ? sql`` : sql`AND EXISTS (SELECT 1 FROM subscription_items i WHERE i.subscription_id = subscriptions.id
      AND i.product_id = ${q.productId})`}`
}

/** A page's entries: each subscription with its main item, its current and next cycles and the last charge issued for it. */
const listEntries = ({ sql, columns }: SubscriptionTables, page: ReadonlyArray<Subscription>) =>
  Effect.gen(function*() {
    const ids = page.map((s) => s.id)
    if (ids.length === 0) return []
    const cycles = yield* orDie(sql`SELECT ${columns.cycle} FROM billing_cycles
      WHERE subscription_id IN ${sql.in(ids)} ORDER BY subscription_id, cycle_number`).pipe(Effect.flatMap(decodeCycles))
    const charges = yield* orDie(sql`
      SELECT DISTINCT ON (subscription_id) subscription_id AS "subscriptionId", net_cents AS net, status
      FROM charges WHERE subscription_id IN ${sql.in(ids)} ORDER BY subscription_id, created_at DESC, id DESC`).pipe(
      Effect.flatMap(decodeLastCharges)
    )
    const primaries = yield* orDie(sql`SELECT i.subscription_id AS "subscriptionId", i.price_id AS "priceId",
        i.product_id AS "productId" FROM subscription_items i JOIN subscriptions s ON s.primary_item_id = i.id
      WHERE i.subscription_id IN ${sql.in(ids)}`).pipe(Effect.flatMap(decodePrimaries))
    return page.map((subscription) => {
      const own = cycles.filter((c) => c.subscriptionId === subscription.id)
      const last = charges.find((c) => c.subscriptionId === subscription.id)
      return {
        subscription,
        primaryItem: primaries.find((p) => p.subscriptionId === subscription.id) ?? null,
        currentCycle: own.find((c) => c.cycleNumber === subscription.currentCycleNumber) ?? null,
        nextCycle: nextCycleOf({ cycles: own }),
        lastCharge: last === undefined ? null : { net: last.net, status: last.status }
      }
    })
  })

const list = (tables: SubscriptionTables): Service["list"] => (accountId, q) =>
  Effect.gen(function*() {
    const { sql, columns } = tables
    const where = listFilter(sql, accountId, q)
    const [count] = yield* orDie(sql<{ n: string }>`SELECT count(*)::text AS n FROM subscriptions WHERE ${where}`)
    const rows = yield* orDie(sql`SELECT ${columns.subscription} FROM subscriptions WHERE ${where} ${beforeCursor(sql, q.after)}
      ORDER BY seq DESC LIMIT ${q.limit + 1}`).pipe(Effect.flatMap(decodeSubscriptions))
    const items = yield* listEntries(tables, withoutSeq(rows.slice(0, q.limit)))
    return { items, total: Number(count?.n ?? 0), lastKey: rows.length > q.limit ? rows[q.limit - 1]!.seq : null }
  })

const countOpen = ({ sql }: SubscriptionTables): Service["countOpen"] => (accountId, by) =>
  orDie(sql<{ n: string }>`SELECT count(*)::text AS n FROM subscriptions s
    WHERE s.account_id = ${accountId} AND s.status IN ${constants(sql, OPEN_SUBSCRIPTION_STATUSES)}
      ${"customerId" in by ? sql`AND s.customer_id = ${by.customerId}` : sql`AND EXISTS (SELECT 1 FROM subscription_items i
        WHERE i.subscription_id = s.id AND i.product_id = ${by.productId} AND i.status <> ${ItemTransitions.canceled.to})`}`).pipe(
    Effect.map((rows) => Number(rows[0]?.n ?? 0))
  )

const transition = ({ sql, columns }: SubscriptionTables): Service["transition"] => (id, move, changes, at) =>
  orDie(sql`UPDATE subscriptions SET status = ${move.to}, updated_at = ${at},
      canceled_at = COALESCE(${changes.canceledAt ?? null}, canceled_at),
      cancel_reason = COALESCE(${changes.cancelReason ?? null}, cancel_reason),
      archived_at = COALESCE(${changes.archivedAt ?? null}, archived_at)
    WHERE id = ${id} AND status IN ${constants(sql, move.from)}
    RETURNING ${columns.subscription}`).pipe(Effect.flatMap(decodeFirstSubscription))

const transitionMany = ({ sql }: SubscriptionTables): Service["transitionMany"] => (ids, move, at, options = {}) =>
  ids.length === 0 ? Effect.succeed([]) : orDie(sql`UPDATE subscriptions SET status = ${move.to}, updated_at = ${at}
    WHERE id IN ${sql.in([...ids])} AND status IN ${constants(sql, move.from)}
      ${options.unlessRecurrencePending ? sql`AND pix_recurrence_status IS DISTINCT FROM ${RECURRENCE_AWAITING_BANK}` : sql``}
    RETURNING id`).pipe(Effect.flatMap(decodeIds), Effect.map((rows) => rows.map((row) => row.id)))

const scheduleCancel = ({ sql }: SubscriptionTables): Service["scheduleCancel"] => (id, reason, at) =>
  orDie(sql`UPDATE subscriptions SET cancel_at_period_end = true, cancel_reason = COALESCE(${reason}, cancel_reason), updated_at = ${at}
    WHERE id = ${id} AND NOT cancel_at_period_end AND status IN ${constants(sql, OPEN_SUBSCRIPTION_STATUSES)}
    RETURNING id`).pipe(Effect.map((rows) => rows.length > 0))

const update = ({ sql }: SubscriptionTables): Service["update"] => (id, fields, at) =>
  orDie(sql`UPDATE subscriptions SET updated_at = ${at}
      ${fields.additionalEmails === undefined ? sql`` : sql`, additional_emails = ${jsonText(fields.additionalEmails)}`}
      ${fields.cancelAtPeriodEnd === undefined ? sql`` : sql`, cancel_at_period_end = ${fields.cancelAtPeriodEnd}`}
      ${fields.paymentMethod === undefined ? sql`` : sql`, payment_method = ${fields.paymentMethod}`}
      ${fields.paymentMethodId === undefined ? sql`` : sql`, payment_method_id = ${fields.paymentMethodId}`}
      ${fields.card === undefined ? sql`` : sql`, card = ${jsonText(fields.card)}`}
      ${fields.pixRecurrencyId === undefined ? sql`` : sql`, pix_recurrency_id = ${fields.pixRecurrencyId}`}
      ${fields.pixRecurrenceStatus === undefined ? sql`` : sql`, pix_recurrence_status = ${fields.pixRecurrenceStatus}`}
      ${fields.billingDay === undefined ? sql`` : sql`, billing_day = ${fields.billingDay}`}
      ${fields.anchorDate === undefined ? sql`` : sql`, anchor_date = ${fields.anchorDate}::date`}
      ${fields.anchorCycle === undefined ? sql`` : sql`, anchor_cycle = ${fields.anchorCycle}`}
    WHERE id = ${id}`).pipe(Effect.asVoid)

const decideRecurrence = ({ sql }: SubscriptionTables): Service["decideRecurrence"] => (id, status, at) =>
  orDie(sql`UPDATE subscriptions SET pix_recurrence_status = ${status}, updated_at = ${at}
    WHERE id = ${id} AND pix_recurrence_status = ${RECURRENCE_AWAITING_BANK} RETURNING id`).pipe(Effect.map((rows) => rows.length > 0))

const replacePrimaries = ({ sql }: SubscriptionTables): Service["replacePrimaries"] => (replacements, at) =>
  replacements.length === 0 ? Effect.void : orDie(sql`UPDATE subscriptions s SET primary_item_id = v.new_item_id, updated_at = ${at}
    FROM (VALUES ${sql.csv(replacements.map((r) => sql`(${r.subscriptionId}, ${r.from}, ${r.to})`))}) AS v (subscription_id, old_item_id, new_item_id)
    WHERE s.id = v.subscription_id AND s.primary_item_id = v.old_item_id`).pipe(Effect.asVoid)

// --- Items -------------------------------------------------------------------------------------------------------

// Items take the positions after the subscription's last one.
const insertItems = (sql: SqlClient.SqlClient, items: ReadonlyArray<SubscriptionItem>) =>
  items.length === 0 ? Effect.void : orDie(sql`INSERT INTO subscription_items (id, subscription_id, position, price_id, product_id, name,
      product_name, product_type, statement_descriptor, unit_amount_cents, quantity, type, recurrence_type, recurrence_interval, trial_days,
      status, origin, upgraded_from_item_id, upgraded_to_item_id, charge_id, created_at, updated_at)
    SELECT v.id, v.subscription_id, v.offset_in_batch + coalesce((SELECT max(position) + 1 FROM subscription_items s
        WHERE s.subscription_id = v.subscription_id), 0),
      v.price_id, v.product_id, v.name, v.product_name, v.product_type, v.statement_descriptor, v.unit_amount_cents, v.quantity, v.type,
      v.recurrence_type, v.recurrence_interval, v.trial_days, v.status, v.origin, v.upgraded_from_item_id, v.upgraded_to_item_id,
      v.charge_id, v.created_at, v.updated_at
    FROM (VALUES ${sql.csv(items.map((i, offset) =>
      sql`(${i.id}, ${i.subscriptionId}, ${offset}::int, ${i.priceId}, ${i.productId}, ${i.name}, ${i.productName}, ${i.productType},
        ${i.statementDescriptor}, ${i.unitAmount}::bigint, ${i.quantity}::int, ${i.type}, ${i.recurrenceType}, ${i.recurrenceInterval}::int,
        ${i.trialDays}::int, ${i.status}, ${i.origin}, ${i.upgradedFromItemId}, ${i.upgradedToItemId}, ${i.chargeId},
        ${i.createdAt}::timestamptz, ${i.updatedAt}::timestamptz)`))})
      AS v (id, subscription_id, offset_in_batch, price_id, product_id, name, product_name, product_type, statement_descriptor,
        unit_amount_cents, quantity, type, recurrence_type, recurrence_interval, trial_days, status, origin, upgraded_from_item_id,
        upgraded_to_item_id, charge_id, created_at, updated_at)`)

/** The items `transition` applies to, by its statuses, type and whether they replace another item. */
const itemsMovedBy = (sql: SqlClient.SqlClient, transition: ItemTransition) =>
  sql`status IN ${constants(sql, transition.from)}
    ${transition.type === null ? sql`` : sql`AND type = ${transition.type}`}
    ${transition.replacing === null ? sql`` : transition.replacing ? sql`AND upgraded_from_item_id IS NOT NULL` : sql`AND upgraded_from_item_id IS NULL`}`

/** The items `which` selects. */
const selectedItems = (sql: SqlClient.SqlClient, which: ItemSelector) =>
  "chargeId" in which
    ? sql`charge_id = ${which.chargeId}`
    : "itemIds" in which
    ? sql`id IN ${sql.in([...which.itemIds])}`
    : sql`subscription_id IN ${sql.in([...which.subscriptionIds])}`

/** Whether `which` selects no item at all (an empty list of ids), so no statement is needed. */
const selectsNothing = (which: ItemSelector) =>
  ("itemIds" in which && which.itemIds.length === 0) || ("subscriptionIds" in which && which.subscriptionIds.length === 0)

const findItems = ({ sql, columns }: SubscriptionTables): Service["findItems"] => (which, transition) =>
  selectsNothing(which) ? Effect.succeed([]) : orDie(sql`SELECT ${columns.item} FROM subscription_items
    WHERE ${selectedItems(sql, which)} AND ${itemsMovedBy(sql, transition)} ORDER BY subscription_id, position`).pipe(Effect.flatMap(decodeItems))

const moveItems = ({ sql, columns }: SubscriptionTables): Service["moveItems"] => (which, transition, at) =>
  selectsNothing(which) ? Effect.succeed([]) : orDie(sql`UPDATE subscription_items SET status = ${transition.to}, updated_at = ${at}
    WHERE ${selectedItems(sql, which)} AND ${itemsMovedBy(sql, transition)} RETURNING ${columns.item}`).pipe(Effect.flatMap(decodeItems))

const linkReplacements = ({ sql }: SubscriptionTables): Service["linkReplacements"] => (links, at) =>
  links.length === 0 ? Effect.void : orDie(sql`UPDATE subscription_items i SET upgraded_to_item_id = v.replacement_id, updated_at = ${at}
    FROM (VALUES ${sql.csv(links.map((l) => sql`(${l.itemId}, ${l.replacementId}::text)`))}) AS v (item_id, replacement_id)
    WHERE i.id = v.item_id`).pipe(Effect.asVoid)

// --- Cycles ------------------------------------------------------------------------------------------------------

/** Each field of a cycle and its column in `billing_cycles`. */
const CYCLE_COLUMNS = {
  subscriptionId: "subscription_id",
  cycleNumber: "cycle_number",
  status: "status",
  amount: "amount_cents",
  discount: "discount_cents",
  credit: "credit_cents",
  adjustment: "adjustment_cents",
  periodStart: "period_start",
  dueDate: "due_date",
  issueDate: "issue_date",
  paymentMethod: "payment_method",
  chargeId: "charge_id",
  splitRules: "split_rules",
  rulerHistory: "ruler_history",
  manualRetryCount: "manual_retry_count",
  lastManualRetryAt: "last_manual_retry_at",
  pixAutoScheduledEndToEndId: "pix_auto_scheduled_end_to_end_id",
  attemptCount: "attempt_count",
  nextAttemptOn: "next_attempt_on",
  overdueAt: "overdue_at",
  heldReason: "held_reason",
  approvedAt: "approved_at",
  createdAt: "created_at",
  updatedAt: "updated_at"
} as const satisfies { readonly [K in keyof BillingCycle]: string }

/** The JSON fields of a cycle, kept as text. */
const CYCLE_JSON: ReadonlySet<keyof BillingCycle> = new Set(["splitRules", "rulerHistory"])

/** A cycle's fields (all or some) as columns of `billing_cycles`. */
const cycleColumns = (fields: Partial<BillingCycle>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(fields).flatMap(([field, value]) => {
    const key = field as keyof BillingCycle
    return value === undefined ? [] : [[CYCLE_COLUMNS[key], CYCLE_JSON.has(key) ? jsonText(value) : value]]
  }))

const insertCycles = (sql: SqlClient.SqlClient, cycles: ReadonlyArray<BillingCycle>, options: { readonly skipExisting?: boolean } = {}) =>
  cycles.length === 0 ? Effect.void : orDie(sql`${insertRecords(sql, "billing_cycles", cycles.map(cycleColumns))}
    ${options.skipExisting ? sql`ON CONFLICT (subscription_id, cycle_number) DO NOTHING` : sql``}`).pipe(Effect.asVoid)

const cycleKey = (subscriptionId: string, n: number) => `${subscriptionId}/${n}`

/** The instants a move of invoices by `move` records: the payment's or the cancel's, the others kept. */
const invoiceStamps = (sql: SqlClient.SqlClient, move: InvoiceTransition, at: Date) =>
  sql`paid_at = ${move.stamps === "paidAt" ? sql`${at}` : sql`paid_at`},
    canceled_at = ${move.stamps === "canceledAt" ? sql`${at}` : sql`canceled_at`}`

/**
 * Moves the invoice of each moved cycle by its transition: the invoice whose
 * charge is the cycle's (a plan change's prorata on the same cycle settles
 * with its own charge). The statuses it may move from travel as a list.
 */
const moveInvoicesOfCycles = (sql: SqlClient.SqlClient, moves: ReadonlyArray<CycleMove>, at: Date) => {
  const rows = moves.flatMap((m) => (m.transition.invoice === null ? [] : [{ m, invoice: m.transition.invoice }]))
  return rows.length === 0 ? Effect.void : orDie(sql`UPDATE invoices i SET status = v.status,
      paid_at = COALESCE(v.paid_at, i.paid_at), canceled_at = COALESCE(v.canceled_at, i.canceled_at)
    FROM (VALUES ${sql.csv(rows.map(({ m, invoice }) =>
      sql`(${m.subscriptionId}, ${m.cycleNumber}::int, ${invoice.from.join(",")}, ${invoice.to},
        ${invoice.stamps === "paidAt" ? at : null}::timestamptz, ${invoice.stamps === "canceledAt" ? at : null}::timestamptz)`))})
      AS v (subscription_id, cycle_number, from_statuses, status, paid_at, canceled_at)
    JOIN billing_cycles c ON c.subscription_id = v.subscription_id AND c.cycle_number = v.cycle_number
    WHERE i.subscription_id = v.subscription_id AND i.cycle_number = v.cycle_number AND i.charge_id IS NOT DISTINCT FROM c.charge_id
      AND i.status = ANY (string_to_array(v.from_statuses, ','))`).pipe(Effect.asVoid)
}

/** Moves cycles by their transitions in one statement (the statuses each may move from travel as a list), then their invoices. */
const moveCycles = ({ sql }: SubscriptionTables): Service["moveCycles"] => (moves, at) =>
  Effect.gen(function*() {
    if (moves.length === 0) return []
    const moved = yield* orDie(sql<{ subscriptionId: string; cycleNumber: number }>`UPDATE billing_cycles c SET status = v.to_status,
        updated_at = ${at}, next_attempt_on = CASE WHEN v.sets_next THEN v.next_on ELSE c.next_attempt_on END
      FROM (VALUES ${sql.csv(moves.map((m) =>
        sql`(${m.subscriptionId}, ${m.cycleNumber}::int, ${m.transition.from.join(",")}, ${m.transition.to},
          ${m.nextAttemptOn !== undefined}::boolean, ${m.nextAttemptOn ?? null}::date)`))})
        AS v (subscription_id, cycle_number, from_statuses, to_status, sets_next, next_on)
      WHERE c.subscription_id = v.subscription_id AND c.cycle_number = v.cycle_number
        AND c.status = ANY (string_to_array(v.from_statuses, ','))
      RETURNING c.subscription_id AS "subscriptionId", c.cycle_number AS "cycleNumber"`)
    const done = new Set(moved.map((m) => cycleKey(m.subscriptionId, Number(m.cycleNumber))))
    const settled = moves.filter((m) => done.has(cycleKey(m.subscriptionId, m.cycleNumber)))
    yield* moveInvoicesOfCycles(sql, settled, at)
    return settled.map((m): CycleKey => ({ subscriptionId: m.subscriptionId, cycleNumber: m.cycleNumber }))
  })

const moveCyclesOf = ({ sql }: SubscriptionTables): Service["moveCyclesOf"] => (subscriptionId, transition, at) =>
  Effect.gen(function*() {
    const rows = yield* orDie(sql<{ n: number }>`UPDATE billing_cycles SET status = ${transition.to}, updated_at = ${at}
      WHERE subscription_id = ${subscriptionId} AND status IN ${constants(sql, transition.from)}
      RETURNING cycle_number AS n`)
    const numbers = rows.map((r) => Number(r.n)).sort((a, b) => a - b)
    yield* moveInvoicesOfCycles(sql, numbers.map((cycleNumber) => ({ subscriptionId, cycleNumber, transition })), at)
    return numbers
  })

const notIssuedYet = (sql: SqlClient.SqlClient) => sql`status IN ${constants(sql, SCHEDULED_CYCLE_STATUSES)}`

const updateScheduledCycles = ({ sql }: SubscriptionTables): Service["updateScheduledCycles"] => (which, fields, at) =>
  orDie(sql<{ n: number }>`UPDATE billing_cycles SET ${sql.update(cycleColumns({ ...fields, updatedAt: at }))}
    WHERE subscription_id = ${which.subscriptionId} AND ${notIssuedYet(sql)}
      ${which.cycleNumber === undefined ? sql`` : sql`AND cycle_number = ${which.cycleNumber}`}
      ${which.held === true ? sql`AND held_reason IS NOT NULL` : sql``}
    RETURNING cycle_number AS n`).pipe(Effect.map((rows) => rows.map((r) => Number(r.n)).sort((a, b) => a - b)))

const findCycles = ({ sql, columns }: SubscriptionTables): Service["findCycles"] => (refs) =>
  refs.length === 0 ? Effect.succeed([]) : orDie(sql`SELECT ${columns.cycle} FROM billing_cycles
    WHERE (subscription_id, cycle_number) IN (${sql.csv(refs.map((r) => sql`(${r.subscriptionId}, ${r.cycleNumber}::int)`))})`).pipe(
    Effect.flatMap(decodeCycles)
  )

const appendRulers = ({ sql }: SubscriptionTables): Service["appendRulers"] => (rows, at) => {
  // One row per cycle: an UPDATE takes one source row per target row.
  const entries = new Map<string, { subscriptionId: string; cycleNumber: number; entries: Array<unknown> }>()
  for (const { entry, ref } of rows) {
    const key = cycleKey(ref.subscriptionId, ref.cycleNumber)
    const found = entries.get(key) ?? { ...ref, entries: [] }
    found.entries.push(entry)
    entries.set(key, found)
  }
  return entries.size === 0 ? Effect.void : orDie(sql`UPDATE billing_cycles c
    SET ruler_history = (c.ruler_history::jsonb || v.entries::jsonb)::text, updated_at = ${at}
    FROM (VALUES ${sql.csv([...entries.values()].map((e) => sql`(${e.subscriptionId}, ${e.cycleNumber}::int, ${JSON.stringify(e.entries)})`))})
      AS v (subscription_id, cycle_number, entries)
    WHERE c.subscription_id = v.subscription_id AND c.cycle_number = v.cycle_number`).pipe(Effect.asVoid)
}

const advanceCurrentCycles = ({ sql }: SubscriptionTables): Service["advanceCurrentCycles"] => (cycles, at) => {
  const latest = new Map<string, number>()
  for (const c of cycles) latest.set(c.subscriptionId, Math.max(latest.get(c.subscriptionId) ?? 0, c.cycleNumber))
  return latest.size === 0 ? Effect.void : orDie(sql`UPDATE subscriptions s SET current_cycle_number = v.n, updated_at = ${at}
    FROM (VALUES ${sql.csv([...latest].map(([id, n]) => sql`(${id}, ${n}::int)`))}) AS v (subscription_id, n)
    WHERE s.id = v.subscription_id AND s.current_cycle_number < v.n`).pipe(Effect.asVoid)
}

// --- Invoices ----------------------------------------------------------------------------------------------------

/** Numbers the invoices of each account in order, taking them from its counter in one statement per account. */
const numberInvoices = (sql: SqlClient.SqlClient, invoices: ReadonlyArray<{ readonly accountId: AccountId; readonly invoice: UnnumberedInvoice }>) =>
  Effect.gen(function*() {
    const numbered: Array<{ accountId: AccountId; invoice: UnnumberedInvoice; n: bigint }> = []
    // Accounts in one order, so two batches that number invoices of the same accounts never wait for each other in a cycle.
    for (const accountId of [...new Set(invoices.map((i) => i.accountId))].sort()) {
      const own = invoices.filter((i) => i.accountId === accountId)
      const [counter] = yield* orDie(sql<{ n: string }>`INSERT INTO invoice_counters (account_id, last_number) VALUES (${accountId}, ${own.length})
        ON CONFLICT (account_id) DO UPDATE SET last_number = invoice_counters.last_number + ${own.length}
        RETURNING last_number::text AS n`)
      const first = BigInt(counter!.n) - BigInt(own.length) + 1n
      own.forEach((i, k) => numbered.push({ ...i, n: first + BigInt(k) }))
    }
    return numbered
  })

const invoiceRecord = ({ accountId, invoice, n }: { readonly accountId: AccountId; readonly invoice: UnnumberedInvoice; readonly n: bigint }) => ({
  id: invoice.id,
  account_id: accountId,
  subscription_id: invoice.subscriptionId,
  cycle_number: invoice.cycleNumber,
  invoice_number: String(n),
  status: invoice.status,
  payment_type: invoice.paymentType,
  due_date: invoice.dueDate,
  paid_at: invoice.paidAt,
  canceled_at: invoice.canceledAt,
  discount_cents: invoice.discount,
  total_cents: invoice.total,
  charge_id: invoice.chargeId,
  created_at: invoice.createdAt
})

const invoiceLineRecords = (invoice: UnnumberedInvoice) =>
  invoice.lines.map((l, position) => ({
    invoice_id: invoice.id,
    position,
    name: l.name,
    product_name: l.productName,
    plan_name: l.planName,
    type: l.type,
    origin: l.origin,
    unit_amount_cents: l.unitAmount,
    quantity: l.quantity,
    net_amount_cents: l.netAmount,
    price_id: l.priceId,
    product_id: l.productId
  }))

const insertInvoices = (sql: SqlClient.SqlClient, invoices: ReadonlyArray<{ readonly accountId: AccountId; readonly invoice: UnnumberedInvoice }>) =>
  Effect.gen(function*() {
    if (invoices.length === 0) return
    const invoiceRows = insertRecords(sql, "invoices", (yield* numberInvoices(sql, invoices)).map(invoiceRecord))
    const lines = invoices.flatMap(({ invoice }) => invoiceLineRecords(invoice))
    // One statement: its balance check (0023) runs once it is done, and sees each invoice with all its lines.
    yield* orDie(lines.length === 0 ? invoiceRows : sql`WITH invoices_written AS (${invoiceRows}) ${insertRecords(sql, "invoice_lines", lines)}`)
  })

const moveInvoices = ({ sql }: SubscriptionTables): Service["moveInvoices"] => ({ chargeId }, move, at) =>
  orDie(sql`UPDATE invoices SET status = ${move.to}, ${invoiceStamps(sql, move, at)}
    WHERE charge_id = ${chargeId} AND status IN ${constants(sql, move.from)}`).pipe(Effect.asVoid)

// The invoice of a cycle is the one whose charge is the cycle's (a plan change's prorata on the same cycle has its own).
const cycleInvoiceOf = (sql: SqlClient.SqlClient, ref: CycleKey) =>
  sql`subscription_id = ${ref.subscriptionId} AND cycle_number = ${ref.cycleNumber}
    AND charge_id IS NOT DISTINCT FROM (SELECT charge_id FROM billing_cycles
      WHERE subscription_id = ${ref.subscriptionId} AND cycle_number = ${ref.cycleNumber})`

// --- What the billing run reads and writes ----------------------------------------------------------------------

/** A row read with its version: `xmin`, the transaction that wrote it, which any write of the row changes. */
interface VersionedRow {
  readonly subscriptionId: string
  readonly rowVersion: string
}

/** Rows grouped by their subscription, in the order read. */
const bySubscription = <A extends { readonly subscriptionId: string }>(rows: ReadonlyArray<A>) => {
  const map = new Map<string, Array<A>>()
  for (const row of rows) {
    const own = map.get(row.subscriptionId)
    if (own === undefined) map.set(row.subscriptionId, [row])
    else own.push(row)
  }
  return map
}

/** The versions of each subscription's rows, joined in the order read. */
const versionsBySubscription = (rows: ReadonlyArray<VersionedRow>) =>
  new Map([...bySubscription(rows)].map(([id, own]) => [id, own.map((row) => row.rowVersion).join(",")]))

/**
 * A billable subscription's version: the versions of its row, its items (by
 * position) and its cycles from the current one on (by number). A row
 * written, added or removed changes it.
 */
const billableVersion = (subscription: string, items: string | undefined, cycles: string | undefined) =>
  `${subscription}|${items ?? ""}|${cycles ?? ""}`

const findBillable = ({ sql, columns }: SubscriptionTables): Service["findBillable"] => (ids) =>
  Effect.gen(function*() {
    if (ids.length === 0) return []
    // Each statement reads its rows' versions with them, so each part of a version matches what was read.
    const subscriptionRows = yield* orDie(sql<{ readonly id: string; readonly rowVersion: string }>`SELECT ${columns.subscription},
        xmin::text AS "rowVersion"
      FROM subscriptions WHERE id IN ${sql.in([...ids])}`)
    const itemRows = yield* orDie(sql<VersionedRow>`SELECT ${columns.item}, xmin::text AS "rowVersion" FROM subscription_items
      WHERE subscription_id IN ${sql.in([...ids])} ORDER BY subscription_id, position`)
    const cycleRows = yield* orDie(sql<VersionedRow>`SELECT ${columns.cycle}, c.xmin::text AS "rowVersion" FROM billing_cycles c
      WHERE subscription_id IN ${sql.in([...ids])}
        AND cycle_number >= (SELECT s.current_cycle_number FROM subscriptions s WHERE s.id = c.subscription_id)
      ORDER BY subscription_id, cycle_number`)
    const subscriptions = withoutSeq(yield* decodeSubscriptions(subscriptionRows))
    const rowVersions = new Map(subscriptionRows.map((row) => [row.id, row.rowVersion]))
    const itemsOf = bySubscription(yield* decodeItems(itemRows))
    const cyclesOf = bySubscription(yield* decodeCycles(cycleRows))
    const itemVersions = versionsBySubscription(itemRows)
    const cycleVersions = versionsBySubscription(cycleRows)
    return subscriptions.map((subscription) => ({
      subscription,
      items: itemsOf.get(subscription.id) ?? [],
      cycles: cyclesOf.get(subscription.id) ?? [],
      version: billableVersion(rowVersions.get(subscription.id)!, itemVersions.get(subscription.id), cycleVersions.get(subscription.id))
    }))
  })

const lockMany = ({ sql }: SubscriptionTables): Service["lockMany"] => (ids) =>
  Effect.gen(function*() {
    if (ids.length === 0) return new Map<SubscriptionId, string>()
    yield* orDie(sql`SELECT id FROM subscriptions WHERE id IN ${sql.in([...ids])} ORDER BY id FOR UPDATE`)
    // A statement of its own: it reads under the lock, what writers that held it committed included.
    const rows = yield* orDie(sql`
      SELECT s.id, s.xmin::text AS "rowVersion",
        (SELECT string_agg(i.xmin::text, ',' ORDER BY i.position) FROM subscription_items i WHERE i.subscription_id = s.id) AS items,
        (SELECT string_agg(c.xmin::text, ',' ORDER BY c.cycle_number) FROM billing_cycles c
          WHERE c.subscription_id = s.id AND c.cycle_number >= s.current_cycle_number) AS cycles
      FROM subscriptions s WHERE s.id IN ${sql.in([...ids])}`).pipe(Effect.flatMap(decodeVersions))
    return new Map(rows.map((row) => [row.id, billableVersion(row.rowVersion, row.items ?? undefined, row.cycles ?? undefined)]))
  })

const issueCycles = ({ sql }: SubscriptionTables): Service["issueCycles"] => (rows, at, leaseUntil) =>
  rows.length === 0 ? Effect.succeed([]) : orDie(sql<{ subscriptionId: string; cycleNumber: number }>`UPDATE billing_cycles c
    SET status = v.status, charge_id = v.charge_id, amount_cents = v.amount, discount_cents = v.discount,
      attempt_count = v.attempts, claimed_until = ${leaseUntil}, updated_at = ${at}
    FROM (VALUES ${sql.csv(rows.map(({ issued, ref }) =>
      sql`(${ref.subscriptionId}, ${ref.cycleNumber}::int, ${issued.status}, ${issued.chargeId}, ${issued.amount}::bigint,
        ${issued.discount}::bigint, ${issued.attemptCount}::int)`))})
      AS v (subscription_id, cycle_number, status, charge_id, amount, discount, attempts)
    WHERE c.subscription_id = v.subscription_id AND c.cycle_number = v.cycle_number AND c.status IN ${constants(sql, CycleTransitions.issued.from)}
    RETURNING c.subscription_id AS "subscriptionId", c.cycle_number AS "cycleNumber"`).pipe(
    Effect.map((moved) => {
      const done = new Set(moved.map((m) => cycleKey(m.subscriptionId, Number(m.cycleNumber))))
      return rows.map((row) => row.ref).filter((ref) => done.has(cycleKey(ref.subscriptionId, ref.cycleNumber)))
    })
  )

const startAttempt = ({ sql }: SubscriptionTables): Service["startAttempt"] => (ref, attempt, at) =>
  Effect.gen(function*() {
    // The invoice follows the cycle to its new charge: moved first, while it still names the old one.
    yield* orDie(sql`UPDATE invoices SET charge_id = ${attempt.chargeId} WHERE ${cycleInvoiceOf(sql, ref)}`)
    const moved = yield* orDie(sql`UPDATE billing_cycles SET charge_id = ${attempt.chargeId}, updated_at = ${at},
        ${attempt.manual
          ? sql`manual_retry_count = manual_retry_count + 1, last_manual_retry_at = ${at}`
          : sql`status = ${CycleTransitions.retried.to}, attempt_count = attempt_count + 1`}
        ${attempt.automatic === undefined ? sql`` : sql`, claimed_until = ${attempt.automatic.leaseUntil}`}
      WHERE subscription_id = ${ref.subscriptionId} AND cycle_number = ${ref.cycleNumber} AND status IN ${constants(sql, attempt.from)}
        ${attempt.automatic === undefined ? sql`` : sql`AND next_attempt_on <= ${attempt.automatic.today}::date`}
      RETURNING cycle_number`)
    return moved.length > 0
  })

const markOverdue = ({ sql }: SubscriptionTables): Service["markOverdue"] => (ref, at) =>
  Effect.gen(function*() {
    const overdue = BillingJobClaims.overdue
    const marked = yield* orDie(sql`UPDATE billing_cycles SET overdue_at = ${at}, updated_at = ${at}
      WHERE subscription_id = ${ref.subscriptionId} AND cycle_number = ${ref.cycleNumber} AND overdue_at IS NULL
        AND status IN ${constants(sql, overdue.cycleStatuses)} RETURNING cycle_number`)
    if (marked.length === 0) return false
    const invoice = InvoiceTransitions.overdue
    yield* orDie(sql`UPDATE invoices SET status = ${invoice.to} WHERE ${cycleInvoiceOf(sql, ref)} AND status IN ${constants(sql, invoice.from)}`)
    return true
  })

// --- The layer ---------------------------------------------------------------------------------------------------

/** The reads and writes of subscriptions' rows as they stand (no rule in them). */
const subscriptionRows = (tables: SubscriptionTables) => {
  const { sql, columns } = tables
  return {
    lock: (id: SubscriptionId) => orDie(sql`SELECT id FROM subscriptions WHERE id = ${id} FOR UPDATE`).pipe(Effect.asVoid),
    insert: insert(tables),
    find: find(tables),
    list: list(tables),
    listByCustomer: (accountId: AccountId, customerId: string) =>
      orDie(sql`SELECT ${columns.subscription} FROM subscriptions WHERE account_id = ${accountId} AND customer_id = ${customerId}
        ORDER BY seq DESC`).pipe(Effect.flatMap(decodeSubscriptions), Effect.map(withoutSeq)),
    countOpen: countOpen(tables),
    countSelling: (accountId: AccountId, productId: string) =>
      orDie(sql<{ n: string }>`SELECT count(DISTINCT s.id)::text AS n FROM subscriptions s JOIN subscription_items i ON i.subscription_id = s.id
        WHERE s.account_id = ${accountId} AND i.product_id = ${productId}`).pipe(Effect.map((rows) => Number(rows[0]?.n ?? 0))),
    transition: transition(tables),
    transitionMany: transitionMany(tables),
    scheduleCancel: scheduleCancel(tables),
    update: update(tables),
    findByRecurrence: (accountId: AccountId, recurrencyId: string) =>
      orDie(sql`SELECT id FROM subscriptions WHERE account_id = ${accountId} AND pix_recurrency_id = ${recurrencyId}`).pipe(
        Effect.flatMap(decodeIds),
        Effect.map((rows) => Option.fromNullishOr(rows[0]?.id))
      ),
    decideRecurrence: decideRecurrence(tables),
    appendChange: (subscriptionId: SubscriptionId, change: SubscriptionChange) =>
      orDie(sql`INSERT INTO subscription_changes (subscription_id, position, kind, body, created_at)
        VALUES (${subscriptionId}, (SELECT coalesce(max(position) + 1, 0) FROM subscription_changes WHERE subscription_id = ${subscriptionId}),
          ${change.kind}, ${encodeChange(change)}, ${change.at})`).pipe(Effect.asVoid),
    replacePrimaries: replacePrimaries(tables)
  } satisfies Partial<Service>
}

/** The moves of items, and the invoices written with them. */
const itemAndInvoiceRows = (tables: SubscriptionTables) => {
  const { sql } = tables
  return {
    insertItems: (items: ReadonlyArray<SubscriptionItem>) => insertItems(sql, items),
    findItems: findItems(tables),
    moveItems: moveItems(tables),
    linkReplacements: linkReplacements(tables),
    insertInvoices: (invoices: ReadonlyArray<{ readonly accountId: AccountId; readonly invoice: UnnumberedInvoice }>) => insertInvoices(sql, invoices),
    moveInvoices: moveInvoices(tables)
  } satisfies Partial<Service>
}

/** The cycles: their moves, and what the billing run claims and reads. */
const cycleRows = (tables: SubscriptionTables) => {
  const moveMany = moveCycles(tables)
  return {
    moveCycle: (subscriptionId: SubscriptionId, n: number, move: Omit<CycleMove, "subscriptionId" | "cycleNumber">, at: Date) =>
      Effect.map(moveMany([{ ...move, subscriptionId, cycleNumber: n }], at), (moved) => moved.length > 0),
    moveCycles: moveMany,
    moveCyclesOf: moveCyclesOf(tables),
    updateScheduledCycles: updateScheduledCycles(tables),
    claimDue: claimDue(tables.sql),
    expireClaims: expireClaims(tables.sql),
    countDue: countDue(tables.sql),
    backlog: backlog(tables.sql),
    countHeld: countHeld(tables.sql),
    findBillable: findBillable(tables),
    lockMany: lockMany(tables),
    issueCycles: issueCycles(tables),
    findCycles: findCycles(tables),
    insertCycles: (cycles: ReadonlyArray<BillingCycle>) => insertCycles(tables.sql, cycles, { skipExisting: true }),
    startAttempt: startAttempt(tables),
    markOverdue: markOverdue(tables),
    appendRulers: appendRulers(tables),
    advanceCurrentCycles: advanceCurrentCycles(tables),
    nextWorkDay: nextWorkDay(tables.sql)
  } satisfies Partial<Service>
}

export const SubscriptionsStorageLive = Layer.effect(Subscriptions, Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const tables: SubscriptionTables = { sql, columns: selectLists(sql) }
  return Subscriptions.of({ ...subscriptionRows(tables), ...itemAndInvoiceRows(tables), ...cycleRows(tables) })
}))
