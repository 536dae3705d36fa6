import { Schema } from "effect"
import { Cents, Reais, ReaisJson } from "../money/Money.ts"
import { ErrorFields } from "./Errors.ts"

export const ProductType = Schema.Literals(["RECURRING", "ONE_TIME"])
export const PriceRecurrence = Schema.Literals(["ONE_TIME", "DAILY", "WEEKLY", "MONTHLY", "QUARTERLY", "SEMIANNUAL", "YEARLY"])

/** A price of a product (`price_`): one-time or recurring every `recurrenceInterval` periods. */
export const Price = Schema.Struct({
  id: Schema.String,
  productId: Schema.String,
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
  id: Schema.String,
  accountId: Schema.String,
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

const OptionalString = Schema.optionalKey(Schema.String)

export const PriceInput = Schema.Struct({
  priceId: OptionalString,
  title: OptionalString,
  amount: Schema.optionalKey(Reais),
  recurrenceType: Schema.optionalKey(PriceRecurrence),
  recurrenceInterval: Schema.optionalKey(Schema.Int),
  trialDays: Schema.optionalKey(Schema.Int),
  statementDescriptor: OptionalString,
  isActive: Schema.optionalKey(Schema.Boolean)
})
export type PriceInput = typeof PriceInput.Type

/** Body of `POST /v1/products`, and (all optional) of `PUT /v1/products/{id}`. */
export const ProductInput = Schema.Struct({
  name: OptionalString,
  description: Schema.optionalKey(Schema.NullOr(Schema.String)),
  type: Schema.optionalKey(ProductType),
  nfConfigId: Schema.optionalKey(Schema.NullOr(Schema.String)),
  prices: Schema.optionalKey(Schema.Array(PriceInput))
}).annotate({ identifier: "ProductInput" })
export type ProductInput = typeof ProductInput.Type

export const PriceView = Schema.Struct({
  priceId: Schema.String,
  productId: Schema.String,
  title: Schema.String,
  amount: ReaisJson,
  recurrenceType: Schema.String,
  recurrenceInterval: Schema.Number,
  trialDays: Schema.Number,
  statementDescriptor: Schema.NullOr(Schema.String),
  isActive: Schema.Boolean,
  currency: Schema.Literal("BRL"),
  createdAt: Schema.String,
  updatedAt: Schema.String
}).annotate({ identifier: "Price" })

export const ProductView = Schema.Struct({
  productId: Schema.String,
  accountId: Schema.String,
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  type: Schema.String,
  status: Schema.String,
  currency: Schema.Literal("BRL"),
  nfConfigId: Schema.NullOr(Schema.String),
  prices: Schema.Array(PriceView),
  archivedAt: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String
}).annotate({ identifier: "Product" })

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
    createdAt: price.createdAt.toISOString(),
    updatedAt: price.updatedAt.toISOString()
  })),
  archivedAt: p.archivedAt?.toISOString() ?? null,
  createdAt: p.createdAt.toISOString(),
  updatedAt: p.updatedAt.toISOString()
})
