/**
 * Coupon management and the public validation (spec: Coupon, Coupons;
 * management routes from the provider's guide). Validation and discount use
 * `rules/Coupons.ts`, the same function checkout applies.
 */
import { Clock, Effect, Option, Result } from "effect"
import { authenticate, Caller } from "../auth/Authenticate.ts"
import { normalizeDocument } from "../brazil/Documents.ts"
import {
  type Coupon,
  CouponCodeAlreadyExists,
  CouponInactiveCannotReactivate,
  type CouponInput,
  CouponInUse,
  CouponNotFound,
  type CouponVerdict,
  toCouponSummary,
  toCouponView
} from "../domain/Coupon.ts"
import { invalidData as invalid } from "../domain/Errors.ts"
import { keysetPagination, pageLimit, type SearchQuery } from "../domain/Pagination.ts"
import { type Cents, parseReais } from "../money/Money.ts"
import { parsePercent } from "../money/Rounding.ts"
import { Coupons } from "../ports/Coupons.ts"
import { Ids } from "../ports/Ids.ts"
import { Accounts } from "../ports/Accounts.ts"
import { Products } from "../ports/Products.ts"
import { Transactor } from "../ports/Transactor.ts"
import { applyCoupon, type ChargeType, validateCoupon } from "../rules/Coupons.ts"
import { type AccountId, type CouponId, CouponIds } from "../domain/Ids.ts"

const CODE = /^[A-Za-z0-9_-]{3,40}$/

const reais = (field: string, value: number | string | null | undefined, fallback: Cents | null) => {
  if (value === undefined) return Effect.succeed(fallback)
  if (value === null) return Effect.succeed(null)
  const parsed = parseReais(value)
  return Result.isSuccess(parsed) && parsed.success >= 1
    ? Effect.succeed<Cents | null>(parsed.success)
    : Effect.fail(invalid(field, `${field} must be at least 0.01, a multiple of 0.01`))
}

const instant = (field: string, value: string | null | undefined, fallback: number | null) => {
  if (value === undefined) return Effect.succeed(fallback)
  if (value === null) return Effect.succeed(null)
  const ms = Date.parse(value)
  return Number.isNaN(ms) ? Effect.fail(invalid(field, `${field} must be an ISO 8601 date-time`)) : Effect.succeed<number | null>(ms)
}

/** Builds a coupon from `input` over `current` (creation when there is none), checking every rule. */
const buildCoupon = Effect.fnUntraced(function*(input: CouponInput, current: Coupon | undefined, make: { readonly id: CouponId; readonly accountId: AccountId; readonly at: Date }) {
  const code = (input.code ?? current?.code)?.trim()
  if (code === undefined || !CODE.test(code)) return yield* invalid("code", "code must be 3 to 40 letters, digits, - or _")
  const name = (input.name ?? current?.name)?.trim()
  if (!name) return yield* invalid("name", "name is required")
  const discountType = input.discountType ?? current?.discountType
  if (discountType === undefined) return yield* invalid("discountType", "discountType is required: PERCENTAGE, FIXED or EXTRA_PERIOD")
  let discountValue = current?.discountType === discountType ? current.discountValue : undefined
  if (input.discountValue !== undefined) {
    const raw = input.discountValue
    if (discountType === "PERCENTAGE") {
      discountValue = parsePercent(raw)
      if (discountValue === undefined || discountValue < 1 || discountValue > 10_000) {
        return yield* invalid("discountValue", "a percentage must be above 0 and at most 100, with at most two decimals")
      }
    } else if (discountType === "FIXED") {
      const parsed = parseReais(raw)
      if (Result.isFailure(parsed) || parsed.success < 1) return yield* invalid("discountValue", "a fixed discount must be at least 0.01, a multiple of 0.01")
      discountValue = parsed.success
    } else {
      discountValue = Number(raw)
      if (!Number.isInteger(discountValue) || discountValue < 1 || discountValue > 365) {
        return yield* invalid("discountValue", "an extra period is a whole number of periods from 1 to 365")
      }
    }
  }
  if (discountValue === undefined) return yield* invalid("discountValue", "discountValue is required")
  const extraPeriodUnit = discountType === "EXTRA_PERIOD" ? (input.extraPeriodUnit ?? current?.extraPeriodUnit ?? null) : null
  if (discountType === "EXTRA_PERIOD" && extraPeriodUnit === null) return yield* invalid("extraPeriodUnit", "extraPeriodUnit (DAYS or MONTHS) is required for EXTRA_PERIOD")
  if (discountType !== "EXTRA_PERIOD" && input.extraPeriodUnit) return yield* invalid("extraPeriodUnit", "extraPeriodUnit is only for EXTRA_PERIOD")
  const maxCycles = input.maxCycles === undefined ? (current?.maxCycles ?? null) : input.maxCycles
  if (maxCycles !== null && maxCycles < 1) return yield* invalid("maxCycles", "maxCycles must be at least 1")
  const maxRedemptions = input.maxRedemptions === undefined ? (current?.maxRedemptions ?? null) : input.maxRedemptions
  if (maxRedemptions !== null && (maxRedemptions < 1 || maxRedemptions < (current?.currentRedemptions ?? 0))) {
    return yield* invalid("maxRedemptions", "maxRedemptions must be at least 1 and not below the redemptions already made")
  }
  const validFrom = yield* instant("validFrom", input.validFrom, current?.validFrom ?? null)
  const validUntil = yield* instant("validUntil", input.validUntil, current?.validUntil ?? null)
  if (validFrom !== null && validUntil !== null && validUntil < validFrom) return yield* invalid("validUntil", "validUntil must not be before validFrom")
  const status = input.status ?? current?.status ?? "ACTIVE"
  return {
    id: current?.id ?? make.id,
    accountId: make.accountId,
    code,
    name,
    description: input.description === undefined ? (current?.description ?? null) : input.description,
    discountType,
    discountValue,
    extraPeriodUnit,
    maxCycles,
    maxRedemptions,
    currentRedemptions: current?.currentRedemptions ?? 0,
    minAmount: yield* reais("minAmount", input.minAmount, current?.minAmount ?? null),
    maxDiscount: yield* reais("maxDiscount", input.maxDiscount, current?.maxDiscount ?? null),
    validFrom,
    validUntil,
    productIds: input.productIds ?? current?.productIds ?? [],
    firstTimeOnly: input.firstTimeOnly ?? current?.firstTimeOnly ?? false,
    appliesTo: input.appliesTo === undefined ? (current?.appliesTo ?? null) : input.appliesTo,
    status,
    createdAt: current?.createdAt ?? make.at,
    updatedAt: make.at
  } satisfies Coupon
})

const findOwn = Effect.fn("Coupons.findOwn")(function*(id: CouponId) {
  const caller = yield* Caller
  const found = yield* (yield* Coupons).find(caller.account.id, id)
  if (Option.isNone(found)) return yield* new CouponNotFound({ message: `Cupom ${id} não encontrado`, details: null })
  return found.value
})

const codeTaken = (code: string) => new CouponCodeAlreadyExists({ message: `Já existe um cupom ${code}`, details: { field: "code" } })

export const createCoupon = Effect.fn("Coupons.create")(function*(input: CouponInput) {
  const caller = yield* Caller
  const at = new Date(yield* Clock.currentTimeMillis)
  const id = yield* (yield* Ids).make(CouponIds, { sandbox: caller.account.sandbox })
  const coupon = yield* buildCoupon(input, undefined, { id, accountId: caller.account.id, at })
  const transactor = yield* Transactor
  if (!(yield* transactor.withTransaction((yield* Coupons).insert(coupon)))) return yield* codeTaken(coupon.code)
  return toCouponView(coupon)
})

export const getCoupon = Effect.fn("Coupons.get")(function*(id: CouponId) {
  return toCouponView(yield* findOwn(id))
})

export const listCoupons = Effect.fn("Coupons.list")(function*(query: SearchQuery) {
  const caller = yield* Caller
  const limit = yield* pageLimit(query.limit, 50, invalid)
  if (query.status !== undefined && !["ACTIVE", "PAUSED", "INACTIVE"].includes(query.status)) {
    return yield* invalid("status", "status must be ACTIVE, PAUSED or INACTIVE")
  }
  // The cursor is opaque base64 (spec); inside, the position of the last item.
  const after = query.lastKey === undefined ? null : (() => {
    try {
      return atob(query.lastKey)
    } catch {
      return "invalid"
    }
  })()
  const page = yield* (yield* Coupons).list(caller.account.id, { limit, after, status: query.status ?? null, search: query.search?.trim() || null })
  return {
    items: page.items.map(toCouponView),
    pagination: {
      ...keysetPagination({ total: page.total, lastKey: page.lastKey === null ? null : btoa(page.lastKey) }, limit),
      totalPages: Math.ceil(page.total / limit)
    }
  }
})

export const updateCoupon = Effect.fn("Coupons.update")(function*(id: CouponId, input: CouponInput) {
  const current = yield* findOwn(id)
  if (input.status !== undefined && input.status !== "INACTIVE" && current.status === "INACTIVE") {
    return yield* new CouponInactiveCannotReactivate({ message: "Um cupom inativo não pode ser reativado", details: null })
  }
  const at = new Date(yield* Clock.currentTimeMillis)
  const coupon = yield* buildCoupon(input, current, { id, accountId: current.accountId, at })
  const transactor = yield* Transactor
  if (!(yield* transactor.withTransaction((yield* Coupons).update(coupon)))) return yield* codeTaken(coupon.code)
  return toCouponView(coupon)
})

/** `ACTIVE` and `PAUSED` switch both ways; `INACTIVE` is terminal. */
export const changeCouponStatus = Effect.fn("Coupons.changeStatus")(function*(id: CouponId, status: Coupon["status"]) {
  return yield* updateCoupon(id, { status })
})

export const deleteCoupon = Effect.fn("Coupons.delete")(function*(id: CouponId) {
  const coupon = yield* findOwn(id)
  if (coupon.currentRedemptions > 0) {
    return yield* new CouponInUse({ message: "Um cupom já utilizado não pode ser removido; inative-o", details: { currentRedemptions: coupon.currentRedemptions } })
  }
  const transactor = yield* Transactor
  yield* transactor.withTransaction((yield* Coupons).remove(coupon.accountId, id))
  return { success: true as const, message: "Cupom removido com sucesso", couponId: id }
})

/**
 * `POST /v1/coupons/validate`: public, always a verdict, never an error.
 * The code is looked up in one merchant's coupons only (see
 * `couponValidationAccount`): without a merchant it is not found, so one
 * account's coupon can never answer for another's identical code.
 */
export const validateCouponCode = Effect.fn("Coupons.validate")(function*(input: {
  readonly code?: unknown
  readonly amount?: unknown
  readonly productIds?: unknown
  readonly chargeType?: unknown
  readonly customerDocument?: unknown
}, accountId: AccountId | null) {
  const notFound = { valid: false as const, reason: "COUPON_NOT_FOUND" as const }
  if (accountId === null || typeof input.code !== "string" || input.code.trim().length === 0) return notFound
  const coupons = yield* Coupons
  const matches = yield* coupons.findByCode(accountId, input.code.trim())
  if (matches.length !== 1) return notFound
  const coupon = matches[0]!
  const amount = input.amount === undefined ? undefined : parseReais(input.amount)
  const document = typeof input.customerDocument === "string" ? normalizeDocument(input.customerDocument) : undefined
  const verdict = validateCoupon(coupon, {
    amount: amount !== undefined && Result.isSuccess(amount) ? amount.success : undefined,
    productIds: Array.isArray(input.productIds) ? input.productIds.filter((p): p is string => typeof p === "string") : undefined,
    chargeType: input.chargeType === "ONE_TIME" || input.chargeType === "RECURRING" ? (input.chargeType as ChargeType) : undefined,
    alreadyUsedByCustomer: coupon.firstTimeOnly && document !== undefined ? yield* coupons.hasRedeemed(coupon.id, document) : false
  }, yield* Clock.currentTimeMillis)
  if (!verdict.valid) return { valid: false as const, reason: verdict.reason }
  const applied = amount !== undefined && Result.isSuccess(amount) ? applyCoupon(coupon, amount.success) : undefined
  return {
    valid: true as const,
    coupon: toCouponSummary(coupon),
    ...(applied === undefined ? {} : { discountAmount: applied.discount, finalAmount: applied.amount })
  } satisfies typeof CouponVerdict.Type
})

/**
 * The merchant a public validation refers to, the first that applies: the
 * caller of a valid bearer token; the account whose number the front end
 * sends (`accountNumber` in the body or the `X-Account-Number` header; an
 * unknown number names nobody); the one account owning the `productIds`
 * sent; the one account that has a coupon with `code`. Else none: a code
 * several merchants use, with no merchant named, is nobody's, so no
 * merchant's coupon answers for another's identical code.
 */
export const couponValidationAccount = Effect.fn("Coupons.validationAccount")(function*(request: {
  readonly bearer: string | undefined
  readonly accountNumber: unknown
  readonly code: unknown
  readonly productIds: unknown
}) {
  if (request.bearer !== undefined) {
    const caller = yield* Effect.option(authenticate({ bearer: request.bearer, requiredScopes: [], subAccount: undefined }))
    if (Option.isSome(caller)) return caller.value.account.id
  }
  if (typeof request.accountNumber === "string") {
    const account = yield* (yield* Accounts).findByNumber(request.accountNumber)
    return Option.isSome(account) ? account.value.id : null
  }
  // A front end that sends only the spec's fields: price ids are ours and unique, so they name their merchant.
  const priceIds = Array.isArray(request.productIds) ? request.productIds.filter((p): p is string => typeof p === "string") : []
  if (priceIds.length > 0) {
    const owners = yield* (yield* Products).accountsOfPrices(priceIds)
    if (owners.length === 1) return owners[0]!
  }
  if (typeof request.code !== "string" || request.code.trim().length === 0) return null
  const holders = yield* (yield* Coupons).accountsWithCode(request.code.trim())
  return holders.length === 1 ? holders[0]! : null
})

/**
 * Counts a redemption of a validated coupon for a purchase (`reference`):
 * `false` when another purchase took the last one first.
 */
export const redeemCoupon = Effect.fn("Coupons.redeem")(function*(couponId: CouponId, reference: string, customerDocument: string | null) {
  const coupons = yield* Coupons
  return yield* coupons.redeem(couponId, { customerDocument, reference, at: new Date(yield* Clock.currentTimeMillis) })
})
