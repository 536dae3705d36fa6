/**
 * Stage 2 of `POST /v1/charges`: what the buyer pays. What is bought (from
 * `amount`, `items` or a `productId`), the `discounts[]`, then the
 * coupon; and, per payment method, the fees and the split of the net. Every
 * sum, share and rounding is a function of `rules/`; this module reads the
 * catalog and the coupon and reports the request's fields.
 */
import { Clock, Effect, Option, Result } from "effect"
import { feeSchedule, splitParts } from "../charges/CreatePixCharge.ts"
import type { Account } from "../domain/Account.ts"
import { type Charge, PriceNotFound } from "../domain/Charge.ts"
import type { Price, Product } from "../domain/Product.ts"
import { invalidData as invalid, InvalidData } from "../domain/Errors.ts"
import { type Cents, parseReais } from "../money/Money.ts"
import { parsePercent } from "../money/Rounding.ts"
import { Coupons } from "../ports/Coupons.ts"
import { Products } from "../ports/Products.ts"
import { applyCoupon, type CouponRefusal, validateCoupon } from "../rules/Coupons.ts"
import { applyDiscounts, type ChargeDiscount } from "../rules/Discounts.ts"
import { computeFees } from "../rules/Fees.ts"
import { type ItemLine, itemsTotal } from "../rules/Items.ts"
import type { SplitMode } from "../rules/Split.ts"
import type { CheckoutRequest } from "./CheckoutRequest.ts"
import type { CheckoutOrder } from "./ParseCheckout.ts"
import type { AccountId, CouponId } from "../domain/Ids.ts"

/** What the buyer pays before the method's fees and installments. */
export interface CheckoutPrice {
  readonly amount: Cents
  /** Price ids bought, for the coupon's eligibility; undefined for an `amount`. */
  readonly priceIds: ReadonlyArray<string> | undefined
  /** The coupon the reserve redeems, when one was sent and is valid. */
  readonly couponId: CouponId | undefined
}

/** `INVALID_DATA` on `couponCode` with the coupon rule's reason in `details.reason`. */
export const couponRefused = (reason: CouponRefusal) =>
  new InvalidData({ message: `coupon refused: ${reason}`, details: { field: "couponCode", reason } })

/** A price bought, with its product, in some quantity. */
export interface PurchaseLine {
  readonly price: Price
  readonly product: Product
  readonly quantity: number
  readonly isOrderBump: boolean
}

/** What a checkout buys: a bare `amount`, or priced lines (from `items` or a `productId`). */
export type Purchase =
  | { readonly _tag: "Amount"; readonly amount: Cents }
  | { readonly _tag: "Lines"; readonly lines: ReadonlyArray<PurchaseLine> }

/** Whether a purchase starts a subscription: it buys a recurring price. */
export const isRecurring = (purchase: Purchase): purchase is Extract<Purchase, { _tag: "Lines" }> =>
  purchase._tag === "Lines" && purchase.lines.some((line) => line.price.recurrenceType !== "ONE_TIME")

const priceNotFound = (priceId: string) => new PriceNotFound({ message: `Preço ${priceId} não encontrado`, details: { priceId } })

/**
 * Reads what the request buys from the catalog: `amount`, each of `items`
 * (active prices of active products, quantity 1 to 999), or a `productId`
 * (its one-time price, or for a recurring product its first recurring one).
 */
export const resolvePurchase = Effect.fn("Checkout.resolvePurchase")(function*(
  request: Pick<CheckoutRequest, "amount" | "items" | "productId">,
  accountId: AccountId
) {
  const sources = [request.amount, request.items, request.productId].filter((s) => s !== undefined)
  if (sources.length !== 1) return yield* invalid("amount", "send amount, items or productId: exactly one of them")
  if (request.amount !== undefined) return { _tag: "Amount", amount: request.amount } satisfies Purchase
  const products = yield* Products
  if (request.productId !== undefined) {
    const product = yield* products.find(accountId, request.productId)
    const wanted = Option.isSome(product) && product.value.type === "RECURRING" ? "recurring" : "one-time"
    const price = Option.isSome(product) && product.value.status === "active"
      ? product.value.prices.find((p) => p.isActive && (p.recurrenceType === "ONE_TIME") === (wanted === "one-time"))
      : undefined
    if (Option.isNone(product) || price === undefined) {
      return yield* new PriceNotFound({ message: `O produto ${request.productId} não tem preço ativo`, details: { productId: request.productId } })
    }
    return { _tag: "Lines", lines: [{ price, product: product.value, quantity: 1, isOrderBump: false }] } satisfies Purchase
  }
  const lines: Array<PurchaseLine> = []
  for (const [i, item] of request.items!.entries()) {
    const quantity = item.quantity ?? 1
    if (quantity < 1 || quantity > 999) return yield* invalid(`items[${i}].quantity`, "quantity must be 1 to 999")
    const product = yield* products.findByPrice(accountId, item.priceId)
    const price = Option.isSome(product) ? product.value.prices.find((p) => p.id === item.priceId) : undefined
    if (Option.isNone(product) || price === undefined || !price.isActive || product.value.status !== "active") {
      return yield* priceNotFound(item.priceId)
    }
    lines.push({ price, product: product.value, quantity, isOrderBump: item.isOrderBump ?? false })
  }
  if (lines.length === 0) return yield* invalid("items", "items must not be empty")
  return { _tag: "Lines", lines } satisfies Purchase
})

/** Σ unit amount × quantity (`rules/Items.itemsTotal`); refused when beyond what centavos can hold exactly. */
export const checkedItemsTotal = (lines: ReadonlyArray<ItemLine>) => {
  const total = itemsTotal(lines)
  return total === undefined ? Effect.fail(invalid("items", "the total is too large")) : Effect.succeed(total)
}

/** The total of bought prices, as `checkedItemsTotal`. */
export const linesTotal = (lines: ReadonlyArray<PurchaseLine>) =>
  checkedItemsTotal(lines.map((line): ItemLine => ({ unitAmount: line.price.amount, quantity: line.quantity })))

/** `discounts[]` as the rules take them: percentages in hundredths, fixed amounts in centavos. */
export const parseDiscounts = (discounts: NonNullable<CheckoutRequest["discounts"]>): Result.Result<Array<ChargeDiscount>, InvalidData> => {
  const parsed: Array<ChargeDiscount> = []
  for (const [i, d] of discounts.entries()) {
    const field = `discounts[${i}].value`
    const type = d.type.toLowerCase()
    const raw = d.value ?? d.amount
    if (raw === undefined) return Result.fail(invalid(field, "value or amount is required"))
    let value: number
    if (type === "percentage") {
      const percent = parsePercent(raw)
      if (percent === undefined || percent > 10_000) return Result.fail(invalid(field, "a percentage is 0 to 100, with at most two decimals"))
      value = percent
    } else if (type === "fixed") {
      const amount = parseReais(raw)
      if (Result.isFailure(amount)) return Result.fail(invalid(field, amount.failure.message))
      value = amount.success
    } else {
      return Result.fail(invalid(`discounts[${i}].type`, "type must be percentage or fixed"))
    }
    parsed.push({ type, value, paymentMethod: d.paymentMethod ?? d.method, fromCycle: d.fromCycle, toCycle: d.toCycle, durationMonths: d.durationMonths })
  }
  return Result.succeed(parsed)
}

/** The coupon `code` of the account, valid for this purchase and buyer; refused with its reason otherwise. */
export const validCoupon = Effect.fnUntraced(function*(code: string, purchase: {
  readonly accountId: AccountId
  readonly amount: Cents
  readonly priceIds: ReadonlyArray<string> | undefined
  /** The buyer's, for first-time-only coupons. */
  readonly document: string
  readonly chargeType: "ONE_TIME" | "RECURRING"
}) {
  const coupons = yield* Coupons
  const [coupon] = yield* coupons.findByCode(purchase.accountId, code)
  const verdict = validateCoupon(coupon, {
    amount: purchase.amount,
    productIds: purchase.priceIds,
    chargeType: purchase.chargeType,
    alreadyUsedByCustomer: coupon?.firstTimeOnly ? yield* coupons.hasRedeemed(coupon.id, purchase.document) : false
  }, yield* Clock.currentTimeMillis)
  if (!verdict.valid) return yield* couponRefused(verdict.reason)
  return coupon!
})

/**
 * Prices `order` on `accountId`'s catalog: base amount, then the discounts
 * that apply to its method (on the base, not compounded), then the coupon on
 * what is left. A refused price, discount or coupon is reported here, before
 * any field of the payment method.
 */
export const priceCheckout = Effect.fn("Checkout.price")(function*(order: CheckoutOrder, purchase: Purchase, accountId: AccountId) {
  const { request } = order
  const base = purchase._tag === "Amount"
    ? { amount: purchase.amount, priceIds: undefined }
    : { amount: yield* linesTotal(purchase.lines), priceIds: purchase.lines.map((line) => line.price.id) }
  const discounts = request.discounts === undefined ? [] : yield* Effect.fromResult(parseDiscounts(request.discounts))
  const discounted = applyDiscounts(base.amount, discounts, { cycle: 1, paymentMethod: order.paymentMethod }).amount
  if (request.couponCode === undefined) return { amount: discounted, priceIds: base.priceIds, couponId: undefined } satisfies CheckoutPrice
  const coupon = yield* validCoupon(request.couponCode, { accountId, amount: discounted, priceIds: base.priceIds, document: order.buyer.document, chargeType: "ONE_TIME" })
  return { amount: applyCoupon(coupon, discounted).amount, priceIds: base.priceIds, couponId: coupon.id } satisfies CheckoutPrice
})

/** The money fields of a charge of `gross` by `method`: fees of the owner's schedule, and the split of the net. */
export type ChargeMoney = Pick<Charge, "amount" | "fee" | "feeFixed" | "feePercentHundredths" | "net" | "split">

/**
 * The fees of `method` on `gross` under the owner's schedule (its own, else
 * its master's) and the split of the net among the receivers asked for
 * (`publicId` is an alias of `accountNumber`), a net they do not fit refused
 * or fitted as `splitMode` says.
 */
export const feesAndSplit = Effect.fn("Checkout.feesAndSplit")(function*(
  method: string,
  gross: Cents,
  split: CheckoutRequest["split"],
  accounts: { readonly owner: Account; readonly master: Account },
  splitMode: SplitMode = "refuse"
) {
  const schedule = yield* feeSchedule(accounts.owner, method)
  const fees = computeFees(gross, schedule)
  const receivers = split?.map((s) => ({ ...s, accountNumber: s.accountNumber ?? s.publicId }))
  const parts = receivers !== undefined && receivers.length > 0
    ? yield* splitParts(receivers, fees.net, accounts.owner, accounts.master, splitMode)
    : null
  return {
    amount: gross,
    fee: fees.fees.total,
    feeFixed: fees.fees.fixed,
    feePercentHundredths: schedule.percentHundredths,
    net: fees.net,
    split: parts
  } satisfies ChargeMoney
})
