/**
 * What each job of the billing run claims, as SQL: the rows of the core's
 * `BillingJobClaims` (`rules/BillingJobs.ts`) turned into the `WHERE` of a
 * claim and into a test clock's next stop. No rule is decided here: only how
 * a row reads on `c` (the cycle) and `s` (its subscription), and the order
 * each job walks its partial index in.
 */
import {
  AccountId,
  type BillingJobClaim,
  BillingJobClaims,
  type BillingJobName,
  type ClaimClock,
  type CycleDay,
  OPEN_SUBSCRIPTION_STATUSES,
  type RunScope,
  SubscriptionId,
  type Subscriptions
} from "@billing/core"
import { Effect, Option, Schema } from "effect"
import type { SqlClient, Statement } from "effect/sql"
import { decodeRows, Int8 } from "./Rows.ts"
import { constants, inScope, orDie } from "./Statements.ts"

/** A claimed cycle's key as `claimDue` returns it (the cycle number read whatever integer form the driver gives). */
const decodeCycleRefs = decodeRows(Schema.Struct({ accountId: AccountId, subscriptionId: SubscriptionId, cycleNumber: Int8 }))

type Fragment = Statement.Fragment

/** The condition that `day` of `c` (the cycle) came by `today`, as a range on the column its index orders. */
const dayCame = (sql: SqlClient.SqlClient, day: CycleDay, today: string): Fragment => {
  switch (day) {
    case "issueDate":
      return sql`c.issue_date <= ${today}::date`
    case "dueDate":
      return sql`c.due_date <= ${today}::date`
    case "dayAfterDue":
      return sql`c.due_date < ${today}::date`
    case "nextAttemptOn":
      return sql`c.next_attempt_on <= ${today}::date`
  }
}

/** `day` of `c` (the cycle), as a date. */
const dayValue = (sql: SqlClient.SqlClient, day: CycleDay): Fragment => {
  switch (day) {
    case "issueDate":
      return sql`c.issue_date`
    case "dueDate":
      return sql`c.due_date`
    case "dayAfterDue":
      return sql`c.due_date + 1`
    case "nextAttemptOn":
      return sql`c.next_attempt_on`
  }
}

/** The subscriptions whose cycles `row` takes, on `s`. */
const subscriptionLets = (sql: SqlClient.SqlClient, row: BillingJobClaim): Array<Fragment> => {
  if (row.subscriptionStatuses === null) return []
  const every = sql`s.status IN ${constants(sql, row.subscriptionStatuses)}`
  if (row.firstCycleStatuses.length === 0) return [every]
  return [sql`(${every} OR (s.status IN ${constants(sql, row.firstCycleStatuses)} AND c.cycle_number = 1))`]
}

/**
 * The condition of a claim by `row` of `BillingJobClaims`, on `c` (the
 * cycle) and `s` (its subscription); with `today`, the days it waits for
 * must have come.
 */
const claimCondition = (sql: SqlClient.SqlClient, row: BillingJobClaim, today: string | null): Fragment => {
  const conditions: Array<Fragment> = [sql`c.status IN ${constants(sql, row.cycleStatuses)}`, ...subscriptionLets(sql, row)]
  if (row.endingAtPeriodEnd !== null) conditions.push(row.endingAtPeriodEnd ? sql`s.cancel_at_period_end` : sql`NOT s.cancel_at_period_end`)
  if (row.methods !== null) conditions.push(sql`c.payment_method IN ${constants(sql, row.methods)}`)
  if (today !== null) {
    for (const day of row.days) conditions.push(dayCame(sql, day, today))
    for (const [method, days] of Object.entries(row.daysByMethod)) {
      conditions.push(sql`(c.payment_method NOT IN ${constants(sql, [method])} OR ${sql.and(days.map((day) => dayCame(sql, day, today)))})`)
    }
  }
  if (row.unlessHeld) conditions.push(sql`c.held_reason IS NULL`)
  if (row.unlessMarkedOverdue) conditions.push(sql`c.overdue_at IS NULL`)
  if (row.stalledOnly) conditions.push(sql`c.attempt_count > 0 AND c.claimed_until IS NOT NULL`)
  return sql.and(conditions)
}

/**
 * Whether the row `charges` is the attempt of a cycle the stalled-card job
 * finishes (its row of `BillingJobClaims`, leases aside): a card charge the
 * billing run made. Every other card charge left unanswered (a checkout's,
 * a subscription's first cycle bought at the checkout, a plan change's
 * prorata) is the card-outcome job's (`Charges.claimUnansweredCards`).
 */
export const stalledCardAttempt = (sql: SqlClient.SqlClient): Fragment =>
  sql`EXISTS (SELECT 1 FROM billing_cycles c JOIN subscriptions s ON s.id = c.subscription_id
    WHERE c.subscription_id = charges.subscription_id AND c.cycle_number = charges.cycle_number AND c.charge_id = charges.id
      AND ${claimCondition(sql, BillingJobClaims.stalledCard, null)})`

const heldMethodsOf = (scope: RunScope) => scope.heldMethods ?? []

// A held method's cycle is claimed only for a sandbox account (`RunScope.heldMethods`).
const held = (sql: SqlClient.SqlClient, methods: ReadonlyArray<string>) =>
  sql`(c.payment_method IN ${sql.in([...methods])} AND NOT EXISTS (SELECT 1 FROM accounts a WHERE a.id = s.account_id AND a.sandbox))`

/** The cycles `job` may take now in `scope` (held ones included): due by its row, and not under a live claim. */
const dueNow = (sql: SqlClient.SqlClient, job: BillingJobName, scope: RunScope, clock: ClaimClock) =>
  sql`${claimCondition(sql, BillingJobClaims[job], clock.today)} AND (c.claimed_until IS NULL OR c.claimed_until < ${clock.now})
    AND ${inScope(sql, scope, sql`s.account_id`)}`

/** The cycles `job` may claim now in `scope`: due, and not held. */
const claimable = (sql: SqlClient.SqlClient, job: BillingJobName, scope: RunScope, clock: ClaimClock) => {
  const methods = heldMethodsOf(scope)
  return methods.length === 0 ? dueNow(sql, job, scope, clock) : sql`${dueNow(sql, job, scope, clock)} AND NOT ${held(sql, methods)}`
}

const countWhere = (sql: SqlClient.SqlClient, condition: Fragment) =>
  orDie(sql<{ n: string }>`SELECT count(*)::text AS n FROM billing_cycles c JOIN subscriptions s ON s.id = c.subscription_id
    WHERE ${condition}`).pipe(Effect.map((rows) => Number(rows[0]?.n ?? 0)))

export const countDue = (sql: SqlClient.SqlClient): Subscriptions["Service"]["countDue"] => (job, scope, clock) =>
  countWhere(sql, claimable(sql, job, scope, clock))

/**
 * What `job` has waiting in every account without a test clock: its due
 * cycles counted up to `cap` (a backlog past it is reported as `cap`: a
 * scrape must stay cheap with a million due), and the earliest day (or
 * instant, in ISO 8601 as `to_json` writes it) in its claim order, read by
 * walking the job's index.
 */
export const backlog = (sql: SqlClient.SqlClient): Subscriptions["Service"]["backlog"] => (job, clock, cap) => {
  const condition = claimable(sql, job, { accountId: null }, clock)
  return orDie(sql<{ due: string; oldest: string | null }>`SELECT
    (SELECT count(*) FROM (SELECT 1 FROM billing_cycles c JOIN subscriptions s ON s.id = c.subscription_id WHERE ${condition} LIMIT ${cap}) t)::text AS due,
    (SELECT to_json(${claimColumn(sql, job)}) #>> '{}' FROM billing_cycles c JOIN subscriptions s ON s.id = c.subscription_id WHERE ${condition}
      ORDER BY ${claimOrder(sql, job)} LIMIT 1) AS oldest`).pipe(
    Effect.map((rows) => ({ due: Number(rows[0]?.due ?? 0), oldest: rows[0]?.oldest ?? null }))
  )
}

export const countHeld = (sql: SqlClient.SqlClient): Subscriptions["Service"]["countHeld"] => (job, scope, clock) => {
  const methods = heldMethodsOf(scope)
  return methods.length === 0 ? Effect.succeed(0) : countWhere(sql, sql`${dueNow(sql, job, scope, clock)} AND ${held(sql, methods)}`)
}

/**
 * The column each job walks its partial index in: without it the planner,
 * told by statistics taken before a run that most cycles are due, merges the
 * whole tables by key and reads past every cycle already issued.
 */
const claimColumn = (sql: SqlClient.SqlClient, job: BillingJobName): Fragment => {
  switch (job) {
    case "issue":
    case "periodEnd":
      return sql`c.issue_date`
    case "retry":
    case "dunningEnd":
      return sql`c.next_attempt_on`
    case "overdue":
      return sql`c.due_date`
    case "stalledCard":
      return sql`c.claimed_until`
  }
}

/**
 * The order a job claims in: its column, then the cycle's key, as its index
 * holds them. Thousands of cycles share a day; without the key, which of them
 * came first was the heap's choice, and a run of the same history claimed
 * them in another order.
 */
const claimOrder = (sql: SqlClient.SqlClient, job: BillingJobName): Fragment =>
  sql`${claimColumn(sql, job)}, c.subscription_id, c.cycle_number`

export const expireClaims = (sql: SqlClient.SqlClient): Subscriptions["Service"]["expireClaims"] => (refs, leaseUntil, at) =>
  refs.length === 0 ? Effect.void : orDie(sql`UPDATE billing_cycles SET claimed_until = ${at}
    FROM (VALUES ${sql.csv(refs.map((r) => sql`(${r.subscriptionId}, ${r.cycleNumber}::int)`))}) AS mine (subscription_id, cycle_number)
    WHERE billing_cycles.subscription_id = mine.subscription_id AND billing_cycles.cycle_number = mine.cycle_number
      AND billing_cycles.claimed_until >= ${leaseUntil}`).pipe(Effect.asVoid)

export const claimDue = (sql: SqlClient.SqlClient): Subscriptions["Service"]["claimDue"] => (job, scope, clock, limit) =>
  orDie(sql`UPDATE billing_cycles SET claimed_until = ${clock.leaseUntil}
    FROM (
      SELECT c.subscription_id, c.cycle_number, s.account_id FROM billing_cycles c JOIN subscriptions s ON s.id = c.subscription_id
      WHERE ${claimable(sql, job, scope, clock)}
      ORDER BY ${claimOrder(sql, job)} LIMIT ${limit} FOR UPDATE OF c SKIP LOCKED
    ) due
    WHERE billing_cycles.subscription_id = due.subscription_id AND billing_cycles.cycle_number = due.cycle_number
    RETURNING due.account_id AS "accountId", billing_cycles.subscription_id AS "subscriptionId",
      billing_cycles.cycle_number AS "cycleNumber"`).pipe(
    Effect.flatMap(decodeCycleRefs)
  )

/** The day `row` may first take a cycle: the latest of the days it waits for on the cycle's method. */
const workDay = (sql: SqlClient.SqlClient, row: BillingJobClaim): Fragment => {
  const latest = (days: ReadonlyArray<CycleDay>) =>
    days.length === 1 ? dayValue(sql, days[0]!) : sql`GREATEST(${sql.csv(days.map((day) => dayValue(sql, day)))})`
  const byMethod = Object.entries(row.daysByMethod).map(([method, days]) =>
    sql`WHEN c.payment_method = ${method} THEN ${latest([...row.days, ...days])}`
  )
  return byMethod.length === 0 ? latest(row.days) : sql`CASE ${sql.join(" ", false)(byMethod)} ELSE ${latest(row.days)} END`
}

/**
 * A test clock stops at every day a job may have work for the account: the
 * work day of each job with days, on the cycles of every open subscription
 * (one that bills only later, on its first payment say, has its days too),
 * held cycles aside (they wait for an approval, not for a day).
 */
export const nextWorkDay = (sql: SqlClient.SqlClient): Subscriptions["Service"]["nextWorkDay"] => (accountId, today) => {
  const wakeUps = Object.values(BillingJobClaims).filter((row) => row.days.length > 0).map((row) => {
    const wide: BillingJobClaim = { ...row, subscriptionStatuses: OPEN_SUBSCRIPTION_STATUSES, firstCycleStatuses: [], unlessHeld: true }
    return sql`SELECT ${workDay(sql, row)} AS day FROM billing_cycles c JOIN subscriptions s ON s.id = c.subscription_id
      WHERE s.account_id = ${accountId} AND ${claimCondition(sql, wide, null)}`
  })
  return orDie(sql<{ day: string | null }>`SELECT to_char(min(day), 'YYYY-MM-DD') AS day FROM (${sql.join(" UNION ALL ", false)(wakeUps)}) work
    WHERE day > ${today}::date`).pipe(Effect.map((rows) => Option.fromNullishOr(rows[0]?.day)))
}
