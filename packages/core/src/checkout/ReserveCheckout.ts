/**
 * Stage 3 of `POST /v1/charges`: the command recorded in one transaction.
 * The draft fixes the instant, the ids and the fields every method's charge
 * shares; the reserve writes the customer, the charge under its idempotency
 * key, the coupon use and the first e-mails, or nothing.
 */
import { Clock, Effect } from "effect"
import type { Account } from "../domain/Account.ts"
import { type Charge, DuplicateCharge, unsettledCharge } from "../domain/Charge.ts"
import type { Customer } from "../domain/Customer.ts"
import type { Cents } from "../money/Money.ts"
import type { Acquirer } from "../ports/Acquirer.ts"
import { Charges } from "../ports/Charges.ts"
import { Coupons } from "../ports/Coupons.ts"
import { Customers } from "../ports/Customers.ts"
import { Ids } from "../ports/Ids.ts"
import type { NotificationKind } from "../domain/Notification.ts"
import { Transactor } from "../ports/Transactor.ts"
import { completeAddressOrNull } from "./BuyerAddress.ts"
import { enqueueChargeNotifications } from "./ChargeNotifications.ts"
import type { CheckoutOrder } from "./ParseCheckout.ts"
import type { AcquirerAnswer } from "./CardCheckout.ts"
import { type CheckoutPrice, couponRefused } from "./PriceCheckout.ts"
import { ChargeId, ChargeIds, type CouponId, CustomerId, CustomerIds } from "../domain/Ids.ts"

/** A charge as its payment method makes it, before the buyer is matched to a customer. */
export type PendingCharge = Omit<Charge, "customerId" | "customer">

/** The fields of a charge that its payment method decides. */
type MethodFields =
  | "paymentType" | "status" | "amount" | "fee" | "feeFixed" | "feePercentHundredths" | "net" | "split"
  | "txid" | "emv" | "psp" | "dueDate" | "expiresAt" | "card"

/** What a purchase is before its payment method acts: fixed once, read by every strategy. */
export interface CheckoutDraft {
  /** The instant of the command, from the Clock, in milliseconds. */
  readonly now: number
  /** The account that receives the charge (a seller's with `X-Sub-Account`) and its master. */
  readonly owner: Account
  readonly master: Account
  /** What the buyer pays before the method's fees and installments. */
  readonly amount: Cents
  readonly couponId: CouponId | undefined
  /** The buyer as it is created when its document is new to the account. */
  readonly customer: Customer
  /** The fields every method's charge shares, its id among them. */
  readonly common: Omit<PendingCharge, MethodFields>
}

/**
 * The 200 of `POST /v1/charges`: `pix` for Pix, `boleto` for boleto (its PDF
 * as a path, which the HTTP edge makes absolute), neither for a paid card.
 */
export type CheckoutResult =
  | CheckoutResultOf<"pending", {
    /** `recurrencyId`: the Pix Automático recurrence the code also offers. */
    readonly pix: { readonly emv: string; readonly qrCode: string; readonly recurrencyId?: string }
    readonly boleto?: undefined
  }>
  | CheckoutResultOf<"pending", {
    readonly boleto: { readonly digitableLine: string; readonly barCode: string; readonly pdfPath: string; readonly dueDate: string }
    readonly pix?: undefined
  }>
  | CheckoutResultOf<"paid", { readonly pix?: undefined; readonly boleto?: undefined }>

type CheckoutResultOf<Status, Method> = {
  readonly success: true
  readonly customerId: CustomerId
  readonly chargeId: ChargeId
  readonly status: Status
} & Method

/**
 * What a payment method hands to the reserve: the charge to record, the
 * e-mails to record with it (those the charge asked for are sent), and what
 * follows once it is recorded.
 */
export interface PreparedCharge<E, R> {
  readonly pending: PendingCharge
  /** The Pix Automático recurrence registered with the charge, if any. */
  readonly recurrencyId?: string | null
  readonly notify: ReadonlyArray<NotificationKind>
  /** Called with the customer's id after the reserve: the card's authorization, the response of the others. */
  readonly settle: (customerId: CustomerId) => Effect.Effect<CheckoutResult, E, R>
  /**
   * A card's authorization alone, its answer not recorded: for callers that
   * record many answers at once (the billing run); `settle` asks and records.
   */
  readonly acquirerAnswer?: Effect.Effect<AcquirerAnswer, never, Acquirer>
}

/**
 * Fixes the instant, the ids (the customer's, then the charge's: a
 * deterministic `Ids` layer hands them out in this order) and the fields of
 * the charge that do not depend on its method.
 */
export const draftCheckout = Effect.fn("Checkout.draft")(function*(
  order: CheckoutOrder,
  price: CheckoutPrice,
  caller: { readonly account: Account; readonly master: Account }
) {
  const owner = caller.account
  const now = yield* Clock.currentTimeMillis
  const at = new Date(now)
  const ids = yield* Ids
  const customer: Customer = {
    id: yield* ids.make(CustomerIds, { sandbox: owner.sandbox }),
    accountId: owner.id,
    ...order.buyer,
    status: "ACTIVE",
    address: null,
    deletedAt: null,
    createdAt: at,
    updatedAt: at
  }
  const common: CheckoutDraft["common"] = {
    id: yield* ids.make(ChargeIds, { sandbox: owner.sandbox }),
    accountId: owner.id,
    masterAccountId: caller.master.id,
    externalTxid: order.request.externalTxid ?? null,
    description: order.request.description ?? null,
    // `metadata` is accepted and not stored on this route (spec: General rule 10).
    metadata: null,
    ...unsettledCharge,
    subscriptionId: null,
    cycleNumber: null,
    externalId: order.request.externalId ?? null,
    boleto: null,
    // The buyer's complete address, when sent: a fiscal note prints it (a boleto's own replaces it).
    address: completeAddressOrNull(order.request.customer.address),
    notifications: order.notifications,
    createdAt: at,
    updatedAt: at
  }
  return { now, owner, master: caller.master, amount: price.amount, couponId: price.couponId, customer, common } satisfies CheckoutDraft
})

/**
 * Records the command in one transaction: the customer (created, or matched
 * by document), the charge under its `externalId` (409 `DUPLICATE_CHARGE`
 * with the original's id when repeated), the coupon use (refused when the
 * coupon ran out meanwhile) and the e-mails `notify`. Answers the customer's
 * id. A method that calls a provider after this (the card) cannot reach it
 * twice for one `externalId`.
 */
export const reserveCheckout = Effect.fn("Checkout.reserve")(
  function*<E = never, R = never>(
    draft: CheckoutDraft,
    pending: PendingCharge,
    notify: ReadonlyArray<NotificationKind>,
    /** What else the command records with the charge (a subscription's records), in the same transaction; its failure undoes all. */
    alongside: (charge: Charge) => Effect.Effect<void, E, R> = () => Effect.void
  ) {
    const { customer } = yield* (yield* Customers).insertIfAbsent(draft.customer)
    const charge: Charge = {
      ...pending,
      customerId: customer.id,
      customer: { documentNumber: draft.customer.document, name: customer.name, email: customer.email, phone: customer.phone, cep: null }
    }
    const result = yield* (yield* Charges).insertUnlessDuplicate(charge)
    if (!result.inserted) {
      return yield* new DuplicateCharge({ message: `Já existe uma cobrança com externalId ${pending.externalId}`, details: { chargeId: result.existingId } })
    }
    const redemption = { customerDocument: draft.customer.document, reference: charge.id, at: pending.createdAt }
    if (draft.couponId !== undefined && !(yield* (yield* Coupons).redeem(draft.couponId, redemption))) {
      return yield* couponRefused("COUPON_EXHAUSTED")
    }
    yield* alongside(charge)
    yield* enqueueChargeNotifications(charge, notify)
    return customer.id
  },
  (body) => Effect.flatMap(Transactor, (transactor) => transactor.withTransaction(body))
)
