/**
 * Pix keys and the Pix an account sends (spec: Wallet): withdrawals, only
 * to a key of the account's own holder, and transfers to a third party's
 * key (the provider's `pix-transfer`). Either leaves the balance when
 * requested and is `PROCESSING` until the Pix provider pays it out
 * (`COMPLETED`) or returns it (`FAILED`, amount and fee back).
 */
import { Schema } from "effect"
import { normalizePhoneE164 } from "../brazil/Contacts.ts"
import { documentKind, normalizeDocument } from "../brazil/Documents.ts"
import { Cents } from "../money/Money.ts"
import { ErrorFields } from "./Errors.ts"
import { Counterparty } from "./Ledger.ts"
import { AccountId, WithdrawalId } from "./Ids.ts"

export const PixKeyTypes = ["CPF", "CNPJ", "EMAIL", "PHONE", "EVP"] as const
export const PixKeyType = Schema.Literals(PixKeyTypes)
export type PixKeyType = typeof PixKeyType.Type

export interface PixKey {
  readonly type: PixKeyType
  /** The key in the DICT's canonical form (digits only, lowercase e-mail, `+55…`). */
  readonly value: string
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const EVP = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** The canonical form of `key` as a key of `type`, or undefined when it is not one (DICT rules: e-mail up to 77 characters). */
export const normalizePixKey = (type: PixKeyType, key: string): string | undefined => {
  switch (type) {
    case "CPF":
    case "CNPJ": {
      const document = normalizeDocument(key)
      return documentKind(document) === type ? document : undefined
    }
    case "EMAIL": {
      const email = key.trim().toLowerCase()
      return email.length <= 77 && EMAIL.test(email) ? email : undefined
    }
    case "PHONE":
      return normalizePhoneE164(key)
    case "EVP": {
      const evp = key.trim().toLowerCase()
      return EVP.test(evp) ? evp : undefined
    }
  }
}

export const WithdrawalStatus = Schema.Literals(["PROCESSING", "COMPLETED", "FAILED"])
export type WithdrawalStatus = typeof WithdrawalStatus.Type

/** A withdrawal to the holder's own key, or a transfer to a third party's (`POST /v1/wallet/pix-transfer`). */
export const PixSendKind = Schema.Literals(["WITHDRAWAL", "PIX_TRANSFER"])

/** A Pix sent out of an account: the one definition its row and views derive from. */
export const Withdrawal = Schema.Struct({
  id: WithdrawalId,
  kind: PixSendKind,
  accountId: AccountId,
  accountNumber: Schema.String,
  amount: Cents,
  fee: Cents,
  pixKey: Schema.String,
  pixKeyType: PixKeyType,
  status: WithdrawalStatus,
  /** Who receives a transfer, as the DICT answered; null for a withdrawal. */
  receiver: Schema.NullOr(Counterparty),
  description: Schema.NullOr(Schema.String),
  endToEndId: Schema.NullOr(Schema.String),
  failureReason: Schema.NullOr(Schema.String),
  /** The São Paulo day it counts against the daily limit. */
  day: Schema.String,
  createdAt: Schema.Date,
  updatedAt: Schema.Date
}).annotate({ identifier: "Withdrawal" })
export type Withdrawal = typeof Withdrawal.Type

/** 400: the balance does not cover the amount and the fee. */
export class InsufficientBalance extends Schema.TaggedError<InsufficientBalance>()("INSUFFICIENT_BALANCE", ErrorFields, {
  httpApiStatus: 400
}) {}

/**
 * 403: the Pix key is not the account holder's. The provider's code, with a
 * status the spec allows for it (401 or 403; the provider answers 400): the
 * token is fine, the key is not the holder's to use.
 */
export class OwnershipMismatch extends Schema.TaggedError<OwnershipMismatch>()("OWNERSHIP_MISMATCH", ErrorFields, {
  httpApiStatus: 403
}) {}

/** 400: the withdrawal would pass the account's daily transfer limit (São Paulo day). */
export class DailyLimitExceeded extends Schema.TaggedError<DailyLimitExceeded>()("DAILY_LIMIT_EXCEEDED", ErrorFields, {
  httpApiStatus: 400
}) {}

/** 404: the DICT knows no holder of this key. */
export class PixKeyNotFound extends Schema.TaggedError<PixKeyNotFound>()("PIX_KEY_NOT_FOUND", ErrorFields, {
  httpApiStatus: 404
}) {}
