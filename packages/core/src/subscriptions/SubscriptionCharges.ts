/**
 * The charges a subscription asks for after its checkout (a plan change's
 * prorata; the billing run's later cycles), made by the checkout's own
 * method strategies from the subscription's buyer, card and terms: a
 * subscription's Pix, boleto or card charge is always exactly a checkout's.
 */
import { Clock, Effect, Option, Schema, Struct } from "effect"
import { saoPauloDate } from "../brazil/BankCalendar.ts"
import { prepareBoleto } from "../checkout/BoletoCheckout.ts"
import { prepareCard } from "../checkout/CardCheckout.ts"
import { CheckoutRequest } from "../checkout/CheckoutRequest.ts"
import { chargeMethodOf, type CheckoutOrder } from "../checkout/ParseCheckout.ts"
import { preparePix } from "../checkout/PixCheckout.ts"
import { type CheckoutDraft, draftCheckout } from "../checkout/ReserveCheckout.ts"
import type { ChargeAddress } from "../domain/Charge.ts"
import type { PaymentMethod } from "../domain/PaymentMethod.ts"
import type { BillableSubscription } from "../domain/Subscription.ts"
import { type Cents, cents, toDecimalString } from "../money/Money.ts"
import { percentFromHundredths } from "../money/Rounding.ts"
import { Accounts } from "../ports/Accounts.ts"
import { Charges } from "../ports/Charges.ts"
import type { AccountId } from "../domain/Ids.ts"

/**
 * The part of a checkout request a subscription's charge fills in, decoded as
 * the whole request's fields are: a billing run decodes one per cycle, and
 * the few fields cost a fraction of the whole request's fifty.
 */
const SubscriptionChargeRequest = CheckoutRequest.mapFields(Struct.pick([
  "paymentMethod",
  "customer",
  "amount",
  "description",
  "paymentMethodId",
  "expiration",
  "dueDate",
  "boletoInstructions",
  "expirationAfterDueDate",
  "split"
]))
const decodeRequest = Schema.decodeUnknownEffect(SubscriptionChargeRequest)

/** The account `id`; its absence is a defect (a subscription's account is never removed). */
const account = (id: AccountId) =>
  Effect.flatMap(Effect.flatMap(Accounts, (accounts) => accounts.findById(id)), (found) =>
    Option.match(found, { onNone: () => Effect.die(new Error(`account ${id} of a subscription is missing`)), onSome: Effect.succeed }))

/** What a subscription's charge is for; `address` when the caller read it already (a batch), else it is read here. */
export interface SubscriptionChargeInput {
  readonly amount: Cents
  readonly cycleNumber: number | null
  readonly dueDate: string | null
  readonly description: string
  /** The address the subscription's charges are billed to (`Charges.billingAddresses`), null for none. */
  readonly address?: ChargeAddress | null
  /** The subscription's card on file (`PaymentMethods.findMany`), when the caller read it already; none when it is gone. */
  readonly card?: Option.Option<PaymentMethod>
}

/**
 * The checkout request a subscription's charge is made from: its buyer (with
 * the address of its first charge, which a boleto needs), its method and
 * card token, its split, boleto instructions and grace days. Decoded like
 * any request, so it is checked as a client's would be.
 */
const requestOf = Effect.fnUntraced(function*(
  aggregate: BillableSubscription,
  input: SubscriptionChargeInput,
  today: string
) {
  const sub = aggregate.subscription
  const address = input.address !== undefined
    ? input.address
    : (yield* (yield* Charges).billingAddresses([sub.id])).get(sub.id) ?? null
  const method = chargeMethodOf(sub.paymentMethod)
  const due = input.dueDate !== null && input.dueDate > today ? input.dueDate : undefined
  const raw = {
    paymentMethod: method,
    customer: {
      name: sub.name,
      email: sub.email,
      documentNumber: sub.document,
      phone: sub.phone,
      address: address === null ? null : { ...address, country: "BR" }
    },
    amount: 0.01,
    description: input.description,
    paymentMethodId: method === "creditcard" ? sub.paymentMethodId : null,
    expiration: method === "pix" ? due ?? null : null,
    dueDate: method === "boleto" ? due ?? null : null,
    boletoInstructions: method === "boleto" ? sub.boletoInstructions : null,
    expirationAfterDueDate: sub.expirationAfterDueDate,
    // Stored in centavos or hundredths of a percent; requests send reais or percent. A fixed
    // part is a cycle's: a plan change's prorata splits only by percentage.
    split: sub.splitRules
      ?.filter((rule) => input.cycleNumber !== null || rule.type === "percentage")
      .map((rule) => ({
        type: rule.type,
        amount: rule.type === "fixed" ? toDecimalString(cents(rule.value)) : percentFromHundredths(rule.value),
        accountNumber: rule.accountNumber
      })) ?? null
  }
  return yield* Effect.orDie(decodeRequest(raw))
})

/**
 * Prepares a charge of `amount` for the subscription (for cycle
 * `cycleNumber`, or none for a plan change's prorata), due on `dueDate` when
 * that is after today. Answers the draft and what the method's strategy made
 * of it; the caller reserves it (`reserveCheckout`) with what it records
 * alongside, then settles it.
 */
export const prepareSubscriptionCharge = Effect.fn("Subscriptions.prepareCharge")(function*(
  aggregate: BillableSubscription,
  input: SubscriptionChargeInput
) {
  const sub = aggregate.subscription
  const today = saoPauloDate(yield* Clock.currentTimeMillis)
  const request = yield* requestOf(aggregate, input, today)
  const owner = yield* account(sub.accountId)
  const master = sub.masterAccountId === sub.accountId ? owner : yield* account(sub.masterAccountId)
  const order: CheckoutOrder = {
    request,
    paymentMethod: chargeMethodOf(request.paymentMethod),
    pixAutomatico: false,
    notifications: null,
    buyer: { name: sub.name, document: sub.document, email: sub.email, phone: sub.phone },
    savedCard: input.card,
    // The split was checked when the subscription began; a later cycle's net (a coupon, a
    // downgrade, a credit) may not fit it, and a refusal would leave the cycle unissued for ever.
    splitMode: "fit"
  }
  const drafted = yield* draftCheckout(order, { amount: input.amount, priceIds: undefined, couponId: undefined }, { account: owner, master })
  const draft: CheckoutDraft = { ...drafted, common: { ...drafted.common, subscriptionId: sub.id, cycleNumber: input.cycleNumber } }
  const prepared = order.paymentMethod === "pix"
    ? yield* preparePix(order, draft)
    : order.paymentMethod === "boleto"
    ? yield* prepareBoleto(order, draft)
    : yield* prepareCard(order, draft)
  return { draft, prepared }
})
