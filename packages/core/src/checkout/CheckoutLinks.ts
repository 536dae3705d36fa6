/**
 * Hosted checkouts (spec: Checkout links and sessions; shapes from the
 * provider's collection): reusable links and single-use sessions. They are
 * records with a `url`, whose hosted page (`HostedCheckout.ts`) honours a
 * link's page settings (`CheckoutLinkSettings`), checked here.
 */
import { Clock, Effect, Option, Schema, Struct } from "effect"
import { Caller } from "../auth/Authenticate.ts"
import { PriceNotFound } from "../domain/Charge.ts"
import {
  type CheckoutLink,
  type CheckoutLinkInput,
  CheckoutNotFound,
  type CheckoutSessionInput,
  linkSettingsOf,
  maxInstallmentsOf,
  SessionNotFound,
  toCheckoutLinkView
} from "../domain/CheckoutLink.ts"
import { InvalidData, invalidData } from "../domain/Errors.ts"
import { type KeysetQuery, keysetPagination, pageLimit } from "../domain/Pagination.ts"
import { ProductNotFound } from "../domain/Product.ts"
import { CheckoutLinks } from "../ports/CheckoutLinks.ts"
import { Ids } from "../ports/Ids.ts"
import { Products } from "../ports/Products.ts"
import { Transactor } from "../ports/Transactor.ts"
import { CheckoutRequest } from "./CheckoutRequest.ts"
import { MERCHANT_TERMS } from "./PayCheckout.ts"
import { type AccountId, CheckoutLinkId, CheckoutLinkIds, CheckoutSessionId, CheckoutSessionIds, type PriceId } from "../domain/Ids.ts"

const ALL_METHODS = ["pix", "creditcard", "boleto"] as const

const settingsOf = (input: Record<string, unknown>, known: ReadonlyArray<string>) =>
  Object.fromEntries(Object.entries(input).filter(([key]) => !known.includes(key)))

/** The checkout terms a link or session keeps for its payments, decoded as the checkout decodes them. */
const decodeTerms = Schema.decodeUnknownEffect(CheckoutRequest.mapFields(Struct.pick(MERCHANT_TERMS)))

/**
 * The settings of a link or session, refused now when a term its payment
 * would take is out of bounds (`expirationAfterDueDate: 61`): otherwise the
 * merchant's mistake would surface as every buyer's failed payment.
 */
const checkedSettings = (settings: Record<string, unknown>) =>
  decodeTerms(settings).pipe(
    Effect.as(settings),
    Effect.mapError((e) => new InvalidData({ message: `Dados inválidos: ${e.message}`, details: null }))
  )

const checkPrice = Effect.fnUntraced(function*(accountId: AccountId, priceId: PriceId) {
  const product = yield* (yield* Products).findByPrice(accountId, priceId)
  const price = Option.isSome(product) ? product.value.prices.find((p) => p.id === priceId) : undefined
  if (price === undefined || !price.isActive) return yield* new PriceNotFound({ message: `Preço ${priceId} não encontrado`, details: { priceId } })
})

/**
 * What the schema of one setting cannot see: free installments beyond the
 * link's maximum (on an update, the maximum may be the stored one), and
 * order bumps, which add a price to the link's and so need the link to sell
 * a price (not a product) and each bump to be an active price of the account.
 */
const checkPageSettings = Effect.fnUntraced(function*(link: CheckoutLink) {
  const settings = linkSettingsOf(link.settings)
  if (settings.freeInstallments !== undefined && settings.freeInstallments > maxInstallmentsOf(settings)) {
    return yield* invalidData("freeInstallments", `freeInstallments must not exceed maxInstallments (${maxInstallmentsOf(settings)})`)
  }
  const bumps = settings.orderBumps ?? []
  if (bumps.length > 0 && link.priceId === null && link.items === null) {
    return yield* invalidData("orderBumps", "order bumps need a link that sells a priceId")
  }
  for (const [i, bump] of bumps.entries()) {
    if (bumps.findIndex((other) => other.priceId === bump.priceId) !== i || bump.priceId === link.priceId) {
      return yield* invalidData(`orderBumps[${i}].priceId`, "each order bump is a different price from the link's")
    }
    yield* checkPrice(link.accountId, bump.priceId)
  }
})

const save = (link: CheckoutLink) =>
  Effect.flatMap(Transactor, (t) => t.withTransaction(Effect.flatMap(CheckoutLinks, (links) => links.save(link))))

const LINK_FIELDS = ["priceId", "product", "allowedPaymentMethods", "status"]

export const createCheckoutLink = Effect.fn("CheckoutLinks.create")(function*(input: CheckoutLinkInput, origin: string) {
  const caller = yield* Caller
  if (input.priceId === undefined && input.product === undefined) {
    return yield* invalidData("priceId", "a link needs priceId or product")
  }
  if (!input.allowedPaymentMethods || input.allowedPaymentMethods.length === 0) {
    return yield* invalidData("allowedPaymentMethods", "allowedPaymentMethods is required")
  }
  if (input.priceId !== undefined) yield* checkPrice(caller.account.id, input.priceId)
  if (input.product !== undefined && Option.isNone(yield* (yield* Products).find(caller.account.id, input.product))) {
    return yield* new ProductNotFound({ message: `Produto ${input.product} não encontrado`, details: { productId: input.product } })
  }
  const at = new Date(yield* Clock.currentTimeMillis)
  const link: CheckoutLink = {
    id: yield* (yield* Ids).make(CheckoutLinkIds, { sandbox: caller.account.sandbox }),
    accountId: caller.account.id,
    kind: "link",
    priceId: input.priceId ?? null,
    productId: input.product ?? null,
    items: null,
    allowedPaymentMethods: input.allowedPaymentMethods,
    customer: null,
    settings: yield* checkedSettings(settingsOf(input, LINK_FIELDS)),
    status: input.status ?? "ACTIVE",
    createdAt: at,
    updatedAt: at
  }
  yield* checkPageSettings(link)
  yield* save(link)
  return toCheckoutLinkView(link, origin)
})

const findLink = Effect.fn("CheckoutLinks.find")(function*(id: CheckoutLinkId) {
  const caller = yield* Caller
  const found = yield* (yield* CheckoutLinks).find(caller.account.id, "link", id)
  if (Option.isNone(found)) return yield* new CheckoutNotFound({ message: `Checkout ${id} não encontrado`, details: null })
  return found.value
})

export const getCheckoutLink = Effect.fn("CheckoutLinks.get")(function*(id: CheckoutLinkId, origin: string) {
  return toCheckoutLinkView(yield* findLink(id), origin)
})

export const listCheckoutLinks = Effect.fn("CheckoutLinks.list")(function*(query: KeysetQuery, origin: string) {
  const caller = yield* Caller
  const limit = yield* pageLimit(query.limit, 20, invalidData)
  const page = yield* (yield* CheckoutLinks).list(caller.account.id, "link", { limit, after: query.lastKey ?? null })
  return {
    items: page.items.map((l) => toCheckoutLinkView(l, origin)),
    pagination: keysetPagination(page, limit)
  }
})

export const updateCheckoutLink = Effect.fn("CheckoutLinks.update")(function*(id: CheckoutLinkId, input: CheckoutLinkInput, origin: string) {
  const current = yield* findLink(id)
  if (input.priceId !== undefined) yield* checkPrice(current.accountId, input.priceId)
  if (input.allowedPaymentMethods !== undefined && input.allowedPaymentMethods.length === 0) {
    return yield* invalidData("allowedPaymentMethods", "allowedPaymentMethods must not be empty")
  }
  const link: CheckoutLink = {
    ...current,
    priceId: input.priceId ?? current.priceId,
    allowedPaymentMethods: input.allowedPaymentMethods ?? current.allowedPaymentMethods,
    settings: yield* checkedSettings({ ...current.settings, ...settingsOf(input, LINK_FIELDS) }),
    status: input.status ?? current.status,
    updatedAt: new Date(yield* Clock.currentTimeMillis)
  }
  yield* checkPageSettings(link)
  yield* save(link)
  return toCheckoutLinkView(link, origin)
})

const SESSION_FIELDS = ["priceId", "items", "allowedPaymentMethods", "customer"]

export const createCheckoutSession = Effect.fn("CheckoutSessions.create")(function*(input: CheckoutSessionInput, origin: string) {
  const caller = yield* Caller
  const items = input.items ?? (input.priceId !== undefined ? [{ priceId: input.priceId }] : [])
  if (items.length === 0) return yield* invalidData("priceId", "a session needs priceId or items")
  for (const item of items) {
    if ((item.quantity ?? 1) < 1) return yield* invalidData("items", "quantity must be at least 1")
    yield* checkPrice(caller.account.id, item.priceId)
  }
  const at = new Date(yield* Clock.currentTimeMillis)
  const session: CheckoutLink = {
    id: yield* (yield* Ids).make(CheckoutSessionIds, { sandbox: caller.account.sandbox }),
    accountId: caller.account.id,
    kind: "session",
    priceId: input.priceId ?? items[0]!.priceId,
    productId: null,
    items: items.map((i) => ({ priceId: i.priceId, quantity: i.quantity ?? 1 })),
    allowedPaymentMethods: input.allowedPaymentMethods ?? [...ALL_METHODS],
    customer: input.customer ?? null,
    settings: yield* checkedSettings(settingsOf(input, SESSION_FIELDS)),
    status: "PENDING",
    createdAt: at,
    updatedAt: at
  }
  yield* save(session)
  return toCheckoutLinkView(session, origin)
})

export const getCheckoutSession = Effect.fn("CheckoutSessions.get")(function*(id: CheckoutSessionId, origin: string) {
  const caller = yield* Caller
  const found = yield* (yield* CheckoutLinks).find(caller.account.id, "session", id)
  if (Option.isNone(found)) return yield* new SessionNotFound({ message: `Sessão ${id} não encontrada`, details: null })
  return toCheckoutLinkView(found.value, origin)
})
