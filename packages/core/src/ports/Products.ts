import { Context, type Effect, type Option } from "effect"
import type { Product } from "../domain/Product.ts"
import type { AccountId, PriceId, ProductId } from "../domain/Ids.ts"

export interface ProductPage {
  readonly items: ReadonlyArray<Product>
  readonly total: number
  /** Cursor of the next page, `null` at the end. */
  readonly lastKey: string | null
}

/** Products of an account with their prices; every method but `accountsOfPrices` is scoped by account. */
export class Products extends Context.Service<Products, {
  /** Inserts or replaces the product and its prices (the caller holds the transaction). */
  readonly save: (product: Product) => Effect.Effect<void>
  readonly find: (accountId: AccountId, id: ProductId) => Effect.Effect<Option.Option<Product>>
  readonly list: (
    accountId: AccountId,
    query: { readonly limit: number; readonly after: string | null; readonly status: string | null; readonly search: string | null }
  ) => Effect.Effect<ProductPage>
  readonly remove: (accountId: AccountId, id: ProductId) => Effect.Effect<void>
  /** The product of a price of the account, with all its prices. */
  readonly findByPrice: (accountId: AccountId, priceId: PriceId) => Effect.Effect<Option.Option<Product>>
  /**
   * The accounts owning any of these price ids (ids are unique across the
   * installation), at most two: the public coupon validation names its
   * merchant by them when it names none, and needs the one, or to know
   * there are several.
   */
  readonly accountsOfPrices: (priceIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<AccountId>>
}>()("@billing/core/ports/Products") {}
