/**
 * Which cycles each job of the billing run takes, case by case, each answer
 * worked out by hand from the rules (docs/decisions.md, "The billing run"):
 * a card is attempted on its due date, a Pix or boleto issued on its issue
 * date; a free period bills its first cycle only; a cancel at period end
 * stops issuing and ends the subscription on the due date; retries and
 * dunning wait for their day; a cycle is overdue the day after its due date,
 * once; a stalled card is finished whatever became of the subscription.
 */
import { describe, expect, it } from "vitest"
import type { SubscriptionStatus } from "../../src/domain/Subscription.ts"
import { type BillingJobName, type ClaimableCycle, jobDays, jobTakesCycle } from "../../src/rules/BillingJobs.ts"

// Cycle 2 of a monthly subscription: issued 3 days ahead of its due date.
const cycle: ClaimableCycle = {
  status: "SCHEDULED",
  cycleNumber: 2,
  paymentMethod: "pix",
  issueDate: "2027-03-07",
  dueDate: "2027-03-10",
  nextAttemptOn: null,
  heldReason: null,
  overdueAt: null,
  attemptCount: 0,
  claimed: false
}
const active = { status: "ACTIVE" as SubscriptionStatus, cancelAtPeriodEnd: false }

interface Case {
  readonly name: string
  readonly job: BillingJobName
  readonly cycle?: Partial<ClaimableCycle>
  readonly subscription?: Partial<typeof active>
  readonly today: string
  readonly takes: boolean
}

const cases: ReadonlyArray<Case> = [
  { name: "a Pix on its issue date", job: "issue", today: "2027-03-07", takes: true },
  { name: "a Pix the day before its issue date", job: "issue", today: "2027-03-06", takes: false },
  { name: "a boleto on its issue date", job: "issue", cycle: { paymentMethod: "boleto" }, today: "2027-03-07", takes: true },
  { name: "a card on its issue date, before its due date", job: "issue", cycle: { paymentMethod: "creditcard" }, today: "2027-03-09", takes: false },
  { name: "a card on its due date", job: "issue", cycle: { paymentMethod: "creditcard" }, today: "2027-03-10", takes: true },
  { name: "a late Pix", job: "issue", today: "2027-04-01", takes: true },
  { name: "a held cycle", job: "issue", cycle: { heldReason: "AMOUNT_ABOVE_BOUND" }, today: "2027-03-07", takes: false },
  { name: "a cycle issued already", job: "issue", cycle: { status: "AWAITING_PAYMENT" }, today: "2027-03-07", takes: false },
  { name: "a subscription in default", job: "issue", subscription: { status: "DEFAULT" }, today: "2027-03-07", takes: true },
  { name: "a subscription past due before its first payment", job: "issue", subscription: { status: "PAST_DUE" }, today: "2027-03-07", takes: false },
  { name: "a subscription waiting for its first payment", job: "issue", subscription: { status: "PENDING" }, today: "2027-03-07", takes: false },
  { name: "the first cycle after a free period", job: "issue", cycle: { cycleNumber: 1 }, subscription: { status: "TRIALING" }, today: "2027-03-07", takes: true },
  { name: "a later cycle of a free period", job: "issue", subscription: { status: "TRIALING" }, today: "2027-03-07", takes: false },
  { name: "a canceled subscription", job: "issue", subscription: { status: "CANCELED" }, today: "2027-03-07", takes: false },
  { name: "a subscription ending at period end", job: "issue", subscription: { cancelAtPeriodEnd: true }, today: "2027-03-07", takes: false },

  { name: "the next cycle of one ending at period end, on its due date", job: "periodEnd", subscription: { cancelAtPeriodEnd: true }, today: "2027-03-10", takes: true },
  { name: "the same on its issue date", job: "periodEnd", subscription: { cancelAtPeriodEnd: true }, today: "2027-03-07", takes: false },
  { name: "a held cycle of one ending at period end", job: "periodEnd", cycle: { heldReason: "AMOUNT_ABOVE_BOUND" }, subscription: { cancelAtPeriodEnd: true }, today: "2027-03-10", takes: true },
  { name: "one past due ending at period end", job: "periodEnd", subscription: { status: "PAST_DUE", cancelAtPeriodEnd: true }, today: "2027-03-10", takes: true },
  { name: "a subscription not ending", job: "periodEnd", today: "2027-03-10", takes: false },
  { name: "a subscription already canceled", job: "periodEnd", subscription: { status: "CANCELED", cancelAtPeriodEnd: true }, today: "2027-03-10", takes: false },

  { name: "a retry on its day", job: "retry", cycle: { status: "RETRY_SCHEDULED", paymentMethod: "creditcard", nextAttemptOn: "2027-03-13" }, today: "2027-03-13", takes: true },
  { name: "a retry the day before", job: "retry", cycle: { status: "RETRY_SCHEDULED", paymentMethod: "creditcard", nextAttemptOn: "2027-03-13" }, today: "2027-03-12", takes: false },
  { name: "a cycle in dunning", job: "retry", cycle: { status: "DUNNING", paymentMethod: "creditcard", nextAttemptOn: "2027-03-13" }, today: "2027-03-13", takes: false },
  { name: "a retry of a canceled subscription", job: "retry", cycle: { status: "RETRY_SCHEDULED", nextAttemptOn: "2027-03-13" }, subscription: { status: "CANCELED" }, today: "2027-03-13", takes: false },

  { name: "the end of dunning", job: "dunningEnd", cycle: { status: "DUNNING", paymentMethod: "creditcard", nextAttemptOn: "2027-04-01" }, today: "2027-04-01", takes: true },
  { name: "a day of dunning left", job: "dunningEnd", cycle: { status: "DUNNING", paymentMethod: "creditcard", nextAttemptOn: "2027-04-01" }, today: "2027-03-31", takes: false },
  { name: "a retry day", job: "dunningEnd", cycle: { status: "RETRY_SCHEDULED", nextAttemptOn: "2027-04-01" }, today: "2027-04-01", takes: false },

  { name: "an unpaid Pix the day after its due date", job: "overdue", cycle: { status: "AWAITING_PAYMENT" }, today: "2027-03-11", takes: true },
  { name: "an unpaid Pix on its due date", job: "overdue", cycle: { status: "AWAITING_PAYMENT" }, today: "2027-03-10", takes: false },
  { name: "a card being retried, past its due date", job: "overdue", cycle: { status: "RETRY_SCHEDULED", nextAttemptOn: "2027-03-13" }, today: "2027-03-11", takes: true },
  { name: "a card attempt in flight, past its due date", job: "overdue", cycle: { status: "PROCESSING" }, today: "2027-03-11", takes: true },
  { name: "a cycle already marked overdue", job: "overdue", cycle: { status: "AWAITING_PAYMENT", overdueAt: new Date("2027-03-11T03:00:00Z") }, today: "2027-03-12", takes: false },
  { name: "a cycle not issued", job: "overdue", today: "2027-03-11", takes: false },
  { name: "a paid cycle", job: "overdue", cycle: { status: "PAID" }, today: "2027-03-11", takes: false },
  { name: "an unpaid first charge", job: "overdue", cycle: { status: "AWAITING_PAYMENT", cycleNumber: 1 }, subscription: { status: "PENDING" }, today: "2027-03-11", takes: true },
  { name: "a cycle of a canceled subscription", job: "overdue", cycle: { status: "AWAITING_PAYMENT" }, subscription: { status: "CANCELED" }, today: "2027-03-11", takes: false },

  { name: "a run's card attempt whose claim ran out", job: "stalledCard", cycle: { status: "PROCESSING", paymentMethod: "creditcard", attemptCount: 1, claimed: true }, today: "2027-03-10", takes: true },
  { name: "the same on a canceled subscription", job: "stalledCard", cycle: { status: "PROCESSING", paymentMethod: "creditcard", attemptCount: 1, claimed: true }, subscription: { status: "CANCELED" }, today: "2027-03-10", takes: true },
  { name: "a checkout's own card (no run attempt)", job: "stalledCard", cycle: { status: "PROCESSING", paymentMethod: "creditcard", attemptCount: 0, claimed: true }, today: "2027-03-10", takes: false },
  { name: "a card attempt never claimed", job: "stalledCard", cycle: { status: "PROCESSING", paymentMethod: "creditcard", attemptCount: 1, claimed: false }, today: "2027-03-10", takes: false },
  { name: "a Pix in flight", job: "stalledCard", cycle: { status: "PROCESSING", paymentMethod: "pix", attemptCount: 1, claimed: true }, today: "2027-03-10", takes: false }
]

describe("billing run jobs", () => {
  for (const c of cases) {
    it(`${c.job} ${c.takes ? "takes" : "leaves"} ${c.name}`, () => {
      expect(jobTakesCycle(c.job, { ...cycle, ...c.cycle }, { ...active, ...c.subscription }, c.today)).toBe(c.takes)
    })
  }

  it("waits for a card's due date on top of its issue date, and for nothing more of another method", () => {
    expect(jobDays("issue", "creditcard")).toEqual(["issueDate", "dueDate"])
    expect(jobDays("issue", "boleto")).toEqual(["issueDate"])
    expect(jobDays("overdue", "creditcard")).toEqual(["dayAfterDue"])
    expect(jobDays("stalledCard", "creditcard")).toEqual([])
  })
})
