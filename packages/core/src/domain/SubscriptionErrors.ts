/** The error codes of the subscription routes (spec: Subscriptions, Errors). */
import { Schema } from "effect"
import { ErrorFields } from "./Errors.ts"

/** 404: unknown subscription, or another account's (they look the same). */
export class SubscriptionNotFound extends Schema.TaggedError<SubscriptionNotFound>()("SUBSCRIPTION_NOT_FOUND", ErrorFields, {
  httpApiStatus: 404
}) {}

/** 400: the subscription is already canceled (a cancel of one whose end is scheduled answers the schedule instead). */
export class SubscriptionAlreadyCanceled extends Schema.TaggedError<SubscriptionAlreadyCanceled>()("SUBSCRIPTION_ALREADY_CANCELED", ErrorFields, {
  httpApiStatus: 400
}) {}

/** 400: the subscription's status does not allow the change (the provider's code). */
export class SubscriptionNotEligible extends Schema.TaggedError<SubscriptionNotEligible>()("SUBSCRIPTION_NOT_ELIGIBLE", ErrorFields, {
  httpApiStatus: 400
}) {}

/** 404: no such item on the subscription. */
export class ItemNotFound extends Schema.TaggedError<ItemNotFound>()("ITEM_NOT_FOUND", ErrorFields, {
  httpApiStatus: 404
}) {}

/** 400 on the upgrade and add-item routes: the card was refused; `details.declinedCode` says why (not the checkout's 402). */
export class PaymentDeclined extends Schema.TaggedError<PaymentDeclined>()("PAYMENT_DECLINED", ErrorFields, {
  httpApiStatus: 400
}) {}

/** 400 on the upgrade and add-item routes: the payment could not be made (the acquirer did not answer, or no card is on file). */
export class PaymentFailed extends Schema.TaggedError<PaymentFailed>()("PAYMENT_FAILED", ErrorFields, {
  httpApiStatus: 400
}) {}

/** 404 of the prorata preview: the current price is not an item of the subscription. */
export class OldPriceNotFound extends Schema.TaggedError<OldPriceNotFound>()("OLD_PRICE_NOT_FOUND", ErrorFields, {
  httpApiStatus: 404
}) {}

/** 404 of the prorata preview: the new price does not exist on the account (or is inactive). */
export class NewPriceNotFound extends Schema.TaggedError<NewPriceNotFound>()("NEW_PRICE_NOT_FOUND", ErrorFields, {
  httpApiStatus: 404
}) {}
