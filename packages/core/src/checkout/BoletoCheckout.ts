/**
 * The boleto strategy of `POST /v1/charges`: the buyer's complete address, a
 * due date after today, and the boleto issued before the reserve (the charge
 * records its number and line). Answers `boleto.digitableLine`, `barCode`,
 * the PDF's path and the due date.
 */
import { Effect } from "effect"
import { endOfSaoPauloDay, saoPauloDate } from "../brazil/BankCalendar.ts"
import { addDays } from "../brazil/CalendarDate.ts"
import { ProviderUnavailable } from "../charges/CreatePixCharge.ts"
import { paymentTypeOf } from "../domain/Charge.ts"
import { invalidData as invalid } from "../domain/Errors.ts"
import { BoletoIssuer } from "../ports/BoletoIssuer.ts"
import { requireProvider } from "../ports/ProviderGate.ts"
import { lastPayableDate } from "../rules/CycleSchedule.ts"
import { chargeAddressOf } from "./BuyerAddress.ts"
import type { CheckoutRequest } from "./CheckoutRequest.ts"
import type { CheckoutOrder } from "./ParseCheckout.ts"
import { feesAndSplit } from "./PriceCheckout.ts"
import type { CheckoutDraft, CheckoutResult, PendingCharge, PreparedCharge } from "./ReserveCheckout.ts"

/** Days a boleto is payable for when neither `dueDate` nor `boletoDueDays` is sent (the provider's default). */
export const DEFAULT_BOLETO_DUE_DAYS = 30

/** The buyer's address, complete as a boleto requires it. */
const completeAddress = Effect.fnUntraced(function*(address: CheckoutRequest["customer"]["address"]) {
  if (address === undefined) return yield* invalid("customer.address", "customer.address is required for boleto")
  const recorded = chargeAddressOf(address)
  if ("missing" in recorded) return yield* invalid(`customer.address.${recorded.missing}`, `customer.address.${recorded.missing} is required for boleto`)
  return recorded.address
})

/** The due date (`dueDate` after today, else `boletoDueDays` from today) and the days it stays payable after it. */
const boletoTerms = Effect.fnUntraced(function*(request: CheckoutRequest, today: string) {
  let dueDate: string
  if (request.dueDate !== undefined) {
    if (request.dueDate <= today) return yield* invalid("dueDate", "dueDate must be a date YYYY-MM-DD after today")
    dueDate = request.dueDate
  } else {
    const days = request.boletoDueDays ?? DEFAULT_BOLETO_DUE_DAYS
    if (days < 1 || days > 365) return yield* invalid("boletoDueDays", "boletoDueDays must be 1 to 365")
    dueDate = addDays(today, days)
  }
  const grace = request.expirationAfterDueDate ?? 0
  if (grace < 0 || grace > 60) return yield* invalid("expirationAfterDueDate", "expirationAfterDueDate must be 0 to 60")
  return { dueDate, grace }
})

/**
 * Checks the address and the due date, prices the boleto (fees, split) and
 * issues it. Nothing is recorded when the issuer fails (502
 * `PROVIDER_UNAVAILABLE`). The charge expires at the end of its last payable day.
 */
export const prepareBoleto = Effect.fn("Checkout.boleto")(function*(order: CheckoutOrder, draft: CheckoutDraft) {
  const { request } = order
  const address = yield* completeAddress(request.customer.address)
  const { dueDate, grace } = yield* boletoTerms(request, saoPauloDate(draft.now))
  yield* requireProvider(draft.owner, "boleto")
  const money = yield* feesAndSplit("boleto", draft.amount, request.split, draft)
  const id = draft.common.id
  const issued = yield* (yield* BoletoIssuer).issue({ receiver: draft.owner, reference: id, amount: money.amount, dueDate }).pipe(
    Effect.mapError((e) => new ProviderUnavailable({ message: "Emissor de boleto indisponível", details: { reason: e.message } }))
  )
  const pending: PendingCharge = {
    ...draft.common,
    ...money,
    paymentType: paymentTypeOf.boleto,
    status: "PENDING",
    txid: issued.ourNumber,
    emv: null,
    psp: null,
    dueDate,
    expiresAt: endOfSaoPauloDay(lastPayableDate(dueDate, grace)),
    card: null,
    boleto: { ...issued, dueDate, instructions: request.boletoInstructions ?? null },
    address
  }
  const boleto = { digitableLine: issued.digitableLine, barCode: issued.barcode, pdfPath: `/v1/charges/${id}/boleto.pdf`, dueDate }
  return {
    pending,
    notify: [],
    settle: (customerId: string) => Effect.succeed<CheckoutResult>({ success: true, customerId, chargeId: id, status: "pending", boleto })
  } satisfies PreparedCharge<never, never>
})
