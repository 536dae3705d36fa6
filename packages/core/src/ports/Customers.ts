import { Context, type Effect, type Option } from "effect"
import type { Customer } from "../domain/Customer.ts"
import type { AccountId, CustomerId } from "../domain/Ids.ts"

export interface CustomerQuery {
  readonly limit: number
  readonly after: string | null
  readonly search: string | null
  readonly document: string | null
  readonly status: string | null
  readonly from: Date | null
  readonly to: Date | null
}

/** Customers of an account; deleted ones are invisible to `find`, `findByDocument` and `list`. */
export class Customers extends Context.Service<Customers, {
  /** Inserts unless a live customer has the document; returns the customer that is registered and whether it is new. */
  readonly insertIfAbsent: (customer: Customer) => Effect.Effect<{ readonly customer: Customer; readonly created: boolean }>
  readonly update: (customer: Customer) => Effect.Effect<void>
  readonly find: (accountId: AccountId, id: CustomerId) => Effect.Effect<Option.Option<Customer>>
  readonly findByDocument: (accountId: AccountId, document: string) => Effect.Effect<Option.Option<Customer>>
  readonly list: (accountId: AccountId, query: CustomerQuery) => Effect.Effect<{ readonly items: ReadonlyArray<Customer>; readonly lastKey: string | null }>
  readonly markDeleted: (accountId: AccountId, id: CustomerId, at: Date) => Effect.Effect<void>
}>()("@billing/core/ports/Customers") {}
