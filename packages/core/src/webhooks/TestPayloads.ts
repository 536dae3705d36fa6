/**
 * Fictional payloads of `POST /v1/users/webhooks/test`. They follow the quirks
 * the spec documents for test deliveries, which differ from real ones on
 * purpose so receivers can tell them apart: the account key is always
 * `accountNumber`, `subscription.trial` carries a `trial` object and
 * `subscription.canceled` has `currentCycle: null`.
 */
import type { EventName } from "../domain/Events.ts"

const customer = {
  customerId: "cus_test000000000000",
  name: "Cliente Teste",
  email: "cliente@example.com",
  taxId: "12345678909",
  phone: "+5511999999999"
}

const subscriptionBase = (timestamp: string) => ({
  subscriptionId: "sub_test000000000000",
  customerId: customer.customerId,
  customer,
  items: [{
    itemId: "item_test000000000000",
    name: "Plano Teste",
    amount: 99.9,
    quantity: 1,
    type: "RECURRING",
    price: { title: "Mensal", amount: 99.9, recurrenceType: "MONTHLY", recurrenceInterval: 1, trialDays: 7 }
  }],
  currentCycle: { cycleNumber: 1, status: "PAID", amount: 99.9, chargeDate: timestamp.slice(0, 10) }
})

export const samplePayload = (event: EventName, accountNumber: string, now: Date): Record<string, unknown> => {
  const timestamp = now.toISOString()
  const common = { event, timestamp, accountNumber }
  if (event.startsWith("subscription.")) {
    const base = subscriptionBase(timestamp)
    if (event === "subscription.trial") {
      return { ...common, ...base, trial: { days: 7, endsAt: new Date(now.getTime() + 7 * 86_400_000).toISOString() } }
    }
    if (event === "subscription.canceled") return { ...common, ...base, currentCycle: null }
    return { ...common, ...base }
  }
  switch (event) {
    case "payment.success":
      return {
        ...common,
        chargeId: "cha_test000000000000",
        amount: 10,
        paymentMethod: "PIX",
        paymentId: "E00000000202601010000TESTE000000",
        paidAt: timestamp,
        metadata: null,
        payer: { name: "Pagador Teste", taxId: "12345678909", bank: "00000000", account: "12345", branch: "0001", accountType: "CACC" }
      }
    case "payment.failed":
      return { ...common, chargeId: "cha_test000000000000", failed: "card_declined", amount: 10 }
    case "payment.overdue":
    case "charge.created":
    case "charge.expired":
      return { ...common, ...subscriptionBase(timestamp), chargeId: "cha_test000000000000", status: event === "charge.expired" ? "EXPIRED" : "PENDING", amount: 10 }
    case "refund.requested":
    case "refund.confirmed":
    case "refund.failed":
      return {
        ...common,
        refundId: "ref_test000000000000",
        chargeId: "cha_test000000000000",
        amount: 10,
        customer,
        status: event === "refund.requested" ? "PROCESSING" : event === "refund.confirmed" ? "CONFIRMED" : "ERROR"
      }
    default:
      return { ...common, data: {} }
  }
}
