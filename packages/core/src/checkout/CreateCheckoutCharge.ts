/**
 * `POST /v1/charges`: the transparent checkout of one-time payments by Pix or
 * card, from an `amount`, one-time `items` or a `productId`, with discounts,
 * coupon, split (Pix), installments (card) and `externalId` idempotency.
 */
import { Clock, Effect, Option, Result } from "effect"
import { Caller } from "../auth/Authenticate.ts"
import { endOfSaoPauloDay, saoPauloDate } from "../brazil/BankCalendar.ts"
import { addDays, toDayNumber } from "../brazil/CalendarDate.ts"
import { cardBrand, parseCardExpiration } from "../brazil/Cards.ts"
import { isUf, normalizeCep, normalizePhoneE164 } from "../brazil/Contacts.ts"
import { cityCodeOfCep } from "../brazil/CityCodes.ts"
import { documentKind, normalizeDocument } from "../brazil/Documents.ts"
import { qrPngDataUrl } from "../brazil/QrPng.ts"
import { DEFAULT_PIX_LIFETIME_MILLIS, feeSchedule, newTxid, ProviderUnavailable, splitParts } from "../charges/CreatePixCharge.ts"
import {
  CardRefused,
  type Charge,
  type ChargeAddress,
  type ChargeCard,
  DuplicateCharge,
  MissingCardData,
  PixAutomaticoPjOnly,
  PriceNotFound
} from "../domain/Charge.ts"
import { InvalidData } from "../domain/Errors.ts"
import { paymentSuccessBody } from "../events/ChargeEvents.ts"
import { type Cents, cents, parseReais } from "../money/Money.ts"
import { parsePercent } from "../money/Rounding.ts"
import { Acquirer, type CardData } from "../ports/Acquirer.ts"
import { BoletoIssuer } from "../ports/BoletoIssuer.ts"
import { Charges } from "../ports/Charges.ts"
import { Coupons } from "../ports/Coupons.ts"
import { Customers } from "../ports/Customers.ts"
import { Ids } from "../ports/Ids.ts"
import { PaymentMethods } from "../ports/PaymentMethods.ts"
import { type NotificationKind, NotificationKinds } from "../ports/Notifications.ts"
import { PixProvider } from "../ports/PixProvider.ts"
import { Products } from "../ports/Products.ts"
import { Outbox, Transactor } from "../ports/Storage.ts"
import { couponDiscount, validateCoupon } from "../rules/Coupons.ts"
import { applyDiscounts, type ChargeDiscount } from "../rules/Discounts.ts"
import { computeFees } from "../rules/Fees.ts"
import { ChargeTransitions } from "../rules/ChargeTransitions.ts"
import { planInstallments } from "../rules/Installments.ts"
import { enqueueChargeNotifications } from "./ChargeNotifications.ts"
import type { CheckoutRequest } from "./CheckoutRequest.ts"

const invalid = (field: string, message: string, extra: Record<string, unknown> = {}) =>
  new InvalidData({ message, details: { field, ...extra } })
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** The base amount of the purchase from `amount`, one-time `items` or `productId`, and the price ids bought. */
const baseAmount = Effect.fnUntraced(function*(request: CheckoutRequest, accountId: string) {
  const sources = [request.amount, request.items, request.productId].filter((s) => s !== undefined)
  if (sources.length !== 1) return yield* invalid("amount", "send amount, items or productId: exactly one of them")
  if (request.amount !== undefined) return { amount: request.amount, priceIds: undefined }
  const products = yield* Products
  const recurring = () => invalid("items", "recurring prices start subscriptions, which this engine does not offer yet")
  if (request.productId !== undefined) {
    const product = yield* products.find(accountId, request.productId)
    const price = Option.isSome(product) && product.value.status === "active"
      ? product.value.prices.find((p) => p.isActive && p.recurrenceType === "ONE_TIME")
      : undefined
    if (Option.isSome(product) && product.value.type === "RECURRING") return yield* recurring()
    if (price === undefined) return yield* new PriceNotFound({ message: `O produto ${request.productId} não tem preço avulso ativo`, details: { productId: request.productId } })
    return { amount: price.amount, priceIds: [price.id] }
  }
  let total = 0
  const priceIds: Array<string> = []
  for (const [i, item] of request.items!.entries()) {
    const quantity = item.quantity ?? 1
    if (quantity < 1 || quantity > 999) return yield* invalid(`items[${i}].quantity`, "quantity must be 1 to 999")
    const product = yield* products.findByPrice(accountId, item.priceId)
    const price = Option.isSome(product) ? product.value.prices.find((p) => p.id === item.priceId) : undefined
    if (Option.isNone(product) || price === undefined || !price.isActive || product.value.status !== "active") {
      return yield* new PriceNotFound({ message: `Preço ${item.priceId} não encontrado`, details: { priceId: item.priceId } })
    }
    if (price.recurrenceType !== "ONE_TIME") return yield* recurring()
    total += price.amount * quantity
    priceIds.push(price.id)
  }
  if (request.items!.length === 0) return yield* invalid("items", "items must not be empty")
  if (!Number.isSafeInteger(total)) return yield* invalid("items", "the total is too large")
  return { amount: cents(total), priceIds }
})

const parseDiscounts = Effect.fnUntraced(function*(discounts: NonNullable<CheckoutRequest["discounts"]>) {
  const parsed: Array<ChargeDiscount> = []
  for (const [i, d] of discounts.entries()) {
    const field = `discounts[${i}]`
    const type = d.type.toLowerCase()
    const raw = d.value ?? d.amount
    if (raw === undefined) return yield* invalid(`${field}.value`, "value or amount is required")
    let value: number
    if (type === "percentage") {
      const percent = parsePercent(raw)
      if (percent === undefined || percent > 10_000) return yield* invalid(`${field}.value`, "a percentage is 0 to 100, with at most two decimals")
      value = percent
    } else if (type === "fixed") {
      const amount = parseReais(raw)
      if (Result.isFailure(amount)) return yield* invalid(`${field}.value`, amount.failure.message)
      value = amount.success
    } else {
      return yield* invalid(`${field}.type`, "type must be percentage or fixed")
    }
    parsed.push({
      type,
      value,
      paymentMethod: d.paymentMethod ?? d.method,
      fromCycle: d.fromCycle,
      toCycle: d.toCycle,
      durationMonths: d.durationMonths
    })
  }
  return parsed
})

/** The card to charge: typed, tokenized (`pm_`) or an acquirer token; `MISSING_CARD_DATA` when none. */
const cardSource = Effect.fnUntraced(function*(request: CheckoutRequest, accountId: string, today: string) {
  if (request.card !== undefined) {
    const card: CardData = { ...request.card, number: request.card.number.replace(/[\s-]/g, "") }
    if (!/^\d{13,19}$/.test(card.number)) return yield* invalid("card.number", "card.number must have 13 to 19 digits")
    if (!/^\d{3,4}$/.test(card.cvv)) return yield* invalid("card.cvv", "card.cvv must have 3 or 4 digits")
    if (card.name.trim().length === 0) return yield* invalid("card.name", "card.name is required")
    if (parseCardExpiration(card.expiration, today) === undefined) return yield* invalid("card.expiration", "card.expiration must be MM/YYYY, not in the past")
    return {
      payment: { _tag: "Card" as const, card },
      brand: cardBrand(card.number),
      firstSix: card.number.slice(0, 6),
      lastFour: card.number.slice(-4)
    }
  }
  if (request.paymentMethodId !== undefined) {
    const method = yield* (yield* PaymentMethods).find(accountId, request.paymentMethodId)
    if (Option.isNone(method)) return yield* invalid("paymentMethodId", `paymentMethodId ${request.paymentMethodId} is not a card of this account`)
    return { payment: { _tag: "Token" as const, token: method.value.acquirerToken }, brand: method.value.brand, firstSix: method.value.firstSix, lastFour: method.value.lastFour }
  }
  if (request.tokenId !== undefined) {
    return { payment: { _tag: "Token" as const, token: request.tokenId }, brand: "unknown", firstSix: "", lastFour: "" }
  }
  return yield* new MissingCardData({ message: "Envie card, tokenId ou paymentMethodId", details: null })
})

/** The buyer's address, complete as a boleto requires it. */
const completeAddress = Effect.fnUntraced(function*(address: CheckoutRequest["customer"]["address"]) {
  if (address === undefined) return yield* invalid("customer.address", "customer.address is required for boleto")
  for (const field of ["street", "number", "neighborhood", "city", "state"] as const) {
    if (!address[field]?.trim()) return yield* invalid(`customer.address.${field}`, `customer.address.${field} is required for boleto`)
  }
  const zipCode = normalizeCep(address.zipCode)
  if (zipCode === undefined) return yield* invalid("customer.address.zipCode", "customer.address.zipCode must have 8 digits")
  if (!isUf(address.state!)) return yield* invalid("customer.address.state", "customer.address.state must be a UF, e.g. SP")
  return {
    street: address.street!.trim(),
    number: address.number!.trim(),
    complement: address.complement ?? null,
    neighborhood: address.neighborhood!.trim(),
    city: address.city!.trim(),
    state: address.state!.toUpperCase(),
    zipCode,
    cityCode: address.cityCode ?? cityCodeOfCep(zipCode) ?? null
  } satisfies ChargeAddress
})

/** Days a boleto is payable for when neither `dueDate` nor `boletoDueDays` is sent (the provider's default). */
export const DEFAULT_BOLETO_DUE_DAYS = 30

export const createCheckoutCharge = Effect.fn("Checkout.create")(function*(request: CheckoutRequest) {
  const caller = yield* Caller
  const owner = caller.account
  if (request.paymentMethod === "pix_automatico") {
    if (owner.personType === "PF") return yield* new PixAutomaticoPjOnly({ message: "Pix Automático é exclusivo para contas PJ", details: null })
    return yield* invalid("paymentMethod", "pix_automatico needs recurring items, and subscriptions are not available yet")
  }
  const isCard = request.paymentMethod === "creditcard"
  if (isCard && request.split !== undefined && request.split.length > 0) return yield* invalid("split", "split is supported only for pix and boleto")
  if (!isCard && (request.installments !== undefined || request.card !== undefined)) {
    return yield* invalid(request.installments !== undefined ? "installments" : "card", "installments and card are for creditcard only")
  }
  for (const field of ["externalId", "externalTxid"] as const) {
    if ((request[field]?.length ?? 0) > 100) return yield* invalid(field, `${field} has at most 100 characters`)
  }

  const known: ReadonlySet<string> = new Set(NotificationKinds)
  const unknown = (request.notifications ?? []).filter((n) => !known.has(n))
  if (unknown.length > 0) return yield* invalid("notifications", `unknown notifications: ${unknown.join(", ")}`)
  // Without the field no e-mail is sent (an avulsa charge's default; products carry no notification setting yet).
  const notifications = request.notifications === undefined ? null : (request.notifications as ReadonlyArray<NotificationKind>)

  // The buyer: matched by document, created when new.
  const document = normalizeDocument(request.customer.documentNumber)
  if (!/^\d+$/.test(document) || documentKind(document) === undefined) return yield* invalid("customer.documentNumber", "customer.documentNumber must be a valid CPF or CNPJ")
  if (request.customer.name.trim().length === 0) return yield* invalid("customer.name", "customer.name is required")
  if (!EMAIL.test(request.customer.email)) return yield* invalid("customer.email", "customer.email must be an e-mail address")
  const phone = request.customer.phone === undefined ? null : normalizePhoneE164(request.customer.phone) ?? null
  if (request.customer.phone !== undefined && phone === null) return yield* invalid("customer.phone", "customer.phone must be E.164, e.g. +5511999999999")
  if (request.nfConfigId !== undefined && request.customer.address === undefined) {
    return yield* invalid("customer.address", "customer.address is required with nfConfigId")
  }

  // What the buyer pays: base, discounts, then the coupon.
  const base = yield* baseAmount(request, owner.id)
  const discounts = request.discounts === undefined ? [] : yield* parseDiscounts(request.discounts)
  let amount = applyDiscounts(base.amount, discounts, { cycle: 1, paymentMethod: request.paymentMethod }).amount
  const coupons = yield* Coupons
  let couponId: string | undefined
  if (request.couponCode !== undefined) {
    const [coupon] = yield* coupons.findByCode(owner.id, request.couponCode)
    const verdict = validateCoupon(coupon, {
      amount,
      productIds: base.priceIds,
      chargeType: "ONE_TIME",
      alreadyUsedByCustomer: coupon?.firstTimeOnly ? yield* coupons.hasRedeemed(coupon.id, document) : false
    }, yield* Clock.currentTimeMillis)
    if (!verdict.valid) return yield* invalid("couponCode", `coupon refused: ${verdict.reason}`, { reason: verdict.reason })
    amount = cents(amount - couponDiscount(coupon!, amount))
    couponId = coupon!.id
  }

  const now = yield* Clock.currentTimeMillis
  const at = new Date(now)
  const ids = yield* Ids
  const customers = yield* Customers
  const newCustomer = {
    id: yield* ids.make("cus", { sandbox: owner.sandbox }),
    accountId: owner.id,
    name: request.customer.name.trim(),
    document,
    email: request.customer.email,
    phone,
    status: "ACTIVE" as const,
    address: null,
    deletedAt: null,
    createdAt: at,
    updatedAt: at
  }

  const id = yield* ids.make("cha", { sandbox: owner.sandbox })
  const charges = yield* Charges
  const transactor = yield* Transactor
  // Fields every method's charge shares.
  const common = {
    id,
    accountId: owner.id,
    masterAccountId: caller.master.id,
    externalTxid: request.externalTxid ?? null,
    description: request.description ?? null,
    // `metadata` is accepted and not stored on this route (spec: General rule 10).
    metadata: null,
    endToEndId: null,
    payer: null,
    canceledAt: null,
    archivedAt: null,
    attempts: 0,
    externalId: request.externalId ?? null,
    failureReason: null,
    boleto: null,
    address: null,
    notifications,
    createdAt: at,
    updatedAt: at
  }
  /**
   * Records the command in one transaction: the customer (created or matched
   * by document), the charge under its idempotency key, the coupon use and
   * the first e-mails. Answers the customer's id.
   */
  const reserve = (pending: Omit<Charge, "customerId" | "customer">, kinds: ReadonlyArray<NotificationKind> = []) =>
    transactor.withTransaction(Effect.gen(function*() {
      const { customer } = yield* customers.insertIfAbsent(newCustomer)
      const charge: Charge = {
        ...pending,
        customerId: customer.id,
        customer: { documentNumber: document, name: customer.name, email: customer.email, phone: customer.phone, cep: null }
      }
      const result = yield* charges.insertUnlessDuplicate(charge)
      if (!result.inserted) {
        return yield* new DuplicateCharge({ message: `Já existe uma cobrança com externalId ${request.externalId}`, details: { chargeId: result.existingId } })
      }
      if (couponId !== undefined && !(yield* coupons.redeem(couponId, { customerDocument: document, reference: charge.id, at }))) {
        return yield* invalid("couponCode", "coupon refused: COUPON_EXHAUSTED", { reason: "COUPON_EXHAUSTED" })
      }
      yield* enqueueChargeNotifications(charge, kinds)
      return customer.id
    }))

  if (request.paymentMethod === "boleto") {
    const address = yield* completeAddress(request.customer.address)
    const today = saoPauloDate(now)
    let dueDate: string
    if (request.dueDate !== undefined) {
      if (toDayNumber(request.dueDate) === undefined || request.dueDate <= today) return yield* invalid("dueDate", "dueDate must be a date YYYY-MM-DD after today")
      dueDate = request.dueDate
    } else {
      const days = request.boletoDueDays ?? DEFAULT_BOLETO_DUE_DAYS
      if (days < 1 || days > 365) return yield* invalid("boletoDueDays", "boletoDueDays must be 1 to 365")
      dueDate = addDays(today, days)
    }
    const grace = request.expirationAfterDueDate ?? 0
    if (grace < 0 || grace > 60) return yield* invalid("expirationAfterDueDate", "expirationAfterDueDate must be 0 to 60")
    const schedule = yield* feeSchedule(owner, "boleto")
    const fees = computeFees(amount, schedule)
    const split = request.split !== undefined && request.split.length > 0
      ? yield* splitParts(request.split.map((s) => ({ ...s, accountNumber: s.accountNumber ?? s.publicId })), fees.net, owner, caller.master)
      : null
    const issued = yield* (yield* BoletoIssuer).issue({ receiver: owner, reference: id, amount, dueDate }).pipe(
      Effect.mapError((e) => new ProviderUnavailable({ message: "Emissor de boleto indisponível", details: { reason: e.message } }))
    )
    const customerId = yield* reserve({
      ...common,
      paymentType: "BOLETO",
      status: "PENDING",
      amount,
      fee: fees.fees.total,
      feeFixed: fees.fees.fixed,
      feePercentHundredths: schedule.percentHundredths,
      net: fees.net,
      txid: issued.ourNumber,
      emv: null,
      split,
      dueDate,
      expiresAt: endOfSaoPauloDay(addDays(dueDate, grace)),
      paidAt: null,
      card: null,
      boleto: { ...issued, dueDate, instructions: request.boletoInstructions ?? null },
      address
    })
    return {
      success: true as const,
      customerId,
      chargeId: id,
      status: "pending" as const,
      boleto: { digitableLine: issued.digitableLine, barCode: issued.barcode, pdfPath: `/v1/charges/${id}/boleto.pdf`, dueDate }
    }
  }

  if (!isCard) {
    const pixSchedule = yield* feeSchedule(owner, "pix")
    const fees = computeFees(amount, pixSchedule)
    const split = request.split !== undefined && request.split.length > 0
      ? yield* splitParts(request.split.map((s) => ({ ...s, accountNumber: s.accountNumber ?? s.publicId })), fees.net, owner, caller.master)
      : null
    // `expiration` (a date, today or later) makes it a Pix with due date, as on `POST /v1/charges/pix`.
    let pixDueDate: string | null = null
    if (request.expiration !== undefined) {
      if (toDayNumber(request.expiration) === undefined || request.expiration < saoPauloDate(now)) {
        return yield* invalid("expiration", "expiration must be a date YYYY-MM-DD, not in the past")
      }
      pixDueDate = request.expiration
    }
    const txid = yield* newTxid
    const expiresAt = pixDueDate === null ? new Date(now + DEFAULT_PIX_LIFETIME_MILLIS) : endOfSaoPauloDay(pixDueDate)
    const { emv } = yield* (yield* PixProvider).createCharge({ receiver: owner, txid, amount, expiresAt, dueDate: pixDueDate, description: request.description ?? null }).pipe(
      Effect.mapError((e) => new ProviderUnavailable({ message: "Provedor Pix indisponível", details: { reason: e.message } }))
    )
    const customerId = yield* reserve({
      ...common,
      paymentType: "PIX",
      status: "PENDING",
      amount,
      fee: fees.fees.total,
      feeFixed: fees.fees.fixed,
      feePercentHundredths: pixSchedule.percentHundredths,
      net: fees.net,
      txid,
      emv,
      split,
      dueDate: pixDueDate,
      expiresAt,
      paidAt: null,
      card: null
    }, ["oneoff.pix.generated"])
    return { success: true as const, customerId, chargeId: id, status: "pending" as const, pix: { emv, qrCode: qrPngDataUrl(emv) } }
  }

  // Card: reserve first, so a repeated externalId never reaches the acquirer twice.
  const source = yield* cardSource(request, owner.id, saoPauloDate(now))
  const plan = yield* Effect.fromResult(planInstallments({
    amount,
    installments: request.installments ?? 1,
    freeInstallments: request.freeInstallments,
    passFeesToCustomer: request.passFeesToCustomer
  }))
  const schedule = yield* feeSchedule(owner, "creditcard")
  const fees = computeFees(plan.total, schedule)
  const card: ChargeCard = { brand: source.brand, firstSix: source.firstSix, lastFour: source.lastFour, installments: plan.installments }
  const customerId = yield* reserve({
    ...common,
    paymentType: "CREDIT_CARD",
    status: "PROCESSING",
    amount: plan.total as Cents,
    fee: fees.fees.total,
    feeFixed: fees.fees.fixed,
    feePercentHundredths: schedule.percentHundredths,
    net: fees.net,
    txid: id,
    emv: null,
    split: null,
    dueDate: null,
    expiresAt: at,
    paidAt: null,
    card
  })
  const authorization = yield* (yield* Acquirer).authorize({ payment: source.payment, amount: plan.total, installments: plan.installments, reference: id }).pipe(
    Effect.result
  )
  const outbox = yield* Outbox
  const done = new Date(yield* Clock.currentTimeMillis)
  if (authorization._tag === "Failure") {
    // No answer from the acquirer: nothing was authorized; the attempt is kept as failed and the client may retry.
    yield* transactor.withTransaction(Effect.gen(function*() {
      yield* charges.transition(id, ChargeTransitions.cardFailed, { failureReason: "acquirer_unavailable" }, done)
      if (couponId !== undefined) yield* coupons.release(couponId, id)
    }))
    return yield* new ProviderUnavailable({ message: "Adquirente indisponível", details: { chargeId: id } })
  }
  if (authorization.success._tag === "Approved") {
    yield* transactor.withTransaction(Effect.gen(function*() {
      const paid = yield* charges.transition(id, ChargeTransitions.cardApproved, { paidAt: done }, done)
      if (Option.isSome(paid)) {
        yield* outbox.append({ accountId: owner.id, event: "payment.success", body: paymentSuccessBody(paid.value, done) })
        yield* enqueueChargeNotifications(paid.value, ["oneoff.payment.success", "new.sale"])
      }
    }))
    return { success: true as const, customerId, chargeId: id, status: "paid" as const }
  }
  const declined = authorization.success
  yield* transactor.withTransaction(Effect.gen(function*() {
    const failed = yield* charges.transition(id, ChargeTransitions.cardFailed, { failureReason: declined.code }, done)
    if (Option.isSome(failed)) yield* enqueueChargeNotifications(failed.value, ["oneoff.payment.failed"])
    if (couponId !== undefined) yield* coupons.release(couponId, id)
  }))
  return yield* new CardRefused({ chargeId: id, error: declined.code })
})

/** `POST /v1/payment-methods`: tokenizes a card for later charges; only what may be kept is stored. */
export const tokenizeCard = Effect.fn("Checkout.tokenizeCard")(function*(input: { readonly card: CardData }) {
  const caller = yield* Caller
  const now = yield* Clock.currentTimeMillis
  const number = input.card.number.replace(/[\s-]/g, "")
  if (!/^\d{13,19}$/.test(number)) return yield* invalid("card.number", "card.number must have 13 to 19 digits")
  if (!/^\d{3,4}$/.test(input.card.cvv)) return yield* invalid("card.cvv", "card.cvv must have 3 or 4 digits")
  if (input.card.name.trim().length === 0) return yield* invalid("card.name", "card.name is required")
  const expiry = parseCardExpiration(input.card.expiration, saoPauloDate(now))
  if (expiry === undefined) return yield* invalid("card.expiration", "card.expiration must be MM/YYYY, not in the past")
  const { token, brand } = yield* (yield* Acquirer).tokenize({ ...input.card, number }).pipe(
    Effect.mapError((e) => new ProviderUnavailable({ message: "Adquirente indisponível", details: { reason: e.message } }))
  )
  const id = yield* (yield* Ids).make("pm", { sandbox: caller.account.sandbox })
  const method = {
    id,
    accountId: caller.account.id,
    acquirerToken: token,
    brand,
    firstSix: number.slice(0, 6),
    lastFour: number.slice(-4),
    expMonth: expiry.month,
    expYear: expiry.year,
    holderName: input.card.name.trim(),
    createdAt: new Date(now)
  }
  yield* (yield* Transactor).withTransaction((yield* PaymentMethods).insert(method))
  return { paymentMethodId: id, brand, firstSix: method.firstSix, lastFour: method.lastFour, expiration: input.card.expiration }
})
