/**
 * Which cycles each job of the billing run takes, in one table: by the
 * cycle's status, its subscription's status, its payment method and the day
 * that must have come. Storage builds each job's claim (`WHERE`) from its
 * row, and a test clock's next stop from the same rows; `jobTakesCycle` reads a row
 * for one cycle, as the claim does for many.
 *
 * The days are São Paulo calendar dates (`YYYY-MM-DD`); a cycle's issue date
 * is never after its due date (`CycleSchedule.issueDate`, and the database
 * checks it), so a card cycle, which waits for both, is taken on its due date.
 */
import { addDays } from "../brazil/CalendarDate.ts"
import type { PaymentMethodInput } from "../domain/Charge.ts"
import type { BillingCycle, CycleStatus, Subscription, SubscriptionStatus } from "../domain/Subscription.ts"
import { CycleTransitions, SCHEDULED_CYCLE_STATUSES, UNPAID_CYCLE_STATUSES } from "./CycleTransitions.ts"
import { BILLING_SUBSCRIPTION_STATUSES, FIRST_CYCLE_BILLING_STATUSES, OPEN_SUBSCRIPTION_STATUSES } from "./SubscriptionStatuses.ts"

/**
 * The jobs of the billing run, by what they do with a cycle they take:
 * - `issue`: issues its charge (a card's is attempted);
 * - `periodEnd`: cancels the subscription whose cancel at period end came;
 * - `retry`: attempts the refused card again;
 * - `dunningEnd`: fails the cycle and cancels the subscription for default;
 * - `overdue`: marks it overdue (`payment.overdue`), once;
 * - `stalledCard`: finishes a card attempt whose worker stopped before
 *   recording the acquirer's answer.
 */
export type BillingJobName = "issue" | "periodEnd" | "retry" | "dunningEnd" | "overdue" | "stalledCard"

/** A day of a cycle a job waits for: one of its dates, or the day after its due date. */
export type CycleDay = "issueDate" | "dueDate" | "dayAfterDue" | "nextAttemptOn"

export interface BillingJobClaim {
  /** The cycle statuses it takes. */
  readonly cycleStatuses: ReadonlyArray<CycleStatus>
  /** The statuses of a subscription whose cycles it takes; null: whatever the subscription's status. */
  readonly subscriptionStatuses: ReadonlyArray<SubscriptionStatus> | null
  /** The statuses of a subscription whose first cycle only it takes, besides. */
  readonly firstCycleStatuses: ReadonlyArray<SubscriptionStatus>
  /** Only subscriptions canceled at period end (true), only the others (false), or either (null). */
  readonly endingAtPeriodEnd: boolean | null
  /** Only cycles paid by these methods; null: any method. */
  readonly methods: ReadonlyArray<PaymentMethodInput> | null
  /** The days that must have come, whatever the method; none: it is taken as soon as the rest holds. */
  readonly days: ReadonlyArray<CycleDay>
  /** The days that must have come too for a cycle paid by the method. */
  readonly daysByMethod: Partial<Record<PaymentMethodInput, ReadonlyArray<CycleDay>>>
  /** Leaves cycles held for review (safety bounds) until they are approved. */
  readonly unlessHeld: boolean
  /** Leaves cycles already marked overdue. */
  readonly unlessMarkedOverdue: boolean
  /**
   * Only cycles a billing run attempted (`attemptCount` > 0) that were
   * claimed once: every claim skips a live lease, so such a cycle's worker
   * stopped without recording the answer.
   */
  readonly stalledOnly: boolean
}

const claim = (fields: Partial<BillingJobClaim> & Pick<BillingJobClaim, "cycleStatuses">): BillingJobClaim => ({
  subscriptionStatuses: OPEN_SUBSCRIPTION_STATUSES,
  firstCycleStatuses: [],
  endingAtPeriodEnd: null,
  methods: null,
  days: [],
  daysByMethod: {},
  unlessHeld: false,
  unlessMarkedOverdue: false,
  stalledOnly: false,
  ...fields
})

/** The table: one row per job. Every job but `stalledCard` leaves the cycles of finished subscriptions. */
export const BillingJobClaims: { readonly [J in BillingJobName]: BillingJobClaim } = {
  // A card is attempted on its due date; a Pix or boleto is issued ahead, on its issue date. A subscription ending
  // at period end issues nothing more: `periodEnd` takes its next cycle instead.
  issue: claim({
    cycleStatuses: SCHEDULED_CYCLE_STATUSES,
    subscriptionStatuses: BILLING_SUBSCRIPTION_STATUSES,
    firstCycleStatuses: FIRST_CYCLE_BILLING_STATUSES,
    endingAtPeriodEnd: false,
    days: ["issueDate"],
    daysByMethod: { creditcard: ["dueDate"] },
    unlessHeld: true
  }),
  periodEnd: claim({ cycleStatuses: SCHEDULED_CYCLE_STATUSES, endingAtPeriodEnd: true, days: ["dueDate"] }),
  retry: claim({ cycleStatuses: CycleTransitions.retried.from, days: ["nextAttemptOn"] }),
  dunningEnd: claim({ cycleStatuses: CycleTransitions.dunningEnded.from, days: ["nextAttemptOn"] }),
  overdue: claim({ cycleStatuses: UNPAID_CYCLE_STATUSES, days: ["dayAfterDue"], unlessMarkedOverdue: true }),
  // Whatever became of the subscription: the answer of a card attempt in flight is recorded all the same.
  stalledCard: claim({ cycleStatuses: ["PROCESSING"], subscriptionStatuses: null, methods: ["creditcard"], stalledOnly: true })
}

/** The days `job` waits for on a cycle paid by `method`. */
export const jobDays = (job: BillingJobName, method: PaymentMethodInput): ReadonlyArray<CycleDay> => {
  const row = BillingJobClaims[job]
  return [...row.days, ...(row.daysByMethod[method] ?? [])]
}

/** What `jobTakesCycle` reads of a cycle: the record, and whether a claim was ever taken on it. */
export type ClaimableCycle =
  & Pick<BillingCycle, "status" | "cycleNumber" | "paymentMethod" | "issueDate" | "dueDate" | "nextAttemptOn" | "heldReason" | "overdueAt" | "attemptCount">
  & { readonly claimed: boolean }

/** The date `day` of `cycle`, or null when the cycle has none (no next attempt scheduled). */
export const cycleDay = (cycle: Pick<BillingCycle, "issueDate" | "dueDate" | "nextAttemptOn">, day: CycleDay): string | null => {
  switch (day) {
    case "issueDate":
      return cycle.issueDate
    case "dueDate":
      return cycle.dueDate
    case "dayAfterDue":
      return addDays(cycle.dueDate, 1)
    case "nextAttemptOn":
      return cycle.nextAttemptOn
  }
}

const subscriptionLets = (row: BillingJobClaim, status: SubscriptionStatus, cycleNumber: number) =>
  row.subscriptionStatuses === null || row.subscriptionStatuses.includes(status) ||
  (cycleNumber === 1 && row.firstCycleStatuses.includes(status))

/** Whether `job` takes `cycle` of `subscription` on `today` (its lease aside: a claim also skips a live one). */
export const jobTakesCycle = (
  job: BillingJobName,
  cycle: ClaimableCycle,
  subscription: Pick<Subscription, "status" | "cancelAtPeriodEnd">,
  today: string
): boolean => {
  const row = BillingJobClaims[job]
  const daysCame = jobDays(job, cycle.paymentMethod).every((day) => {
    const date = cycleDay(cycle, day)
    return date !== null && date <= today
  })
  return row.cycleStatuses.includes(cycle.status) && subscriptionLets(row, subscription.status, cycle.cycleNumber) &&
    (row.endingAtPeriodEnd === null || row.endingAtPeriodEnd === subscription.cancelAtPeriodEnd) &&
    (row.methods === null || row.methods.includes(cycle.paymentMethod)) && daysCame &&
    (!row.unlessHeld || cycle.heldReason === null) && (!row.unlessMarkedOverdue || cycle.overdueAt === null) &&
    (!row.stalledOnly || (cycle.attemptCount > 0 && cycle.claimed))
}
