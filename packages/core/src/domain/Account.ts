import { Schema } from "effect"
import { AccountId } from "./Ids.ts"

export { AccountId } from "./Ids.ts"

/** PF (natural person, CPF) or PJ (legal entity, CNPJ). */
export const PersonType = Schema.Literals(["PF", "PJ"])
export type PersonType = typeof PersonType.Type

/**
 * A master account or a sub-account (seller) of one. `number` is the account
 * number clients send in `X-Sub-Account` and in split `accountNumber`.
 */
export class Account extends Schema.Class<Account>("Account")({
  id: AccountId,
  number: Schema.String,
  name: Schema.String,
  document: Schema.String,
  personType: PersonType,
  sandbox: Schema.Boolean,
  parentId: Schema.NullOr(AccountId),
  /** Pix key that receives the account's Pix (in its BR Codes); null until one is registered. */
  pixKey: Schema.NullOr(Schema.String),
  /** City printed in the account's BR Codes. */
  city: Schema.String,
  /** Where merchant notices (`new.sale`) go; optional. */
  email: Schema.NullOr(Schema.String),
  /** The operator's own account (opened with `--internal`), not a merchant's: exempt from Pix Automático's PJ-only rule (spec: Limits). */
  internal: Schema.Boolean,
  createdAt: Schema.Date
}) {}

/** Pix Automático is for PJ accounts; the operator's internal accounts are exempt whatever their document (spec: Limits). */
export const mayUsePixAutomatico = (account: Pick<Account, "personType" | "internal">): boolean =>
  account.personType === "PJ" || account.internal
