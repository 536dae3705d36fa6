/**
 * The webhook delivery's state machine, in one table as the charge's
 * (`ChargeTransitions.ts`). A delivery is stored `pending` until an attempt
 * ends it `delivered` or `failed`; a worker sending it holds it under a
 * lease meanwhile, and the API shows such a one as `sending` (a status
 * never stored: migration 0020). A failed delivery is not retried by
 * itself (spec: Events, Delivery rules 3); a manual resend may send any
 * delivery again. Storage applies a move as a conditional UPDATE
 * (`WHERE status IN from`), an attempt's only under the lease it was sent
 * under.
 */
import type { DeliveryStatus } from "../domain/Webhook.ts"

/** What a delivery's row holds: `sending` is a queued one under a lease, as the API shows it. */
export type StoredDeliveryStatus = Exclude<DeliveryStatus, "sending">

/** A delivery as it is fanned out from the outbox, or queued by the engine itself (`account_approved`). */
export const NEW_DELIVERY_STATUS: StoredDeliveryStatus = "pending"

/** Deliveries no attempt has ended yet, leased to a worker or not: what the workers lease. */
export const QUEUED_DELIVERY_STATUSES: ReadonlyArray<StoredDeliveryStatus> = [NEW_DELIVERY_STATUS]

/** Every status a delivery's row may hold: a manual resend takes a delivery in any. */
export const STORED_DELIVERY_STATUSES: ReadonlyArray<StoredDeliveryStatus> = ["pending", "delivered", "failed"]

/** What the API shows of a queued delivery a worker holds under a live lease (and what a listing's filter of it means). */
export const LEASED_DELIVERY_STATUS: DeliveryStatus = "sending"

/** What moves a delivery. */
export type DeliveryTrigger =
  /** A worker's attempt, under its lease: the receiver answered 2xx. */
  | "delivered"
  /** A worker's attempt, under its lease: the receiver answered otherwise or not at all, or the registration was inactive. */
  | "failed"
  /** `POST /v1/users/webhooks/{webhookEventId}/retry`: the receiver answered 2xx. */
  | "resentDelivered"
  /** `POST /v1/users/webhooks/{webhookEventId}/retry`: it failed again. */
  | "resentFailed"
  /** Its registration was removed: what it had waiting is never sent. */
  | "registrationRemoved"

export interface DeliveryTransition {
  readonly trigger: DeliveryTrigger
  readonly from: ReadonlyArray<StoredDeliveryStatus>
  readonly to: StoredDeliveryStatus
}

export const DeliveryTransitions = {
  delivered: { trigger: "delivered", from: QUEUED_DELIVERY_STATUSES, to: "delivered" },
  failed: { trigger: "failed", from: QUEUED_DELIVERY_STATUSES, to: "failed" },
  resentDelivered: { trigger: "resentDelivered", from: STORED_DELIVERY_STATUSES, to: "delivered" },
  resentFailed: { trigger: "resentFailed", from: STORED_DELIVERY_STATUSES, to: "failed" },
  registrationRemoved: { trigger: "registrationRemoved", from: QUEUED_DELIVERY_STATUSES, to: "failed" }
} as const satisfies { readonly [T in DeliveryTrigger]: DeliveryTransition & { readonly trigger: T } }

/** The status `trigger` moves a delivery in `from` to, or `undefined` when the table has no such move. */
export const nextDeliveryStatus = (from: StoredDeliveryStatus, trigger: DeliveryTrigger): StoredDeliveryStatus | undefined => {
  const transition: DeliveryTransition = DeliveryTransitions[trigger]
  return transition.from.includes(from) ? transition.to : undefined
}

/** The move an attempt's outcome makes: a worker's, sent under a lease, or a manual resend's (`leased` false). */
export const attemptTransition = (outcome: "delivered" | "failed", leased: boolean): DeliveryTransition =>
  outcome === "delivered"
    ? leased ? DeliveryTransitions.delivered : DeliveryTransitions.resentDelivered
    : leased ? DeliveryTransitions.failed : DeliveryTransitions.resentFailed

/**
 * What a listing's `status` filter takes of the stored rows when it names a
 * queued delivery: `sending` the ones under a lease, `pending` the others.
 * Null for any other status, which rows hold as it is named.
 */
export const queuedDeliveryFilter = (status: string): { readonly leased: boolean } | null =>
  status === LEASED_DELIVERY_STATUS ? { leased: true }
  : (QUEUED_DELIVERY_STATUSES as ReadonlyArray<string>).includes(status) ? { leased: false }
  : null
