/**
 * A webhook delivery moves by one table: a worker's attempt ends a queued
 * delivery (under its lease), a manual resend may send any again, and a
 * removed registration fails what it had waiting. Written out here by hand
 * from the spec's Events, Delivery rules and `webhooks/Delivery.ts`.
 */
import { describe, expect, it } from "vitest"
import {
  attemptTransition,
  DeliveryTransitions,
  type DeliveryTrigger,
  LEASED_DELIVERY_STATUS,
  NEW_DELIVERY_STATUS,
  nextDeliveryStatus,
  QUEUED_DELIVERY_STATUSES,
  queuedDeliveryFilter,
  STORED_DELIVERY_STATUSES,
  type StoredDeliveryStatus
} from "../../src/rules/DeliveryTransitions.ts"

const stored: ReadonlyArray<StoredDeliveryStatus> = ["pending", "delivered", "failed"]

const allowed: ReadonlyArray<readonly [StoredDeliveryStatus, DeliveryTrigger, StoredDeliveryStatus]> = [
  ["pending", "delivered", "delivered"],
  ["pending", "failed", "failed"],
  ...stored.map((from) => [from, "resentDelivered", "delivered"] as const),
  ...stored.map((from) => [from, "resentFailed", "failed"] as const),
  ["pending", "registrationRemoved", "failed"]
]

describe("delivery transitions", () => {
  const triggers = Object.keys(DeliveryTransitions) as ReadonlyArray<DeliveryTrigger>

  it("allows exactly the moves written here, and refuses every other pair", () => {
    const expected = new Map(allowed.map(([from, trigger, to]) => [`${from} ${trigger}`, to]))
    for (const from of stored) {
      for (const trigger of triggers) {
        expect(nextDeliveryStatus(from, trigger), `${from} on ${trigger}`).toBe(expected.get(`${from} ${trigger}`))
      }
    }
  })

  it("never retries a failed delivery by itself: only a manual resend moves it", () => {
    expect(triggers.filter((t) => nextDeliveryStatus("failed", t) !== undefined)).toEqual(["resentDelivered", "resentFailed"])
  })

  it("moves an attempt's delivery by whether it was sent under a lease", () => {
    expect(attemptTransition("delivered", true)).toBe(DeliveryTransitions.delivered)
    expect(attemptTransition("failed", true)).toBe(DeliveryTransitions.failed)
    expect(attemptTransition("delivered", false)).toBe(DeliveryTransitions.resentDelivered)
    expect(attemptTransition("failed", false)).toBe(DeliveryTransitions.resentFailed)
  })
})

describe("delivery statuses", () => {
  it("queues new deliveries pending, stores three statuses, and shows a leased one as sending", () => {
    expect(NEW_DELIVERY_STATUS).toBe("pending")
    expect(QUEUED_DELIVERY_STATUSES).toEqual(["pending"])
    expect([...STORED_DELIVERY_STATUSES].sort()).toEqual(["delivered", "failed", "pending"])
    expect(LEASED_DELIVERY_STATUS).toBe("sending")
  })

  it("lists sending as the queued rows under a lease, pending as the others, and any other status as rows hold it", () => {
    expect(queuedDeliveryFilter("sending")).toEqual({ leased: true })
    expect(queuedDeliveryFilter("pending")).toEqual({ leased: false })
    expect(queuedDeliveryFilter("delivered")).toBeNull()
    expect(queuedDeliveryFilter("failed")).toBeNull()
    expect(queuedDeliveryFilter("unknown")).toBeNull()
  })
})
