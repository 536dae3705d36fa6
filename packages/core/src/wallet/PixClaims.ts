/**
 * Pix key portability (`POST /v1/wallet/pix-claims` and our routes to list,
 * read and cancel a claim). A claim moves a key of the account's own holder
 * from another institution: a CPF or CNPJ key must be the holder's document
 * (400 `OWNERSHIP_MISMATCH` otherwise); random keys (EVP) are never portable.
 * The institution holding the key confirms it within 7 days (in the sandbox,
 * `POST /v1/sandbox/pix-claims/{id}/complete`); a completed claim makes the
 * key the holder's for withdrawals.
 */
import { Clock, Effect, Option } from "effect"
import { sandboxCaller } from "../auth/SandboxOnly.ts"
import { invalidData } from "../domain/Errors.ts"
import { type PixClaim, PixClaimClosed, PixClaimInProgress, PixClaimNotFound } from "../domain/PixClaim.ts"
import { type PixClaimRequest, toPixClaimView } from "../domain/WalletViews.ts"
import { notTheHolders, parseKey } from "./SendPix.ts"
import { Ids } from "../ports/Ids.ts"
import { PixClaims } from "../ports/PixClaims.ts"
import { type PixClaimTransition, PixClaimTransitions } from "../rules/PixClaimTransitions.ts"
import { walletAccount } from "./WalletAccount.ts"
import { type AccountId, type PixClaimId, PixClaimIds } from "../domain/Ids.ts"

/** How long the institution holding a key has to answer a portability claim (DICT rules). */
const CLAIM_RESOLUTION_MILLIS = 7 * 86_400_000

export const requestPixClaim = Effect.fn("Wallet.requestPixClaim")(function*(request: PixClaimRequest) {
  const account = yield* walletAccount(request.accountId)
  if (request.pixKeyType === "EVP") return yield* invalidData("pixKeyType", "random keys (EVP) cannot be claimed: register a new one")
  const { value: pixKey } = yield* parseKey(request)
  if ((request.pixKeyType === "CPF" || request.pixKeyType === "CNPJ") && pixKey !== account.document) return yield* notTheHolders()
  const now = yield* Clock.currentTimeMillis
  const claim: PixClaim = {
    id: yield* (yield* Ids).make(PixClaimIds, { sandbox: account.sandbox }),
    accountId: account.id,
    accountNumber: account.number,
    pixKey,
    pixKeyType: request.pixKeyType,
    status: "OPEN",
    resolutionDeadline: new Date(now + CLAIM_RESOLUTION_MILLIS),
    createdAt: new Date(now),
    updatedAt: new Date(now)
  }
  if (!(yield* (yield* PixClaims).insertOpen(claim))) {
    return yield* new PixClaimInProgress({ message: "Já existe uma reivindicação em andamento para esta chave", details: { pixKey } })
  }
  return toPixClaimView(claim)
})

const notFound = (id: string) => new PixClaimNotFound({ message: `Reivindicação ${id} não encontrada`, details: null })

export const getPixClaim = Effect.fn("Wallet.getPixClaim")(function*(id: PixClaimId, accountId?: string) {
  const account = yield* walletAccount(accountId)
  const found = yield* (yield* PixClaims).find(account.id, id)
  if (Option.isNone(found)) return yield* notFound(id)
  return toPixClaimView(found.value)
})

export const listPixClaims = Effect.fn("Wallet.listPixClaims")(function*(accountId?: string) {
  const account = yield* walletAccount(accountId)
  return { items: (yield* (yield* PixClaims).list(account.id, 100)).map(toPixClaimView) }
})

/** Closes the account's open claim by `transition`; 404 when unknown, 400 when it is not open. */
const close = Effect.fnUntraced(function*(accountId: AccountId, id: PixClaimId, transition: PixClaimTransition) {
  const claims = yield* PixClaims
  const closed = yield* claims.close(accountId, id, transition, new Date(yield* Clock.currentTimeMillis))
  if (Option.isSome(closed)) return toPixClaimView(closed.value)
  const found = yield* claims.find(accountId, id)
  if (Option.isNone(found)) return yield* notFound(id)
  return yield* new PixClaimClosed({ message: `A reivindicação ${id} está ${found.value.status}`, details: { status: found.value.status } })
})

export const cancelPixClaim = Effect.fn("Wallet.cancelPixClaim")(function*(id: PixClaimId, accountId?: string) {
  return yield* close((yield* walletAccount(accountId)).id, id, PixClaimTransitions.canceled)
})

/** Sandbox: the institution holding the key confirms the claim. */
export const completePixClaim = Effect.fn("Wallet.completePixClaim")(function*(id: PixClaimId) {
  const { account } = yield* sandboxCaller("Simulação de portabilidade disponível apenas em contas sandbox")
  return yield* close(account.id, id, PixClaimTransitions.completed)
})
