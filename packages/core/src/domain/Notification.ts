import { Schema } from "effect"
import { AccountId, ChargeId } from "./Ids.ts"

/** The e-mails a charge can send (spec: Transparent checkout `notifications`). */
export const NotificationKinds = ["oneoff.pix.generated", "oneoff.payment.success", "oneoff.payment.failed", "new.sale"] as const
export const NotificationKind = Schema.Literals(NotificationKinds)
export type NotificationKind = typeof NotificationKind.Type

/** An e-mail waiting in the queue (or sent): recorded in the transaction of the change that caused it. */
export const Notification = Schema.Struct({
  id: Schema.String,
  accountId: AccountId,
  chargeId: ChargeId,
  kind: NotificationKind,
  recipient: Schema.String,
  subject: Schema.String,
  body: Schema.String
}).annotate({ identifier: "Notification" })
export type Notification = typeof Notification.Type
