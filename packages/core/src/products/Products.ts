/**
 * Products and prices of the caller's account (spec: Product and price,
 * Products). Prices are one-time or recurring and follow their product's type.
 */
import { Clock, Effect, Option } from "effect"
import { Caller } from "../auth/Authenticate.ts"
import { keysetPagination, pageLimit, type SearchQuery } from "../domain/Pagination.ts"
import {
  InvalidProductData,
  type Price,
  type PriceInput,
  type Product,
  ProductHasActiveSubscriptions,
  type ProductInput,
  ProductNotFound,
  toProductView
} from "../domain/Product.ts"
import { Subscriptions } from "../ports/Subscriptions.ts"
import { Ids } from "../ports/Ids.ts"
import { NfseConfigs } from "../ports/NfseConfigs.ts"
import { Products } from "../ports/Products.ts"
import { canonicalConfigId } from "../nfse/Configs.ts"
import { Transactor } from "../ports/Transactor.ts"
import { type AccountId, type PriceId, PriceIds, type ProductId, ProductIds } from "../domain/Ids.ts"

const invalid = (field: string, message: string) => new InvalidProductData({ message, details: { field } })

/** Checks one price against its product's type and builds it; `current` is the price being updated. */
const buildPrice = Effect.fnUntraced(function*(
  input: PriceInput,
  field: string,
  product: { readonly id: ProductId; readonly name: string; readonly type: Product["type"] },
  current: Price | undefined,
  make: { readonly id: PriceId; readonly position: number; readonly at: Date }
) {
  const recurrenceType = input.recurrenceType ?? current?.recurrenceType ?? (product.type === "ONE_TIME" ? "ONE_TIME" : undefined)
  if (recurrenceType === undefined) return yield* invalid(`${field}.recurrenceType`, "recurrenceType is required for a recurring product")
  if ((product.type === "ONE_TIME") !== (recurrenceType === "ONE_TIME")) {
    return yield* invalid(`${field}.recurrenceType`, `a ${product.type} product takes ${product.type === "ONE_TIME" ? "ONE_TIME" : "recurring"} prices`)
  }
  const amount = input.amount ?? current?.amount
  if (amount === undefined) return yield* invalid(`${field}.amount`, "amount is required")
  const recurrenceInterval = input.recurrenceInterval ?? current?.recurrenceInterval ?? 1
  if (recurrenceInterval < 1) return yield* invalid(`${field}.recurrenceInterval`, "recurrenceInterval must be at least 1")
  const trialDays = input.trialDays ?? current?.trialDays ?? 0
  if (trialDays < 0 || trialDays > 365) return yield* invalid(`${field}.trialDays`, "trialDays must be 0 to 365")
  if (trialDays > 0 && recurrenceType === "ONE_TIME") return yield* invalid(`${field}.trialDays`, "only recurring prices have a trial")
  const statementDescriptor = input.statementDescriptor ?? current?.statementDescriptor ?? null
  if (statementDescriptor !== null && statementDescriptor.length > 22) {
    return yield* invalid(`${field}.statementDescriptor`, "statementDescriptor has at most 22 characters")
  }
  const title = (input.title ?? current?.title ?? product.name).trim()
  if (title.length === 0) return yield* invalid(`${field}.title`, "title must not be empty")
  return {
    id: current?.id ?? make.id,
    productId: product.id,
    position: current?.position ?? make.position,
    title,
    amount,
    recurrenceType,
    recurrenceInterval,
    trialDays,
    statementDescriptor,
    isActive: input.isActive ?? current?.isActive ?? true,
    createdAt: current?.createdAt ?? make.at,
    updatedAt: make.at
  } satisfies Price
})

const findOwn = Effect.fn("Products.findOwn")(function*(id: ProductId) {
  const caller = yield* Caller
  const found = yield* (yield* Products).find(caller.account.id, id)
  if (Option.isNone(found)) return yield* new ProductNotFound({ message: `Produto ${id} não encontrado`, details: null })
  return found.value
})

/**
 * The product's fiscal configuration, canonical (`unc_` names the same
 * `nfc_`), when the account has it: a sale of the product gets its note
 * with it, so an unknown one is refused when saved rather than at a sale.
 */
const ownNfConfig = Effect.fnUntraced(function*(accountId: AccountId, nfConfigId: string | null | undefined) {
  if (nfConfigId === undefined || nfConfigId === null) return nfConfigId
  const found = yield* (yield* NfseConfigs).find(accountId, canonicalConfigId(nfConfigId))
  if (Option.isNone(found)) return yield* invalid("nfConfigId", `fiscal configuration ${nfConfigId} not found`)
  return found.value.id
})

const save = (product: Product) =>
  Effect.flatMap(Transactor, (t) => t.withTransaction(Effect.flatMap(Products, (products) => products.save(product))))

export const createProduct = Effect.fn("Products.create")(function*(input: ProductInput) {
  const caller = yield* Caller
  const ids = yield* Ids
  const name = input.name?.trim()
  if (!name) return yield* invalid("name", "name is required")
  if (input.type === undefined) return yield* invalid("type", "type is required: RECURRING or ONE_TIME")
  if (!input.prices || input.prices.length === 0) return yield* invalid("prices", "at least one price is required")
  const nfConfigId = yield* ownNfConfig(caller.account.id, input.nfConfigId)
  const at = new Date(yield* Clock.currentTimeMillis)
  const id = yield* ids.make(ProductIds, { sandbox: caller.account.sandbox })
  const prices: Array<Price> = []
  for (const [i, price] of input.prices.entries()) {
    if (price.priceId !== undefined) return yield* invalid(`prices[${i}].priceId`, "priceId is only for updates")
    const priceId = yield* ids.make(PriceIds, { sandbox: caller.account.sandbox })
    prices.push(yield* buildPrice(price, `prices[${i}]`, { id, name, type: input.type }, undefined, { id: priceId, position: i, at }))
  }
  const product: Product = {
    id,
    accountId: caller.account.id,
    name,
    description: input.description ?? null,
    type: input.type,
    status: "active",
    nfConfigId: nfConfigId ?? null,
    prices,
    archivedAt: null,
    createdAt: at,
    updatedAt: at
  }
  yield* save(product)
  return toProductView(product)
})

export const getProduct = Effect.fn("Products.get")(function*(id: ProductId) {
  return toProductView(yield* findOwn(id))
})

export const listProducts = Effect.fn("Products.list")(function*(query: SearchQuery) {
  const caller = yield* Caller
  const limit = yield* pageLimit(query.limit, 50, invalid)
  if (query.status !== undefined && query.status !== "active" && query.status !== "archived") {
    return yield* invalid("status", "status must be active or archived")
  }
  const page = yield* (yield* Products).list(caller.account.id, {
    limit,
    after: query.lastKey ?? null,
    status: query.status ?? null,
    search: query.search?.trim() || null
  })
  return {
    items: page.items.map(toProductView),
    pagination: keysetPagination(page, limit)
  }
})

export const updateProduct = Effect.fn("Products.update")(function*(id: ProductId, input: ProductInput) {
  const caller = yield* Caller
  const ids = yield* Ids
  const current = yield* findOwn(id)
  const name = input.name === undefined ? current.name : input.name.trim()
  if (name.length === 0) return yield* invalid("name", "name must not be empty")
  const type = input.type ?? current.type
  const at = new Date(yield* Clock.currentTimeMillis)
  const byId = new Map(current.prices.map((p) => [p.id, p]))
  const changed = new Map<string, Price>()
  const added: Array<Price> = []
  for (const [i, price] of (input.prices ?? []).entries()) {
    const field = `prices[${i}]`
    if (price.priceId !== undefined) {
      const existing = byId.get(price.priceId)
      if (existing === undefined) return yield* invalid(`${field}.priceId`, `price ${price.priceId} is not a price of this product`)
      changed.set(existing.id, yield* buildPrice(price, field, { id, name, type }, existing, { id: existing.id, position: existing.position, at }))
    } else {
      const priceId = yield* ids.make(PriceIds, { sandbox: caller.account.sandbox })
      added.push(yield* buildPrice(price, field, { id, name, type }, undefined, { id: priceId, position: current.prices.length + added.length, at }))
    }
  }
  const prices = [...current.prices.map((p) => changed.get(p.id) ?? p), ...added]
  // Changing the type must still agree with every price, changed or not.
  for (const [i, p] of prices.entries()) {
    if ((type === "ONE_TIME") !== (p.recurrenceType === "ONE_TIME")) {
      return yield* invalid(`prices[${i}].recurrenceType`, `a ${type} product cannot keep price ${p.id} (${p.recurrenceType})`)
    }
  }
  const product: Product = {
    ...current,
    name,
    description: input.description === undefined ? current.description : input.description,
    type,
    nfConfigId: input.nfConfigId === undefined ? current.nfConfigId : (yield* ownNfConfig(caller.account.id, input.nfConfigId)) ?? null,
    prices,
    updatedAt: at
  }
  yield* save(product)
  // The provider's answer lists the prices the update created apart, so a client learns their ids.
  return { ...toProductView(product), newPrices: toProductView({ ...product, prices: added }).prices }
})

/**
 * Deletes a product and its prices. A product sold in an open subscription
 * is refused with `PRODUCT_HAS_ACTIVE_SUBSCRIPTIONS` (the message says how
 * many), and so is one sold in ended ones, whose history names it;
 * archiving is the way to withdraw it.
 */
export const deleteProduct = Effect.fn("Products.delete")(function*(id: ProductId) {
  const caller = yield* Caller
  yield* findOwn(id)
  const subscriptions = yield* Subscriptions
  const open = yield* subscriptions.countOpen(caller.account.id, { productId: id })
  if (open > 0) {
    return yield* new ProductHasActiveSubscriptions({
      message: `O produto está em ${open} assinatura(s) ativa(s); arquive-o em vez de removê-lo`,
      details: { productId: id, activeSubscriptions: open }
    })
  }
  // Ended subscriptions keep their items' history, which names the product: it is archived, not removed.
  const sold = yield* subscriptions.countSelling(caller.account.id, id)
  if (sold > 0) {
    return yield* new ProductHasActiveSubscriptions({
      message: `O produto tem histórico em ${sold} assinatura(s) encerrada(s); arquive-o em vez de removê-lo`,
      details: { productId: id, activeSubscriptions: 0, subscriptions: sold }
    })
  }
  const transactor = yield* Transactor
  const products = yield* Products
  yield* transactor.withTransaction(products.remove(caller.account.id, id))
  return { message: "Produto removido com sucesso", productId: id, deleted: true as const }
})

/** Withdraws a product from sale, keeping it and its history. */
export const archiveProduct = Effect.fn("Products.archive")(function*(id: ProductId) {
  const current = yield* findOwn(id)
  const at = new Date(yield* Clock.currentTimeMillis)
  const archivedAt = current.archivedAt ?? at
  yield* save({ ...current, status: "archived", archivedAt, updatedAt: at })
  return { productId: id, status: "archived" as const, archivedAt: archivedAt.toISOString() }
})
