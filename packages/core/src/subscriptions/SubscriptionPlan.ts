/**
 * The records a new subscription starts with, worked out before anything is
 * written: the subscription, its items, cycle 1 (issued with its invoice, or
 * scheduled when the subscription starts free) and the next cycle,
 * scheduled. Every date comes from `rules/SubscriptionStart.ts` and
 * `rules/CycleSchedule.ts`, every amount from `rules/CycleInvoice.ts` and
 * `rules/Prorata.ts`.
 */
import { Effect } from "effect"
import type { Account } from "../domain/Account.ts"
import type { CheckoutOrder } from "../checkout/ParseCheckout.ts"
import type { PurchaseLine } from "../checkout/PriceCheckout.ts"
import { type Charge, paymentTypeOf } from "../domain/Charge.ts"
import type { BillingCycle, InvoiceLine, Subscription, SubscriptionItem, SubscriptionSplitRule } from "../domain/Subscription.ts"
import { invalidData as invalid } from "../domain/Errors.ts"
import { type Cents, cents } from "../money/Money.ts"
import { Ids } from "../ports/Ids.ts"
import type { NewSubscription, UnnumberedInvoice } from "../ports/Subscriptions.ts"
import { cycleInvoice } from "../rules/CycleInvoice.ts"
import { CycleTransitions } from "../rules/CycleTransitions.ts"
import { cycleDueDate, issueDate } from "../rules/CycleSchedule.ts"
import { lineTotal } from "../rules/Items.ts"
import { prorata } from "../rules/Prorata.ts"
import { type SubscriptionStart, subscriptionStart } from "../rules/SubscriptionStart.ts"
import { RECURRENCE_AWAITING_BANK } from "../rules/SubscriptionStatuses.ts"
import { newCycle } from "./NextCycle.ts"
import type { SubscriptionTerms } from "./SubscriptionTerms.ts"
import { CustomerId, InvoiceIds, SubscriptionId, SubscriptionItemId, SubscriptionItemIds } from "../domain/Ids.ts"

/** A new subscription, ready to be written once its customer is known. */
export interface SubscriptionPlan {
  readonly subscriptionId: SubscriptionId
  readonly at: Date
  /** Starts in a free period: nothing is charged now. */
  readonly free: boolean
  readonly firstDueDate: string
  /** What cycle 1's charge asks for. */
  readonly firstInvoiceTotal: Cents
  /** What a whole first cycle of the plan bills, discounts and coupon taken. */
  readonly fullCycleTotal: Cents
  /** The plan's name, the first charge's description when the request has none. */
  readonly description: string
  /**
   * The records, for the customer the buyer turned out to be, cycle 1's
   * charge (null when free: its invoice takes the charge's due date) and the
   * Pix Automático recurrence (or null).
   */
  readonly withCustomer: (records: {
    readonly customerId: CustomerId
    readonly charge: Pick<Charge, "id" | "dueDate"> | null
    readonly recurrencyId: string | null
  }) => NewSubscription
}

/** The invoice line of a bought price. */
export const priceLine = (line: PurchaseLine, origin: string): InvoiceLine => {
  const recurring = line.price.recurrenceType !== "ONE_TIME"
  return {
    name: line.price.title,
    productName: line.product.name,
    planName: recurring ? line.price.title : null,
    type: recurring ? "RECURRING" : "ONE_TIME",
    origin,
    unitAmount: line.price.amount,
    quantity: line.quantity,
    netAmount: lineTotal({ unitAmount: line.price.amount, quantity: line.quantity }),
    priceId: line.price.id,
    productId: line.product.id
  }
}

/** The line of a first partial period: the full cycle's share for its days. */
const prorataLine = (terms: SubscriptionTerms, start: SubscriptionStart): InvoiceLine | null => {
  if (start.first.prorata === null) return null
  const share = prorata({
    cycleStart: cycleDueDate(start.anchorDate, recurrenceOf(terms), 0, start.billingDay),
    nextCycleDate: start.anchorDate,
    changeDate: start.first.periodStart,
    currentAmount: cents(0),
    newAmount: terms.cycleSubtotal
  })
  const amount = share.prorataAmount
  return {
    name: `Proporcional ${share.remainingDays}/${share.cycleDays} dias`,
    productName: terms.recurring[0]!.product.name,
    planName: terms.recurring[0]!.price.title,
    type: "PRORATA",
    origin: "PRORATA",
    unitAmount: amount,
    quantity: 1,
    netAmount: amount,
    priceId: terms.recurring[0]!.price.id,
    productId: terms.recurring[0]!.product.id
  }
}

const recurrenceOf = (terms: SubscriptionTerms) => ({ recurrenceType: terms.interval, recurrenceInterval: terms.intervalCount })

/** Cycle 1's lines: the full cycle and/or its prorata, then the order bumps. */
const firstCycleLines = (terms: SubscriptionTerms, start: SubscriptionStart): ReadonlyArray<InvoiceLine> => {
  const partial = prorataLine(terms, start)
  const full = terms.recurring.map((line) => priceLine(line, "CHECKOUT"))
  const bumps = terms.oneTime.map((line) => priceLine(line, "ORDER_BUMP"))
  if (partial === null) return [...full, ...bumps]
  return start.first.prorata!.merged ? [...full, partial, ...bumps] : [partial, ...bumps]
}

const splitRulesOf = (order: CheckoutOrder): ReadonlyArray<SubscriptionSplitRule> | null => {
  const split = order.request.split
  if (split === undefined || split.length === 0) return null
  return split.map((s) => ({ accountNumber: s.accountNumber ?? s.publicId ?? "", type: s.type, value: s.amount }))
}

/** What `planFirstCycle` is asked for: the subscription `subscriptionId` of `order` on `terms`. */
interface PlanInput {
  readonly order: CheckoutOrder
  readonly terms: SubscriptionTerms
  readonly subscriptionId: SubscriptionId
  /** The card later cycles are charged to, when paid by card. */
  readonly card: Subscription["card"]
  /** The checkout link or session it was bought through. */
  readonly checkoutId: string | null
  readonly caller: { readonly account: Account; readonly master: Account }
}

/** What every record of the plan is made from: the request, its start, its method and the ids drawn for it. */
interface PlanContext extends PlanInput {
  readonly at: Date
  readonly start: SubscriptionStart
  readonly free: boolean
  readonly method: Subscription["paymentMethod"]
  readonly itemIds: ReadonlyArray<SubscriptionItemId>
}

/** When the subscription of `order` on `terms` first bills. */
const startOf = (order: CheckoutOrder, terms: SubscriptionTerms): SubscriptionStart => {
  const request = order.request
  const coupon = terms.coupon
  return subscriptionStart({
    today: terms.today,
    recurrence: recurrenceOf(terms),
    billingDay: request.billingDay,
    trialDays: terms.trialDays,
    extraPeriod: coupon?.discountType === "EXTRA_PERIOD" && coupon.extraPeriodUnit !== null
      ? { value: coupon.discountValue, unit: coupon.extraPeriodUnit }
      : undefined,
    recurrencyStartDate: request.recurrencyStartDate,
    prorataStartDate: request.prorataStartDate,
    prorataDueDate: request.prorataDueDate,
    mergeWithNextCycle: request.mergeWithNextCycle
  })
}

/** The subscription's own record, for `customerId` and the Pix Automático recurrence `recurrencyId` (or null). */
const subscriptionRecord = (plan: PlanContext, customerId: CustomerId, recurrencyId: string | null): Subscription => {
  const { order, terms, start, caller } = plan
  const request = order.request
  return {
    id: plan.subscriptionId,
    accountId: caller.account.id,
    masterAccountId: caller.master.id,
    customerId,
    checkoutId: plan.checkoutId,
    cartId: request.cartId ?? null,
    status: plan.free ? "TRIALING" : "PENDING",
    interval: terms.interval,
    intervalCount: terms.intervalCount,
    billingDay: start.billingDay,
    paymentMethod: plan.method,
    paymentMethodId: request.paymentMethodId ?? null,
    card: plan.card,
    allowedPaymentMethods: request.allowedPaymentMethods ?? [plan.method],
    passFeesToCustomer: request.passFeesToCustomer ?? false,
    name: order.buyer.name,
    email: order.buyer.email,
    document: order.buyer.document,
    phone: order.buyer.phone,
    additionalEmails: request.additionalEmails ?? [],
    currentCycleNumber: 1,
    cancelAtPeriodEnd: false,
    canceledAt: null,
    cancelReason: null,
    splitRules: splitRulesOf(order),
    boletoInstructions: request.boletoInstructions ?? null,
    pixInstructions: request.pixInstructions ?? null,
    issueDaysBeforeDue: terms.issueDaysBeforeDue,
    expirationAfterDueDate: terms.expirationAfterDueDate,
    nfConfigId: request.nfConfigId ?? null,
    coupon: terms.coupon,
    discounts: terms.discounts,
    anchorDate: start.anchorDate,
    anchorCycle: start.anchorCycle,
    trialEndsOn: start.freeUntil,
    primaryItemId: plan.itemIds[0]!,
    pixRecurrencyId: recurrencyId,
    pixRecurrenceStatus: recurrencyId === null ? null : RECURRENCE_AWAITING_BANK,
    archivedAt: null,
    createdAt: plan.at,
    updatedAt: plan.at
  }
}

/** One item per bought line: the recurring ones (the plan first), then the order bumps. */
const itemRecords = (plan: PlanContext): ReadonlyArray<SubscriptionItem> =>
  [...plan.terms.recurring, ...plan.terms.oneTime].map((line, i): SubscriptionItem => ({
    id: plan.itemIds[i]!,
    subscriptionId: plan.subscriptionId,
    priceId: line.price.id,
    productId: line.product.id,
    name: line.price.title,
    productName: line.product.name,
    productType: line.product.type,
    statementDescriptor: line.price.statementDescriptor,
    unitAmount: line.price.amount,
    quantity: line.quantity,
    type: line.price.recurrenceType === "ONE_TIME" ? "ONE_TIME" : "RECURRING",
    recurrenceType: line.price.recurrenceType,
    recurrenceInterval: line.price.recurrenceInterval,
    trialDays: line.price.trialDays,
    status: plan.free && line.price.recurrenceType !== "ONE_TIME" ? "TRIALING" : "PENDING",
    origin: line.price.recurrenceType === "ONE_TIME" ? "ORDER_BUMP" : "CHECKOUT",
    upgradedFromItemId: null,
    upgradedToItemId: null,
    chargeId: null,
    createdAt: plan.at,
    updatedAt: plan.at
  }))

/** The cycles of the plan: cycle `n`'s due date and its record with `fields`, and what a scheduled one bills. */
const cyclesOf = (plan: PlanContext) => {
  const { terms, start } = plan
  const priceOf = (cycle: number, lines: ReadonlyArray<InvoiceLine>) =>
    cycleInvoice({ cycle, paymentMethod: plan.method, lines, discounts: terms.discounts, coupon: terms.coupon })
  const fullLines = terms.recurring.map((line) => priceLine(line, "RECURRING"))
  const dueOf = (n: number) => (n === 1 ? start.first.dueDate : cycleDueDate(start.anchorDate, recurrenceOf(terms), n - start.anchorCycle + 1, start.billingDay))
  const cycle = (n: number, fields: Pick<BillingCycle, "status" | "amount" | "discount" | "issueDate" | "chargeId">): BillingCycle =>
    newCycle({
      subscriptionId: plan.subscriptionId,
      cycleNumber: n,
      ...fields,
      periodStart: n === 1 ? start.first.periodStart : dueOf(n),
      dueDate: dueOf(n),
      paymentMethod: plan.method,
      splitRules: splitRulesOf(plan.order)
    }, plan.at)
  const scheduled = (n: number): BillingCycle => {
    const amounts = priceOf(n, fullLines)
    return cycle(n, { status: "SCHEDULED", amount: amounts.total, discount: amounts.discount, issueDate: issueDate(dueOf(n), terms.issueDaysBeforeDue), chargeId: null })
  }
  const first = plan.free
    ? priceOf(1, [...fullLines, ...terms.oneTime.map((line) => priceLine(line, "ORDER_BUMP"))])
    : priceOf(1, firstCycleLines(terms, start))
  return { cycle, scheduled, first, fullCycle: priceOf(1, fullLines) }
}

/** Plans the subscription `subscriptionId` for `order` on `terms`. */
export const planFirstCycle = Effect.fn("Subscriptions.planFirstCycle")(function*(input: PlanInput) {
  const { terms } = input
  const ids = yield* Ids
  const sandbox = { sandbox: input.caller.account.sandbox }
  const itemIds = yield* Effect.forEach([...terms.recurring, ...terms.oneTime], () => ids.make(SubscriptionItemIds, sandbox))
  const invoiceId = yield* ids.make(InvoiceIds, sandbox)
  const start = startOf(input.order, terms)
  if (start.first.prorata !== null && !start.first.prorata.merged && start.first.dueDate > start.anchorDate) {
    return yield* invalid("prorataDueDate", "prorataDueDate must not be after the first full cycle's due date")
  }
  const method = input.order.pixAutomatico ? "pix_automatico" as const : input.order.paymentMethod
  const plan: PlanContext = { ...input, at: new Date(terms.now), start, free: start.freeUntil !== null, method, itemIds }
  const cycles = cyclesOf(plan)
  const withCustomer = ({ customerId, charge, recurrencyId }: Parameters<SubscriptionPlan["withCustomer"]>[0]): NewSubscription => {
    const subscription = subscriptionRecord(plan, customerId, recurrencyId)
    const items = itemRecords(plan)
    if (plan.free) return { subscription, items, cycles: [cycles.scheduled(1)], invoices: [] }
    const chargeId = charge?.id ?? null
    const { first } = cycles
    const issued = cycles.cycle(1, {
      status: method === "creditcard" ? CycleTransitions.cardAttempted.to : CycleTransitions.issued.to,
      amount: first.total,
      discount: first.discount,
      issueDate: terms.today,
      chargeId
    })
    const invoice: UnnumberedInvoice = {
      id: invoiceId,
      subscriptionId: plan.subscriptionId,
      cycleNumber: 1,
      status: "AWAITING_PAYMENT",
      paymentType: paymentTypeOf[method],
      dueDate: charge?.dueDate ?? issued.dueDate,
      paidAt: null,
      canceledAt: null,
      discount: first.discount,
      total: first.total,
      chargeId,
      lines: first.lines,
      createdAt: plan.at
    }
    return { subscription, items, cycles: [issued, cycles.scheduled(2)], invoices: [invoice] }
  }
  return {
    subscriptionId: plan.subscriptionId,
    at: plan.at,
    free: plan.free,
    firstDueDate: start.first.dueDate,
    firstInvoiceTotal: cycles.first.total,
    fullCycleTotal: cycles.fullCycle.total,
    description: terms.recurring[0]!.price.title,
    withCustomer
  } satisfies SubscriptionPlan
})
