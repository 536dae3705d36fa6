import { Schema } from "effect"
import { Cents, Reais, ReaisJson } from "../money/Money.ts"
import { ErrorFields } from "./Errors.ts"
import { Instant } from "./Wire.ts"
import { Description, idInput, Name, optional } from "./Values.ts"
import { AccountId, PriceId, ProductId } from "./Ids.ts"

export const ProductType = Schema.Literals(["RECURRING", "ONE_TIME"])
export const PriceRecurrence = Schema.Literals(["ONE_TIME", "DAILY", "WEEKLY", "MONTHLY", "QUARTERLY", "SEMIANNUAL", "YEARLY"])

/** A price of a product (`price_`): one-time or recurring every `recurrenceInterval` periods. */
export const Price = Schema.Struct({
  id: PriceId,
  productId: ProductId,
  position: Schema.Int,
  title: Schema.String,
  amount: Cents,
  recurrenceType: PriceRecurrence,
  recurrenceInterval: Schema.Int,
  trialDays: Schema.Int,
  statementDescriptor: Schema.NullOr(Schema.String),
  isActive: Schema.Boolean,
  createdAt: Schema.Date,
  updatedAt: Schema.Date
}).annotate({ identifier: "PriceRecord" })
export type Price = typeof Price.Type

export const ProductStatus = Schema.Literals(["active", "archived"])

/** A product (`prod_`) with its prices. */
export const Product = Schema.Struct({
  id: ProductId,
  accountId: AccountId,
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  type: ProductType,
  status: ProductStatus,
  nfConfigId: Schema.NullOr(Schema.String),
  prices: Schema.Array(Price),
  archivedAt: Schema.NullOr(Schema.Date),
  createdAt: Schema.Date,
  updatedAt: Schema.Date
}).annotate({ identifier: "ProductRecord" })
export type Product = typeof Product.Type

/** 400: a product or price field is invalid; `details` names it. */
export class InvalidProductData extends Schema.TaggedError<InvalidProductData>()("INVALID_PRODUCT_DATA", ErrorFields, {
  httpApiStatus: 400
}) {}

/** 404: no such product on the caller's account. */
export class ProductNotFound extends Schema.TaggedError<ProductNotFound>()("PRODUCT_NOT_FOUND", ErrorFields, {
  httpApiStatus: 404
}) {}

/** 400: the product is sold in an active subscription, so it cannot be deleted (archive it instead). */
export class ProductHasActiveSubscriptions extends Schema.TaggedError<ProductHasActiveSubscriptions>()(
  "PRODUCT_HAS_ACTIVE_SUBSCRIPTIONS",
  ErrorFields,
  { httpApiStatus: 400 }
) {}

const OptionalString = optional(Schema.String)

export const PriceInput = Schema.Struct({
  priceId: optional(idInput(PriceId)),
  title: optional(Name),
  amount: optional(Reais),
  recurrenceType: optional(PriceRecurrence),
  recurrenceInterval: optional(Schema.Int),
  trialDays: optional(Schema.Int),
  statementDescriptor: OptionalString,
  isActive: optional(Schema.Boolean)
})
export type PriceInput = typeof PriceInput.Type

/** Body of `POST /v1/products`, and (all optional) of `PUT /v1/products/{id}`. */
export const ProductInput = Schema.Struct({
  name: optional(Name),
  description: Schema.optionalKey(Schema.NullOr(Description)),
  type: optional(ProductType),
  nfConfigId: Schema.optionalKey(Schema.NullOr(Schema.String)),
  prices: optional(Schema.Array(PriceInput))
}).annotate({ identifier: "ProductInput" })
export type ProductInput = typeof ProductInput.Type

const price = Price.fields
const product = Product.fields

export const PriceView = Schema.Struct({
  priceId: price.id,
  productId: price.productId,
  title: price.title,
  amount: ReaisJson,
  recurrenceType: price.recurrenceType,
  recurrenceInterval: price.recurrenceInterval,
  trialDays: price.trialDays,
  statementDescriptor: price.statementDescriptor,
  isActive: price.isActive,
  currency: Schema.Literal("BRL"),
  createdAt: Instant,
  updatedAt: Instant
}).annotate({ identifier: "Price" })

export const ProductView = Schema.Struct({
  productId: product.id,
  accountId: product.accountId,
  name: product.name,
  description: product.description,
  type: product.type,
  status: product.status,
  currency: Schema.Literal("BRL"),
  nfConfigId: product.nfConfigId,
  prices: Schema.Array(PriceView),
  archivedAt: Schema.NullOr(Instant),
  createdAt: Instant,
  updatedAt: Instant
}).annotate({ identifier: "Product" })

/** The answer of `PUT /v1/products/{id}`: the product, and apart the prices this update created (the provider's `newPrices`). */
export const ProductUpdateView = Schema.Struct({
  ...ProductView.fields,
  newPrices: Schema.Array(PriceView)
}).annotate({ identifier: "ProductUpdate" })

export const toProductView = (p: Product): typeof ProductView.Type => ({
  productId: p.id,
  accountId: p.accountId,
  name: p.name,
  description: p.description,
  type: p.type,
  status: p.status,
  currency: "BRL",
  nfConfigId: p.nfConfigId,
  prices: p.prices.map((price) => ({
    priceId: price.id,
    productId: p.id,
    title: price.title,
    amount: price.amount,
    recurrenceType: price.recurrenceType,
    recurrenceInterval: price.recurrenceInterval,
    trialDays: price.trialDays,
    statementDescriptor: price.statementDescriptor,
    isActive: price.isActive,
    currency: "BRL",
    createdAt: price.createdAt,
    updatedAt: price.updatedAt
  })),
  archivedAt: p.archivedAt,
  createdAt: p.createdAt,
  updatedAt: p.updatedAt
})
