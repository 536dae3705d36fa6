/**
 * `GET /v1/subscriptions/{id}` and `GET /v1/subscriptions` (scope
 * `subscriptions/read`): the caller's subscriptions only; another account's
 * answers 404 `SUBSCRIPTION_NOT_FOUND` as an unknown one does.
 */
import { Clock, Effect, Option, Schema } from "effect"
import { Caller } from "../auth/Authenticate.ts"
import { saoPauloDate } from "../brazil/BankCalendar.ts"
import { normalizeDocument } from "../brazil/Documents.ts"
import { invalidData as invalid } from "../domain/Errors.ts"
import { dateBound, type KeysetQuery, pageLimit } from "../domain/Pagination.ts"
import { SubscriptionNotFound, SubscriptionStatuses } from "../domain/Subscription.ts"
import { SubscriptionListItemView, subscriptionPaymentType, toSubscriptionDetailView } from "../domain/SubscriptionViews.ts"
import { PaymentMethodInput } from "../domain/Charge.ts"
import { cents } from "../money/Money.ts"
import { Charges } from "../ports/Charges.ts"
import { Customers } from "../ports/Customers.ts"
import { Subscriptions } from "../ports/Subscriptions.ts"
import { SubscriptionId } from "../domain/Ids.ts"

/** The caller's subscription `id` with everything it is made of, or 404. */
export const findOwnSubscription = Effect.fn("Subscriptions.findOwn")(function*(id: SubscriptionId) {
  const caller = yield* Caller
  const found = yield* (yield* Subscriptions).find(caller.account.id, id)
  if (Option.isNone(found)) return yield* new SubscriptionNotFound({ message: `Assinatura ${id} não encontrada`, details: { subscriptionId: id } })
  return found.value
})

/** The detail view of the caller's subscription `id`; links (the first payment's page) on `origin`. */
export const getSubscription = Effect.fn("Subscriptions.get")(function*(id: SubscriptionId, origin: string) {
  const aggregate = yield* findOwnSubscription(id)
  const sub = aggregate.subscription
  const charges = yield* Charges
  const customer = yield* (yield* Customers).find(sub.accountId, sub.customerId)
  const own = yield* charges.listBySubscription(sub.accountId, sub.id)
  // The customer's registered address, else the one its purchase was billed to (a boleto's).
  const billedTo = own.find((c) => c.address !== null)?.address ?? null
  return toSubscriptionDetailView(aggregate, {
    charges: own,
    ltv: yield* charges.paidByCustomer(sub.accountId, sub.customerId),
    customerAddress: Option.match(customer, { onNone: () => null, onSome: (c) => c.address }) ?? billedTo,
    origin,
    today: saoPauloDate(yield* Clock.currentTimeMillis)
  })
})

/** The query of `GET /v1/subscriptions`. */
export interface SubscriptionListQuery extends KeysetQuery {
  readonly status?: string | undefined
  readonly paymentMethod?: string | undefined
  readonly paymentType?: string | undefined
  readonly document?: string | undefined
  readonly search?: string | undefined
  readonly startDate?: string | undefined
  readonly endDate?: string | undefined
  readonly priceId?: string | undefined
  readonly productId?: string | undefined
  readonly checkoutId?: string | undefined
}

/** A payment method filter in either form (`pix` or `PIX`), as stored (the input form). */
const methodFilter = (value: string | undefined) => {
  if (value === undefined) return Effect.succeed(null)
  const input = PaymentMethodInput.literals.find((m) => m === value || subscriptionPaymentType[m] === value.toUpperCase())
  return input === undefined
    ? Effect.fail(invalid("paymentMethod", "paymentMethod must be PIX, BOLETO, CREDIT_CARD or PIX_AUTOMATICO"))
    : Effect.succeed(input)
}

/** `GET /v1/subscriptions`: the provider's `data`, `hasMore`, `lastKey`, with the `pagination` of the other lists. */
export const SubscriptionListResponse = Schema.Struct({
  data: Schema.Array(SubscriptionListItemView),
  hasMore: Schema.Boolean,
  lastKey: Schema.NullOr(Schema.String),
  pagination: Schema.Struct({ total: Schema.Int, limit: Schema.Int, hasMore: Schema.Boolean, lastKey: Schema.NullOr(Schema.String) })
}).annotate({ identifier: "SubscriptionList" })

/**
 * A page of the caller's subscriptions, newest first, in the provider's
 * shape (`data`, `hasMore`, `lastKey`) with the `pagination` block of the
 * other lists. `ARCHIVED` ones are left out unless asked for by `status`.
 */
export const listSubscriptions = Effect.fn("Subscriptions.list")(function*(query: SubscriptionListQuery) {
  const caller = yield* Caller
  const limit = yield* pageLimit(query.limit, 50, invalid)
  const status = query.status === undefined ? null : SubscriptionStatuses.find((x) => x === query.status)
  if (status === undefined) return yield* invalid("status", `status must be one of ${SubscriptionStatuses.join(", ")}`)
  const page = yield* (yield* Subscriptions).list(caller.account.id, {
    limit,
    after: query.lastKey ?? null,
    status,
    includeArchived: false,
    paymentMethod: yield* methodFilter(query.paymentMethod ?? query.paymentType),
    document: query.document === undefined ? null : normalizeDocument(query.document),
    search: query.search?.trim() || null,
    from: yield* dateBound(query.startDate, { field: "startDate", endOfDay: false, invalid }),
    to: yield* dateBound(query.endDate, { field: "endDate", endOfDay: true, invalid }),
    priceId: query.priceId ?? null,
    productId: query.productId ?? null,
    checkoutId: query.checkoutId ?? null
  })
  const data = page.items.map(({ subscription: sub, primaryItem, currentCycle, nextCycle, lastCharge }) => ({
    subscriptionId: sub.id,
    status: sub.status,
    paymentType: subscriptionPaymentType[sub.paymentMethod],
    paymentMethod: subscriptionPaymentType[sub.paymentMethod],
    interval: sub.interval,
    amount: currentCycle?.amount ?? cents(0),
    customerId: sub.customerId,
    customer: { name: sub.name, email: sub.email, document: sub.document },
    productId: primaryItem?.productId ?? null,
    priceId: primaryItem?.priceId ?? null,
    checkoutId: sub.checkoutId,
    currentCycleNumber: sub.currentCycleNumber,
    currentCycleAmount: currentCycle?.amount ?? cents(0),
    nextCycleChargeDate: nextCycle?.dueDate ?? null,
    lastCharge: lastCharge === null ? null : { netAmount: lastCharge.net, status: lastCharge.status },
    createdAt: sub.createdAt
  }))
  return {
    data,
    hasMore: page.lastKey !== null,
    lastKey: page.lastKey,
    pagination: { total: page.total, limit, hasMore: page.lastKey !== null, lastKey: page.lastKey }
  }
})
