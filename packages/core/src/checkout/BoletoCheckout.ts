/**
 * The boleto strategy of `POST /v1/charges`: the buyer's complete address, a
 * due date after today, and the boleto registered at the bank before the
 * reserve, with its payer and the days it stays payable after the due date
 * (the charge records the bank's number, codes and Pix). Answers
 * `boleto.digitableLine`, `barCode`, the PDF's path and the due date.
 */
import { Effect } from "effect"
import { endOfSaoPauloDay, saoPauloDate } from "../brazil/BankCalendar.ts"
import { addDays } from "../brazil/CalendarDate.ts"
import { ProviderUnavailable } from "../charges/CreatePixCharge.ts"
import { type ChargeAddress, paymentTypeOf } from "../domain/Charge.ts"
import { InvalidData, invalidData as invalid } from "../domain/Errors.ts"
import { BoletoIssuer, type BoletoIssuerError, type BoletoPayer, type BoletoRefused } from "../ports/BoletoIssuer.ts"
import { requireProvider } from "../ports/ProviderGate.ts"
import { lastPayableDate } from "../rules/CycleSchedule.ts"
import { chargeAddressOf } from "./BuyerAddress.ts"
import type { CheckoutRequest } from "./CheckoutRequest.ts"
import type { CheckoutOrder } from "./ParseCheckout.ts"
import { feesAndSplit } from "./PriceCheckout.ts"
import type { CheckoutDraft, CheckoutResult, PendingCharge, PreparedCharge } from "./ReserveCheckout.ts"
import type { CustomerId } from "../domain/Ids.ts"

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

/** Who the bank registers the boleto to: the buyer, with the address the charge records. */
const payerOf = (buyer: CheckoutOrder["buyer"], address: ChargeAddress): BoletoPayer => ({
  name: buyer.name,
  document: buyer.document,
  email: buyer.email,
  address: {
    street: address.street,
    number: address.number,
    complement: address.complement,
    neighborhood: address.neighborhood,
    city: address.city,
    state: address.state,
    zipCode: address.zipCode
  }
})

/**
 * The bank's answer as the checkout's error. A refusal is about this request
 * (a payer or an amount the bank will not register) and asking again changes
 * nothing: 400 `INVALID_DATA` naming the bank and its reason. Anything else
 * is an outage: 502 `PROVIDER_UNAVAILABLE`, to be tried again.
 */
const issueError = (error: BoletoIssuerError | BoletoRefused) =>
  error._tag === "BoletoRefused"
    ? new InvalidData({ message: "O banco recusou o registro do boleto", details: { provider: "boleto", reason: error.message } })
    : new ProviderUnavailable({ message: "Emissor de boleto indisponível", details: { provider: "boleto", reason: error.message } })

/**
 * Checks the address and the due date, prices the boleto (fees, split) and
 * registers it at the bank. Nothing is recorded when the bank refuses (400
 * `INVALID_DATA`) or cannot be reached (502 `PROVIDER_UNAVAILABLE`). The
 * charge expires at the end of its last payable day, the day the bank stops
 * taking it too (`daysPayableAfterDue`).
 */
export const prepareBoleto = Effect.fn("Checkout.boleto")(function*(order: CheckoutOrder, draft: CheckoutDraft) {
  const { request } = order
  const address = yield* completeAddress(request.customer.address)
  const { dueDate, grace } = yield* boletoTerms(request, saoPauloDate(draft.now))
  yield* requireProvider(draft.owner, "boleto")
  const money = yield* feesAndSplit("boleto", draft.amount, request.split, draft, order.splitMode)
  const id = draft.common.id
  const issued = yield* (yield* BoletoIssuer).issue({
    receiver: draft.owner,
    reference: id,
    amount: money.amount,
    dueDate,
    payer: payerOf(order.buyer, address),
    daysPayableAfterDue: grace
  }).pipe(Effect.mapError(issueError))
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
    boleto: {
      bankCode: issued.bankCode,
      ourNumber: issued.ourNumber,
      barcode: issued.barcode,
      digitableLine: issued.digitableLine,
      dueDate,
      instructions: request.boletoInstructions ?? null,
      pixCopiaECola: issued.pixCopiaECola ?? null
    },
    address
  }
  const boleto = { digitableLine: issued.digitableLine, barCode: issued.barcode, pdfPath: `/v1/charges/${id}/boleto.pdf`, dueDate }
  return {
    pending,
    notify: [],
    settle: (customerId: CustomerId) => Effect.succeed<CheckoutResult>({ success: true, customerId, chargeId: id, status: "pending", boleto })
  } satisfies PreparedCharge<never, never>
})
