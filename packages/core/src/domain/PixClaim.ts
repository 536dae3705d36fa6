/**
 * Pix key portability (spec: Wallet, `POST /v1/wallet/pix-claims`): a key
 * the holder registered at another institution, claimed for this account.
 * The claim stays `OPEN` until the institution holding the key confirms it
 * (`COMPLETED`: the key now points here) or it is canceled. The spec leaves
 * the routes to list, read, confirm and cancel unshown.
 */
import { Schema } from "effect"
import { ErrorFields } from "./Errors.ts"
import { AccountId, PixClaimId } from "./Ids.ts"

/** The key types a claim can move: random keys (EVP) are never portable. */
export const ClaimableKeyType = Schema.Literals(["CPF", "CNPJ", "EMAIL", "PHONE"])

export const PixClaimStatus = Schema.Literals(["OPEN", "COMPLETED", "CANCELED"])

/** A claim: the one definition its row and view derive from. */
export const PixClaim = Schema.Struct({
  id: PixClaimId,
  accountId: AccountId,
  accountNumber: Schema.String,
  pixKey: Schema.String,
  pixKeyType: ClaimableKeyType,
  status: PixClaimStatus,
  /** When the institution holding the key must have answered (7 days in the DICT's rules). */
  resolutionDeadline: Schema.Date,
  createdAt: Schema.Date,
  updatedAt: Schema.Date
}).annotate({ identifier: "PixClaim" })
export type PixClaim = typeof PixClaim.Type

/** 400: the key has an open claim already. */
export class PixClaimInProgress extends Schema.TaggedError<PixClaimInProgress>()("PIX_CLAIM_IN_PROGRESS", ErrorFields, {
  httpApiStatus: 400
}) {}

/** 404: no claim with this id on the account. */
export class PixClaimNotFound extends Schema.TaggedError<PixClaimNotFound>()("PIX_CLAIM_NOT_FOUND", ErrorFields, {
  httpApiStatus: 404
}) {}

/** 400: the claim is not open any more. */
export class PixClaimClosed extends Schema.TaggedError<PixClaimClosed>()("PIX_CLAIM_CLOSED", ErrorFields, {
  httpApiStatus: 400
}) {}
