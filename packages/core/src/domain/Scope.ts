import { Schema } from "effect"

/**
 * OAuth scopes. The spec's table, plus the real provider's names for what the
 * spec leaves open (`coupons/*`, `payment.methods/write`, `proposals/read`),
 * and `webhooks/write`, `webhooks/read`, which earlier versions required for
 * webhook management: still issued and accepted, no longer required (any
 * valid token of the account manages its webhooks; see docs/decisions.md).
 */
export const AllScopes = [
  "pix.cob/write",
  "pix.cob/read",
  "checkouts/write",
  "checkouts/read",
  "products/write",
  "products/read",
  "customers/write",
  "customers/read",
  "customers/delete",
  "subscriptions/write",
  "subscriptions/read",
  "proposals/write",
  "proposals/read",
  "subaccounts/read",
  "wallet/write",
  "wallet/read",
  "nota.fiscal/write",
  "nota.fiscal/read",
  "coupons/write",
  "coupons/read",
  "payment.methods/write",
  "webhooks/write",
  "webhooks/read"
] as const

export const Scope = Schema.Literals(AllScopes)
export type Scope = typeof Scope.Type

const known: ReadonlySet<string> = new Set(AllScopes)

/** True when `s` names a scope this engine knows. */
export const isScope = (s: string): s is Scope => known.has(s)

/** Splits an OAuth `scope` parameter (space separated, possibly with repeated blanks). */
export const parseScopeParam = (param: string | undefined): ReadonlyArray<string> =>
  param === undefined ? [] : [...new Set(param.split(/\s+/).filter((s) => s.length > 0))]
