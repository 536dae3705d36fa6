/**
 * Opens an account with API credentials: the operator path of
 * `billing accounts create` (and of the sandbox bootstrap of `serve`). The
 * onboarding proposals of the spec will open sub-accounts through the same
 * function once they exist.
 */
import { Clock, Effect, Option, Random } from "effect"
import { Account, AccountId } from "../domain/Account.ts"
import { InvalidData, NotFound } from "../domain/Errors.ts"
import { AllScopes, isScope } from "../domain/Scope.ts"
import { hashSecret } from "../auth/SecretHash.ts"
import { Ids } from "../ports/Ids.ts"
import { Accounts } from "../ports/Accounts.ts"
import { ApiClients } from "../ports/ApiClients.ts"
import { Transactor } from "../ports/Transactor.ts"
import { isValidDocument, normalizeDocument } from "../brazil/Documents.ts"
import { AccountIds } from "../domain/Ids.ts"

/**
 * A sandbox account's random Pix key (EVP): a version 4 UUID drawn from
 * Effect's `Random`, so a simulation that seeds it gets the same keys, and
 * the same BR Codes, on every run. It receives no real payment: no secret
 * rests on its randomness.
 */
const sandboxPixKey = Effect.gen(function*() {
  const bytes: Array<number> = []
  for (let i = 0; i < 16; i++) bytes.push(yield* Random.nextIntBetween(0, 255))
  bytes[6] = (bytes[6]! & 0x0f) | 0x40
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const hex = bytes.map((b) => b.toString(16).padStart(2, "0")).join("")
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
})

export interface CreateAccountInput {
  readonly name: string
  readonly document: string
  readonly sandbox?: boolean | undefined
  readonly scopes?: ReadonlyArray<string> | undefined
  readonly parentId?: string | undefined
  /** The merchant's e-mail, for `new.sale` notices. */
  readonly email?: string | undefined
  /** The operator's own account rather than a merchant's (spec: Limits, "internal accounts"); false when absent. */
  readonly internal?: boolean | undefined
  /** Fixed credentials (the sandbox bootstrap); generated when absent. */
  readonly clientId?: string | undefined
  readonly clientSecret?: string | undefined
}

export interface CreatedAccount {
  readonly accountId: AccountId
  readonly accountNumber: string
  readonly clientId: string
  readonly clientSecret: string
}

/**
 * A new account's record: a fresh id and number, and (sandbox) a random Pix
 * key so that its BR Codes are complete; production keys come from the
 * holder's bank registration.
 */
export const newAccount = Effect.fn("Accounts.newAccount")(function*(fields: {
  readonly name: string
  readonly document: string
  readonly sandbox: boolean
  readonly parentId: AccountId | null
  readonly email: string | null
  /** Only the operator opens internal accounts: a sub-account opened by onboarding is a merchant's. */
  readonly internal?: boolean | undefined
  readonly at: Date
}) {
  const ids = yield* Ids
  return new Account({
    id: yield* ids.make(AccountIds, { sandbox: fields.sandbox }),
    number: yield* (yield* Accounts).nextNumber,
    name: fields.name,
    document: fields.document,
    personType: fields.document.length === 11 ? "PF" : "PJ",
    sandbox: fields.sandbox,
    parentId: fields.parentId,
    pixKey: fields.sandbox ? yield* sandboxPixKey : null,
    city: "SAO PAULO",
    email: fields.email,
    internal: fields.internal ?? false,
    createdAt: fields.at
  })
})

export const createAccount = Effect.fn("Accounts.create")(function*(input: CreateAccountInput) {
  const document = normalizeDocument(input.document)
  if (input.name.trim().length === 0) {
    return yield* new InvalidData({ message: "name is required", details: { field: "name" } })
  }
  if (!isValidDocument(document)) {
    return yield* new InvalidData({ message: "document must be a valid CPF or CNPJ", details: { field: "document" } })
  }
  if (input.email !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(input.email)) {
    return yield* new InvalidData({ message: "email must be an e-mail address", details: { field: "email" } })
  }
  const scopes = input.scopes ?? AllScopes
  const unknown = scopes.filter((s) => !isScope(s))
  if (unknown.length > 0) {
    return yield* new InvalidData({ message: `unknown scope(s): ${unknown.join(", ")}`, details: { field: "scopes", unknown } })
  }
  const accounts = yield* Accounts
  const clients = yield* ApiClients
  const ids = yield* Ids
  const transactor = yield* Transactor
  let sandbox = input.sandbox ?? false
  // The parent's id as its record holds it: the one read back, not the caller's string.
  let parentId: AccountId | null = null
  if (input.parentId !== undefined) {
    // The operator names the master by its id: decoded as one (an unknown id is the NotFound below).
    const parent = yield* accounts.findById(AccountId.make(input.parentId))
    if (Option.isNone(parent) || parent.value.parentId !== null) {
      return yield* new NotFound({ message: `master account ${input.parentId} not found`, details: { field: "parent" } })
    }
    // A seller lives in its master's environment.
    sandbox = parent.value.sandbox
    parentId = parent.value.id
  }
  const clientSecret = input.clientSecret ?? (yield* ids.randomHex(32))
  const secretHash = yield* hashSecret(clientSecret)
  const now = new Date(yield* Clock.currentTimeMillis)
  return yield* transactor.withTransaction(Effect.gen(function*() {
    const account = yield* newAccount({
      name: input.name.trim(),
      document,
      sandbox,
      parentId,
      email: input.email ?? null,
      internal: input.internal ?? false,
      at: now
    })
    yield* accounts.insert(account)
    const clientId = input.clientId ?? `${sandbox ? "sandbox_" : ""}cli_${yield* ids.randomHex(12)}`
    yield* clients.insert({ clientId, accountId: account.id, secretHash, scopes: [...scopes], createdAt: now })
    return { accountId: account.id, accountNumber: account.number, clientId, clientSecret } satisfies CreatedAccount
  }))
})
