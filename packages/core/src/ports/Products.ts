import { Context, type Effect, type Option } from "effect"
import type { Product } from "../domain/Product.ts"

export interface ProductPage {
  readonly items: ReadonlyArray<Product>
  readonly total: number
  /** Cursor of the next page, `null` at the end. */
  readonly lastKey: string | null
}

/** Products of an account with their prices; every method is scoped by account. */
export class Products extends Context.Service<Products, {
  /** Inserts or replaces the product and its prices (the caller holds the transaction). */
  readonly save: (product: Product) => Effect.Effect<void>
  readonly find: (accountId: string, id: string) => Effect.Effect<Option.Option<Product>>
  readonly list: (
    accountId: string,
    query: { readonly limit: number; readonly after: string | null; readonly status: string | null; readonly search: string | null }
  ) => Effect.Effect<ProductPage>
  readonly remove: (accountId: string, id: string) => Effect.Effect<void>
  /** The product of a price of the account, with all its prices. */
  readonly findByPrice: (accountId: string, priceId: string) => Effect.Effect<Option.Option<Product>>
}>()("@billing/core/ports/Products") {}
