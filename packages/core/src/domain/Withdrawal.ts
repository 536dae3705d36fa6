/**
 * Pix keys and withdrawals (spec: Wallet). A withdrawal goes only to a key
 * of the account's own holder; it leaves the balance when requested and is
 * `PROCESSING` until the Pix provider pays it out (`COMPLETED`) or returns
 * it (`FAILED`, amount and fee back to the balance).
 */
import { Schema } from "effect"
import { normalizePhoneE164 } from "../brazil/Contacts.ts"
import { documentKind, normalizeDocument } from "../brazil/Documents.ts"
import { Cents } from "../money/Money.ts"
import { ErrorFields } from "./Errors.ts"

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

/** A withdrawal: the one definition its row and views derive from. */
export const Withdrawal = Schema.Struct({
  id: Schema.String,
  accountId: Schema.String,
  accountNumber: Schema.String,
  amount: Cents,
  fee: Cents,
  pixKey: Schema.String,
  pixKeyType: PixKeyType,
  status: WithdrawalStatus,
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

/** 400: the Pix key is not the account holder's (the provider's code for it). */
export class OwnershipMismatch extends Schema.TaggedError<OwnershipMismatch>()("OWNERSHIP_MISMATCH", ErrorFields, {
  httpApiStatus: 400
}) {}

/** 400: the withdrawal would pass the account's daily transfer limit (São Paulo day). */
export class DailyLimitExceeded extends Schema.TaggedError<DailyLimitExceeded>()("DAILY_LIMIT_EXCEEDED", ErrorFields, {
  httpApiStatus: 400
}) {}
