import { Schema } from "effect"
import { type Cents, Reais, ReaisJson } from "../money/Money.ts"
import type { RecurrenceType } from "../rules/CycleSchedule.ts"
import { ErrorFields } from "./Errors.ts"

export const ProductType = Schema.Literals(["RECURRING", "ONE_TIME"])
export const PriceRecurrence = Schema.Literals(["ONE_TIME", "DAILY", "WEEKLY", "MONTHLY", "QUARTERLY", "SEMIANNUAL", "YEARLY"])

export interface Price {
  readonly id: string
  readonly productId: string
  readonly position: number
  readonly title: string
  readonly amount: Cents
  readonly recurrenceType: "ONE_TIME" | RecurrenceType
  readonly recurrenceInterval: number
  readonly trialDays: number
  readonly statementDescriptor: string | null
  readonly isActive: boolean
  readonly createdAt: Date
  readonly updatedAt: Date
}

export interface Product {
  readonly id: string
  readonly accountId: string
  readonly name: string
  readonly description: string | null
  readonly type: "RECURRING" | "ONE_TIME"
  readonly status: "active" | "archived"
  readonly nfConfigId: string | null
  readonly prices: ReadonlyArray<Price>
  readonly archivedAt: Date | null
  readonly createdAt: Date
  readonly updatedAt: Date
}

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
