/**
 * Changes of a subscription's items (spec: Subscriptions; shapes from the
 * provider's collection): an upgrade charges the prorata of the rest of the
 * cycle at once (card) or by a Pix or boleto whose payment applies it; a
 * downgrade waits for the next cycle with no charge; an item is added
 * (charged by prorata, from cycle 2) or removed. The preview and the change
 * quote the same way (`PlanChangeQuote`), so a preview always equals the
 * charge.
 */
import { Clock, Effect } from "effect"
import { Caller } from "../auth/Authenticate.ts"
import { saoPauloDate } from "../brazil/BankCalendar.ts"
import { ProviderUnavailable } from "../charges/CreatePixCharge.ts"
import { checkedItemsTotal } from "../checkout/PriceCheckout.ts"
import { reserveCheckout } from "../checkout/ReserveCheckout.ts"
import { type CardRefused, type Charge, PriceNotFound } from "../domain/Charge.ts"
import { invalidData as invalid } from "../domain/Errors.ts"
import {
  type Invoice,
  ItemNotFound,
  NewPriceNotFound,
  OldPriceNotFound,
  PaymentDeclined,
  PaymentFailed,
  type PlanChange,
  type SubscriptionAggregate,
  type SubscriptionItem,
  SubscriptionNotEligible
} from "../domain/Subscription.ts"
import { chargeCreated } from "../events/SubscriptionEvents.ts"
import { cents } from "../money/Money.ts"
import { Ids } from "../ports/Ids.ts"
import { Outbox } from "../ports/Outbox.ts"
import { type ItemLink, Subscriptions } from "../ports/Subscriptions.ts"
import { Transactor } from "../ports/Transactor.ts"
import { ItemTransitions } from "../rules/ItemTransitions.ts"
import {
  catalogPrice,
  checkQuantity,
  type ItemChange,
  type PlanChangeQuote,
  quotePlanChange,
  refuseConflicts,
  requireChangeable
} from "./PlanChangeQuote.ts"
import { findOwnSubscription } from "./ReadSubscriptions.ts"
import { prepareSubscriptionCharge } from "./SubscriptionCharges.ts"
import { billedItems, nextCycleItems, repriceNextCycle, waitingItems } from "./SubscriptionItems.ts"
import { accountNumberOf, appendSubscriptionEvent } from "./SubscriptionPayments.ts"
import { ChargeId, InvoiceId, InvoiceIds, PriceId, SubscriptionId, SubscriptionItemId, SubscriptionItemIds } from "../domain/Ids.ts"

/** The body of a preview: the item or price changed (`old`) and the price asked for (`new`); `new` alone quotes an add-on. */
export interface PlanChangeRequest {
  readonly old?: { readonly itemId?: SubscriptionItemId | undefined; readonly priceId?: PriceId | undefined; readonly quantity?: number | undefined } | undefined
  readonly new?: { readonly priceId?: PriceId | undefined; readonly quantity?: number | undefined } | undefined
}

/** The billed item `old` names (by item id or by price), or the route's 404. */
const itemNamed = <E>(aggregate: SubscriptionAggregate, old: NonNullable<PlanChangeRequest["old"]>, notFound: (id: string) => E) => {
  const item = billedItems(aggregate).find((i) => (old.itemId !== undefined ? i.id === old.itemId : i.priceId === old.priceId))
  return item === undefined ? Effect.fail(notFound(old.itemId ?? old.priceId ?? "")) : Effect.succeed(item)
}

const newPriceNotFound = (priceId: string) => new NewPriceNotFound({ message: `Preço ${priceId} não encontrado`, details: { priceId } })
const oldPriceNotFound = (id: string) => new OldPriceNotFound({ message: `O item ou preço ${id} não está na assinatura`, details: { priceId: id } })
const itemNotFound = (itemId: string) => new ItemNotFound({ message: `Item ${itemId} não encontrado na assinatura`, details: { itemId } })
const priceNotFound = (priceId: string) => new PriceNotFound({ message: `Preço ${priceId} não encontrado`, details: { priceId } })

/** The quote of a request: a replacement of `old`, or an add-on when only `new` is sent. */
const quoteRequest = Effect.fnUntraced(function*<E1, E2>(
  aggregate: SubscriptionAggregate,
  request: PlanChangeRequest,
  errors: { readonly oldNotFound: (id: string) => E1; readonly newNotFound: (priceId: string) => E2 }
) {
  yield* requireChangeable(aggregate)
  const old = request.old
  if (old === undefined || (old.itemId === undefined && old.priceId === undefined)) {
    if (request.new?.priceId === undefined) return yield* invalid("new.priceId", "new.priceId is required")
    const target = yield* catalogPrice(aggregate, request.new.priceId, errors.newNotFound)
    const change: ItemChange = { _tag: "Add", priceId: target.price.id, quantity: yield* checkQuantity(request.new.quantity, 1) }
    return yield* quotePlanChange(aggregate, change, target)
  }
  const item = yield* itemNamed(aggregate, old, errors.oldNotFound)
  const target = yield* catalogPrice(aggregate, request.new?.priceId ?? item.priceId, errors.newNotFound)
  const quantity = yield* checkQuantity(request.new?.quantity, item.quantity)
  return yield* quotePlanChange(aggregate, { _tag: "Replace", item, priceId: target.price.id, quantity }, target)
})

/**
 * `POST /v1/subscriptions/{id}/prorata`: what the change would charge now,
 * without charging (404 `OLD_PRICE_NOT_FOUND`, `NEW_PRICE_NOT_FOUND`).
 */
export const previewPlanChange = Effect.fn("Subscriptions.previewPlanChange")(function*(subscriptionId: SubscriptionId, request: PlanChangeRequest) {
  const aggregate = yield* findOwnSubscription(subscriptionId)
  const quote = yield* quoteRequest(aggregate, request, { oldNotFound: oldPriceNotFound, newNotFound: newPriceNotFound })
  const p = quote.prorata
  return {
    subscriptionId,
    type: quote.type,
    currentAmount: p.currentAmount,
    newAmount: p.newAmount,
    prorataAmount: p.prorataAmount,
    remainingDays: p.remainingDays,
    cycleDays: p.cycleDays,
    currentCredit: p.currentCredit,
    nextCycleChargeDate: p.nextCycleChargeDate,
    // The provider's guide names them so.
    daysRemaining: p.remainingDays,
    totalDays: p.cycleDays
  }
})

/** The item a quote creates: the replacement of an upgrade or downgrade, or an add-on. */
const newItem = Effect.fnUntraced(function*(aggregate: SubscriptionAggregate, quote: PlanChangeQuote, fields: Pick<SubscriptionItem, "status" | "chargeId">, at: Date) {
  const { price, product } = quote.target
  const replaced = quote.change._tag === "Replace" ? quote.change.item : null
  return {
    id: yield* (yield* Ids).make(SubscriptionItemIds, { sandbox: (yield* Caller).account.sandbox }),
    subscriptionId: aggregate.subscription.id,
    priceId: price.id,
    productId: product.id,
    name: price.title,
    productName: product.name,
    productType: product.type,
    statementDescriptor: price.statementDescriptor,
    unitAmount: price.amount,
    quantity: quote.change.quantity,
    type: "RECURRING",
    recurrenceType: price.recurrenceType,
    recurrenceInterval: price.recurrenceInterval,
    trialDays: price.trialDays,
    ...fields,
    origin: replaced === null ? "ADD_ON" : "PRORATA_ADJUSTMENT",
    upgradedFromItemId: replaced?.id ?? null,
    upgradedToItemId: null,
    createdAt: at,
    updatedAt: at
  } satisfies SubscriptionItem
})

/** The history entry of a quote. */
const planChange = (quote: PlanChangeQuote, item: SubscriptionItem, chargeId: ChargeId | null, effectiveAt: string, at: Date): PlanChange => {
  const replaced = quote.change._tag === "Replace" ? quote.change.item : null
  return {
    kind: "PLAN",
    type: replaced === null ? "ADD_ITEM" : quote.type,
    itemId: replaced?.id ?? null,
    newItemId: item.id,
    fromPriceId: replaced?.priceId ?? null,
    toPriceId: item.priceId,
    fromQuantity: replaced?.quantity ?? null,
    toQuantity: item.quantity,
    currentAmount: quote.prorata.currentAmount,
    newAmount: quote.prorata.newAmount,
    prorataAmount: quote.prorata.prorataAmount,
    chargeId,
    effectiveAt,
    at
  }
}

/**
 * Takes the subscription's lock in the writing transaction, reads it again
 * and checks that the quoted change still holds: a concurrent change of the
 * same subscription either finished first (and this one sees it) or waits.
 */
const lockAndRecheck = Effect.fnUntraced(function*(aggregate: SubscriptionAggregate, quote: PlanChangeQuote) {
  yield* (yield* Subscriptions).lock(aggregate.subscription.id)
  yield* refuseConflicts(yield* findOwnSubscription(aggregate.subscription.id), quote.change, quote.target)
})

/** The link from the item `item` replaces to it, when it replaces one. */
const linkOf = (item: SubscriptionItem): ReadonlyArray<ItemLink> =>
  item.upgradedFromItemId === null ? [] : [{ itemId: item.upgradedFromItemId, replacementId: item.id }]

/** A downgrade: the replacement waits for the next cycle, which is repriced; nothing is charged. */
const scheduleDowngrade = Effect.fnUntraced(function*(aggregate: SubscriptionAggregate, quote: PlanChangeQuote, at: Date) {
  const item = yield* newItem(aggregate, quote, { status: "PENDING", chargeId: null }, at)
  const subscriptions = yield* Subscriptions
  yield* (yield* Transactor).withTransaction(Effect.gen(function*() {
    yield* lockAndRecheck(aggregate, quote)
    yield* subscriptions.insertItems([item])
    yield* subscriptions.linkReplacements(linkOf(item), at)
    yield* subscriptions.appendChange(aggregate.subscription.id, planChange(quote, item, null, quote.nextCycleDate, at))
    const after = yield* findOwnSubscription(aggregate.subscription.id)
    yield* repriceNextCycle(after, at)
    yield* appendSubscriptionEvent("subscription.downgrade_scheduled", after, at)
  }))
  return {
    success: true as const,
    type: "DOWNGRADE" as const,
    subscriptionId: aggregate.subscription.id,
    itemId: item.id,
    effectiveAt: quote.nextCycleDate,
    newAmount: quote.prorata.newAmount,
    scheduledChange: { effectiveDate: quote.nextCycleDate, newPriceId: item.priceId, newAmount: quote.prorata.newAmount }
  }
})

/** The invoice of a plan change's prorata, on the current cycle. */
const prorataInvoice = (aggregate: SubscriptionAggregate, quote: PlanChangeQuote, item: SubscriptionItem, charge: Charge, invoiceId: InvoiceId): Omit<Invoice, "invoiceNumber"> => ({
  id: invoiceId,
  subscriptionId: aggregate.subscription.id,
  cycleNumber: quote.cycleNumber,
  status: "AWAITING_PAYMENT",
  paymentType: charge.paymentType,
  dueDate: charge.dueDate ?? quote.today,
  paidAt: null,
  canceledAt: null,
  discount: cents(0),
  total: quote.prorata.prorataAmount,
  chargeId: charge.id,
  lines: [{
    name: `Proporcional ${quote.prorata.remainingDays}/${quote.prorata.cycleDays} dias: ${item.name}`,
    productName: item.productName,
    planName: item.name,
    type: "PRORATA_UPGRADE",
    origin: item.origin,
    unitAmount: quote.prorata.prorataAmount,
    quantity: 1,
    netAmount: quote.prorata.prorataAmount,
    priceId: item.priceId,
    productId: item.productId
  }],
  createdAt: charge.createdAt
})

/**
 * An upgrade or add-on: the prorata is charged by the subscription's method;
 * the new item waits for that payment (`PENDING_UPGRADE`), which applies the
 * change (`SubscriptionPayments`). A card answers at once: a refusal is 400
 * `PAYMENT_DECLINED` with `details.declinedCode` and leaves the plan as it was.
 */
const chargeUpgrade = Effect.fnUntraced(function*(aggregate: SubscriptionAggregate, quote: PlanChangeQuote, at: Date) {
  const sub = aggregate.subscription
  const amount = quote.prorata.prorataAmount
  const { draft, prepared } = yield* prepareSubscriptionCharge(aggregate, {
    amount,
    cycleNumber: null,
    dueDate: null,
    description: `${quote.change._tag === "Add" ? "Item adicional" : "Upgrade"}: ${quote.target.price.title}`
  })
  const item = yield* newItem(aggregate, quote, { status: "PENDING_UPGRADE", chargeId: draft.common.id }, at)
  const invoiceId = yield* (yield* Ids).make(InvoiceIds, { sandbox: draft.owner.sandbox })
  const customerId = yield* reserveCheckout(draft, prepared.pending, [], (charge) =>
    Effect.gen(function*() {
      const subscriptions = yield* Subscriptions
      yield* lockAndRecheck(aggregate, quote)
      yield* subscriptions.insertItems([item])
      yield* subscriptions.linkReplacements(linkOf(item), at)
      yield* subscriptions.insertInvoices([{ accountId: sub.accountId, invoice: prorataInvoice(aggregate, quote, item, charge, invoiceId) }])
      yield* subscriptions.appendChange(sub.id, planChange(quote, item, charge.id, quote.today, at))
      const after = yield* findOwnSubscription(sub.id).pipe(Effect.orDie)
      yield* (yield* Outbox).append(chargeCreated(after, charge, yield* accountNumberOf(sub.accountId), at))
    })).pipe(
    // The charge carries no `externalId`, so it can never be a duplicate.
    Effect.catchTag("DUPLICATE_CHARGE", Effect.die)
  )
  // Each method's strategy has its own `settle`; `suspend` joins them into one effect.
  const settled = yield* Effect.suspend(() => prepared.settle(customerId)).pipe(
    Effect.catchTag("CardRefused", (refused: CardRefused) =>
      Effect.fail(new PaymentDeclined({ message: "Cartão recusado", details: { declinedCode: refused.error, chargeId: refused.chargeId } }))),
    Effect.catchTag("PROVIDER_UNAVAILABLE", (e: ProviderUnavailable) =>
      Effect.fail(new PaymentFailed({ message: "Não foi possível processar o pagamento", details: { reason: e.message, chargeId: draft.common.id } })))
  )
  const pix = settled.pix === undefined ? {} : { pix: settled.pix, payment: { emvQrCode: settled.pix.emv }, paymentMethod: "PIX" as const }
  const boleto = settled.boleto === undefined ? {} : { boleto: settled.boleto, paymentMethod: "BOLETO" as const }
  return {
    success: true as const,
    subscriptionId: sub.id,
    chargeId: draft.common.id,
    status: settled.status,
    amount,
    prorataAmount: amount,
    newAmount: quote.prorata.newAmount,
    itemId: item.id,
    item: { itemId: item.id, priceId: item.priceId, amount: item.unitAmount, quantity: item.quantity, status: settled.status === "paid" ? "ACTIVE" as const : "PENDING_UPGRADE" as const },
    proRataCharge: { chargeId: draft.common.id, amount, status: settled.status === "paid" ? "PAID" as const : "PENDING" as const },
    ...pix,
    ...boleto
  }
})

/** An upgrade on the cycle's last day costs nothing: the replacement takes over at once. */
const applyFreeUpgrade = Effect.fnUntraced(function*(aggregate: SubscriptionAggregate, quote: PlanChangeQuote, at: Date) {
  const item = yield* newItem(aggregate, quote, { status: "ACTIVE", chargeId: null }, at)
  const subscriptions = yield* Subscriptions
  yield* (yield* Transactor).withTransaction(Effect.gen(function*() {
    yield* lockAndRecheck(aggregate, quote)
    const replaced = item.upgradedFromItemId === null ? [] : [item.upgradedFromItemId]
    yield* subscriptions.moveItems({ itemIds: replaced }, ItemTransitions.replaced, at)
    yield* subscriptions.insertItems([item])
    yield* subscriptions.linkReplacements(linkOf(item), at)
    yield* subscriptions.replacePrimaries(replaced.map((from) => ({ subscriptionId: aggregate.subscription.id, from, to: item.id })), at)
    yield* subscriptions.appendChange(aggregate.subscription.id, planChange(quote, item, null, quote.today, at))
    const after = yield* findOwnSubscription(aggregate.subscription.id)
    yield* repriceNextCycle(after, at)
    yield* appendSubscriptionEvent(item.origin === "ADD_ON" ? "subscription.item_added" : "subscription.upgraded", after, at)
  }))
  return { success: true as const, subscriptionId: aggregate.subscription.id, chargeId: null, status: "paid" as const, amount: cents(0), prorataAmount: cents(0), newAmount: quote.prorata.newAmount, itemId: item.id }
})

/** Applies an upgrade or add-on: charged by prorata, or at once when the prorata is zero. */
const applyUpgrade = (aggregate: SubscriptionAggregate, quote: PlanChangeQuote, at: Date) => {
  const type = quote.change._tag === "Add" ? "ADD_ITEM" as const : "UPGRADE" as const
  return quote.prorata.prorataAmount === 0
    ? Effect.map(applyFreeUpgrade(aggregate, quote, at), (r) => ({ ...r, type }))
    : Effect.map(chargeUpgrade(aggregate, quote, at), (r) => ({ ...r, type }))
}

/** Applies a quote: a downgrade is scheduled, an upgrade or add-on charged. */
const applyQuote = (aggregate: SubscriptionAggregate, quote: PlanChangeQuote, at: Date) =>
  quote.type === "DOWNGRADE" ? scheduleDowngrade(aggregate, quote, at) : applyUpgrade(aggregate, quote, at)

/**
 * `PUT /v1/subscriptions/{id}/items/{itemId}` (`priceId` and/or `quantity`),
 * and `PATCH` or the provider's update with `old.itemId` and `new`.
 */
export const changeItem = Effect.fn("Subscriptions.changeItem")(function*(
  subscriptionId: SubscriptionId,
  old: { readonly itemId?: SubscriptionItemId | undefined; readonly priceId?: PriceId | undefined },
  input: { readonly priceId?: PriceId | undefined; readonly quantity?: number | undefined }
) {
  const aggregate = yield* findOwnSubscription(subscriptionId)
  if (old.itemId === undefined && old.priceId === undefined) return yield* invalid("old.itemId", "old.itemId is required")
  const quote = yield* quoteRequest(aggregate, { old, new: input }, { oldNotFound: itemNotFound, newNotFound: priceNotFound })
  return yield* applyQuote(aggregate, quote, new Date(yield* Clock.currentTimeMillis))
})

/**
 * `POST /v1/subscriptions/{id}/items`: an add-on, charged by prorata; only
 * on an `ACTIVE` or `PAST_DUE` subscription past its first cycle.
 */
export const addItem = Effect.fn("Subscriptions.addItem")(function*(subscriptionId: SubscriptionId, input: { readonly priceId: PriceId; readonly quantity?: number | undefined }) {
  const aggregate = yield* findOwnSubscription(subscriptionId)
  yield* requireChangeable(aggregate)
  if (aggregate.subscription.currentCycleNumber === 1) {
    return yield* new SubscriptionNotEligible({ message: "Itens podem ser adicionados a partir do segundo ciclo", details: { currentCycleNumber: 1 } })
  }
  // An add-on only ever raises the amount (a price of zero is refused as changing nothing).
  const quote = yield* quoteRequest(aggregate, { new: input }, { oldNotFound: itemNotFound, newNotFound: priceNotFound })
  return yield* applyUpgrade(aggregate, quote, new Date(yield* Clock.currentTimeMillis))
})

/**
 * `PATCH` with `old.itemId` alone: the item ends now (`subscription.item_removed`);
 * the next cycle bills without it. The main plan cannot be removed (change it instead).
 */
export const removeItem = Effect.fn("Subscriptions.removeItem")(function*(
  subscriptionId: SubscriptionId,
  old: NonNullable<PlanChangeRequest["old"]>
) {
  const aggregate = yield* findOwnSubscription(subscriptionId)
  yield* requireChangeable(aggregate)
  const removable = (current: SubscriptionAggregate) => {
    const named = itemNamed(current, old, itemNotFound)
    return Effect.flatMap(named, (item) => checkRemovable(current, item))
  }
  const checkRemovable = (current: SubscriptionAggregate, item: SubscriptionItem) => {
    if (item.id === current.subscription.primaryItemId) return Effect.fail(invalid("old.itemId", "the main plan cannot be removed; change it or cancel the subscription"))
    if (waitingItems(current).some((w) => w.upgradedFromItemId === item.id)) return Effect.fail(invalid("old.itemId", "a change of this item is waiting"))
    return Effect.succeed(item)
  }
  const item = yield* removable(aggregate)
  const at = new Date(yield* Clock.currentTimeMillis)
  const staying = nextCycleItems(aggregate)
  const currentAmount = yield* checkedItemsTotal(staying)
  const newAmount = yield* checkedItemsTotal(staying.filter((i) => i.id !== item.id))
  yield* (yield* Transactor).withTransaction(Effect.gen(function*() {
    const subscriptions = yield* Subscriptions
    yield* subscriptions.lock(subscriptionId)
    yield* removable(yield* findOwnSubscription(subscriptionId))
    yield* subscriptions.moveItems({ itemIds: [item.id] }, ItemTransitions.removed, at)
    yield* subscriptions.appendChange(subscriptionId, {
      kind: "PLAN",
      type: "REMOVE_ITEM",
      itemId: item.id,
      newItemId: null,
      fromPriceId: item.priceId,
      toPriceId: null,
      fromQuantity: item.quantity,
      toQuantity: null,
      currentAmount,
      newAmount,
      prorataAmount: cents(0),
      chargeId: null,
      effectiveAt: saoPauloDate(at.getTime()),
      at
    })
    const after = yield* findOwnSubscription(subscriptionId)
    yield* repriceNextCycle(after, at)
    yield* appendSubscriptionEvent("subscription.item_removed", after, at)
  }))
  return { success: true as const, type: "REMOVE_ITEM" as const, subscriptionId, itemId: item.id, newAmount }
})
