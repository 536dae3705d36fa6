/**
 * `POST /v1/charges/pix`: an immediate Pix charge, or a Pix with due date
 * when `expiration` is given, on the caller's account (the seller's with
 * `X-Sub-Account`), with optional split on the net amount.
 */
import { Clock, Effect, Option, Result, Schema } from "effect"
import { Caller } from "../auth/Authenticate.ts"
import { endOfSaoPauloDay, saoPauloDate } from "../brazil/BankCalendar.ts"
import { qrPngDataUrl } from "../brazil/QrPng.ts"
import type { Account } from "../domain/Account.ts"
import { type Charge, type ChargeCustomer, type ChargeSplitPart, paymentTypeOf, unsettledCharge } from "../domain/Charge.ts"
import { ErrorFields, invalidData as invalid } from "../domain/Errors.ts"
import type { Cents } from "../money/Money.ts"
import { Charges } from "../ports/Charges.ts"
import { FeeSchedules } from "../ports/FeeSchedules.ts"
import { Ids } from "../ports/Ids.ts"
import { PixProvider } from "../ports/PixProvider.ts"
import { requireProvider } from "../ports/ProviderGate.ts"
import { Accounts } from "../ports/Accounts.ts"
import { computeFees, DEFAULT_SUBACCOUNT_PIX_FEE, type FeeSchedule, NO_FEES } from "../rules/Fees.ts"
import { computeSplit, fitSplit, type SplitMode, type SplitReceiver, validateSplit } from "../rules/Split.ts"
import type { PixChargeRequest, SplitItemInput } from "./PixChargeRequest.ts"
import { ChargeIds } from "../domain/Ids.ts"

/** 502: the Pix provider did not register the charge; nothing was stored. */
export class ProviderUnavailable extends Schema.TaggedError<ProviderUnavailable>()("PROVIDER_UNAVAILABLE", ErrorFields, {
  httpApiStatus: 502
}) {}

/** Lifetime of an immediate Pix without `expiration` (the BCB `cob` default of 86 400 s). */
export const DEFAULT_PIX_LIFETIME_MILLIS = 24 * 60 * 60 * 1000


/**
 * The fee schedule of `method` (`pix`, `boleto`, `creditcard`) for `account`:
 * its own, else its master's, else the spec's default (0.67 for a
 * sub-account's Pix; no fee otherwise).
 */
export const feeSchedule = Effect.fn("Charges.feeSchedule")(function*(account: Account, method: string) {
  const schedules = yield* FeeSchedules
  const own = yield* schedules.find(account.id, method)
  if (Option.isSome(own)) return own.value
  if (account.parentId === null) return NO_FEES
  const master = yield* schedules.find(account.parentId, method)
  return Option.getOrElse(master, (): FeeSchedule => (method === "pix" ? DEFAULT_SUBACCOUNT_PIX_FEE : NO_FEES))
})

/**
 * The buyer of a Pix charge. Each field was checked by decoding; what is left
 * are the rules between fields: `name` and `cep` come only with
 * `expiration`, and then together with `documentNumber`.
 */
const checkCustomer = (customer: PixChargeRequest["customer"], withDueDate: boolean) => {
  if (customer === undefined) return Result.succeed<ChargeCustomer | null>(null)
  const fail = (field: string, message: string) => Result.fail(invalid(`customer.${field}`, message))
  if (!withDueDate && (customer.name !== undefined || customer.cep !== undefined)) {
    return fail(customer.name !== undefined ? "name" : "cep", "customer.name and customer.cep are accepted only with expiration")
  }
  if (withDueDate) {
    for (const field of ["documentNumber", "name", "cep"] as const) {
      if (!customer[field]) return fail(field, `customer.${field} is required with expiration`)
    }
  }
  return Result.succeed<ChargeCustomer | null>({
    documentNumber: customer.documentNumber ?? null,
    name: customer.name?.trim() ?? null,
    email: customer.email ?? null,
    phone: customer.phone ?? null,
    cep: customer.cep ?? null
  })
}

/** Resolves split receivers: sub-accounts of the master, or the master itself from a seller's charge. */
export const resolveReceivers = Effect.fn("Charges.resolveReceivers")(function*(
  split: ReadonlyArray<SplitItemInput>,
  owner: Account,
  master: Account
) {
  const accounts = yield* Accounts
  const receivers: Array<SplitReceiver<Account>> = []
  for (const [i, item] of split.entries()) {
    const field = `split[${i}]`
    let receiver: Account
    if (item.accountNumber === undefined || item.accountNumber === "") {
      if (owner.id === master.id) return yield* invalid(`${field}.accountNumber`, "accountNumber is required on a charge of the master account")
      receiver = master
    } else if (item.accountNumber === master.number) {
      receiver = master
    } else {
      const sub = yield* accounts.findSubAccount(master.id, item.accountNumber)
      if (Option.isNone(sub)) return yield* invalid(`${field}.accountNumber`, `account ${item.accountNumber} is not a sub-account of this master`)
      receiver = sub.value
    }
    if (receiver.id === owner.id) return yield* invalid(`${field}.accountNumber`, "a charge cannot split to its own account")
    receivers.push(
      item.type === "fixed"
        ? { type: "fixed", amount: item.amount, account: receiver }
        : { type: "percentage", percentHundredths: item.amount, account: receiver }
    )
  }
  yield* Effect.fromResult(validateSplit(receivers))
  return receivers
})

/**
 * The split parts of a charge of `owner` on `net`, receivers resolved and
 * checked; a net they do not fit is refused or fitted as `mode` says, and a
 * receiver a fitted net pays nothing has no part.
 */
export const splitParts = Effect.fn("Charges.splitParts")(function*(
  split: ReadonlyArray<SplitItemInput>,
  net: Cents,
  owner: Account,
  master: Account,
  mode: SplitMode = "refuse"
) {
  const receivers = yield* resolveReceivers(split, owner, master)
  const computed = mode === "fit" ? fitSplit(net, receivers) : yield* Effect.fromResult(computeSplit(net, receivers))
  return computed.parts.flatMap((part, i): Array<ChargeSplitPart> => {
    const r = receivers[i]!
    if (part.amount === 0) return []
    return [{
      accountId: part.account.id,
      accountNumber: part.account.number,
      type: part.type,
      value: r.type === "fixed" ? r.amount : r.percentHundredths,
      amount: part.amount
    }]
  })
})

/** A fresh txid of 25 letters and digits, the most a static or dynamic code takes. */
export const newTxid = Effect.map(Ids, (ids) => ids.randomHex(12)).pipe(Effect.flatten, Effect.map((hex) => `B${hex.toUpperCase()}`))

export const createPixCharge = Effect.fn("Charges.createPix")(function*(request: PixChargeRequest) {
  const caller = yield* Caller
  const owner = caller.account
  if (request.paymentMethod !== undefined && request.paymentMethod !== "pix") {
    return yield* invalid("paymentMethod", "paymentMethod must be pix on this route")
  }
  const now = yield* Clock.currentTimeMillis
  let dueDate: string | null = null
  let expiresAt = new Date(now + DEFAULT_PIX_LIFETIME_MILLIS)
  if (request.expiration !== undefined) {
    if (request.expiration < saoPauloDate(now)) return yield* invalid("expiration", "expiration must not be in the past")
    dueDate = request.expiration
    expiresAt = endOfSaoPauloDay(request.expiration)
  }
  const customer = yield* Effect.fromResult(checkCustomer(request.customer, dueDate !== null))
  yield* requireProvider(owner, "pix")

  const schedule = yield* feeSchedule(owner, "pix")
  const fees = computeFees(request.amount, schedule)
  const split = request.split !== undefined && request.split.length > 0
    ? yield* splitParts(request.split, fees.net, owner, caller.master)
    : null

  const ids = yield* Ids
  const id = yield* ids.make(ChargeIds, { sandbox: owner.sandbox })
  const txid = yield* newTxid
  const provider = yield* PixProvider
  const { emv, psp } = yield* provider.createCharge({
    receiver: owner,
    txid,
    amount: request.amount,
    expiresAt,
    dueDate,
    description: null,
    payer: customer?.name == null || customer.documentNumber == null ? null : { name: customer.name, document: customer.documentNumber }
  }).pipe(Effect.mapError((e) => new ProviderUnavailable({ message: "Provedor Pix indisponível", details: { reason: e.message } })))

  const at = new Date(now)
  const charge: Charge = {
    id,
    accountId: owner.id,
    masterAccountId: caller.master.id,
    paymentType: paymentTypeOf.pix,
    status: "PENDING",
    amount: request.amount,
    fee: fees.fees.total,
    feeFixed: fees.fees.fixed,
    feePercentHundredths: schedule.percentHundredths,
    net: fees.net,
    txid,
    emv,
    psp,
    externalTxid: request.externalTxid ?? null,
    description: null,
    metadata: request.metadata ?? null,
    customer,
    split,
    dueDate,
    expiresAt,
    ...unsettledCharge,
    subscriptionId: null,
    cycleNumber: null,
    externalId: null,
    customerId: null,
    card: null,
    boleto: null,
    address: null,
    notifications: null,
    createdAt: at,
    updatedAt: at
  }
  // One row and no event: a single INSERT is its own transaction.
  yield* (yield* Charges).insert(charge)
  return {
    chargeId: id,
    emv,
    qrCode: qrPngDataUrl(emv),
    ...(request.metadata === undefined ? {} : { metadata: request.metadata })
  }
})
