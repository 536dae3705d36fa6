import { Context, type Effect, type Option } from "effect"
import type { CheckoutLink, HostedCheckoutId } from "../domain/CheckoutLink.ts"
import type { AccountId } from "../domain/Ids.ts"

export class CheckoutLinks extends Context.Service<CheckoutLinks, {
  readonly save: (link: CheckoutLink) => Effect.Effect<void>
  readonly find: (accountId: AccountId, kind: CheckoutLink["kind"], id: HostedCheckoutId) => Effect.Effect<Option.Option<CheckoutLink>>
  /** Any account's link or session by its unguessable id, for the public payment of a hosted checkout. */
  readonly findForPayment: (kind: CheckoutLink["kind"], id: HostedCheckoutId) => Effect.Effect<Option.Option<CheckoutLink>>
  /** Moves a session from `from` to `to` (claiming it for a purchase, or giving it back); whether this call did. */
  readonly setSessionStatus: (id: HostedCheckoutId, from: "PENDING" | "completed", to: "PENDING" | "completed", at: Date) => Effect.Effect<boolean>
  readonly list: (
    accountId: AccountId,
    kind: CheckoutLink["kind"],
    query: { readonly limit: number; readonly after: string | null }
  ) => Effect.Effect<{ readonly items: ReadonlyArray<CheckoutLink>; readonly total: number; readonly lastKey: string | null }>
}>()("@billing/core/ports/CheckoutLinks") {}
