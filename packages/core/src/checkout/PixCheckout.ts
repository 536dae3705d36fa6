/**
 * The Pix strategy of `POST /v1/charges`: an immediate Pix, or a Pix with due
 * date when `expiration` is sent, registered with the Pix provider before the
 * reserve (the charge records the provider's code). Answers `pix.emv` and
 * `pix.qrCode` (spec: General rule 11).
 */
import { Effect } from "effect"
import { endOfSaoPauloDay, saoPauloDate } from "../brazil/BankCalendar.ts"
import { qrPngDataUrl } from "../brazil/QrPng.ts"
import { DEFAULT_PIX_LIFETIME_MILLIS, newTxid, ProviderUnavailable } from "../charges/CreatePixCharge.ts"
import { paymentTypeOf } from "../domain/Charge.ts"
import { invalidData as invalid } from "../domain/Errors.ts"
import { PixProvider, type PixProviderError } from "../ports/PixProvider.ts"
import { requireProvider } from "../ports/ProviderGate.ts"
import { lastPayableDate } from "../rules/CycleSchedule.ts"
import type { CheckoutOrder } from "./ParseCheckout.ts"
import { feesAndSplit } from "./PriceCheckout.ts"
import type { CheckoutDraft, CheckoutResult, PendingCharge, PreparedCharge } from "./ReserveCheckout.ts"
import type { CustomerId } from "../domain/Ids.ts"

/**
 * Prices the Pix (fees, split), checks `expiration` (a date, today or later)
 * and registers the charge with the provider. Nothing is recorded when the
 * provider fails (502 `PROVIDER_UNAVAILABLE`).
 */
export const preparePix = Effect.fn("Checkout.pix")(function*(
  order: CheckoutOrder,
  draft: CheckoutDraft,
  lifetimeSeconds?: number
) {
  const { request } = order
  yield* requireProvider(draft.owner, "pix")
  const money = yield* feesAndSplit("pix", draft.amount, request.split, draft, order.splitMode)
  // `expiration` makes it a Pix with due date, as on `POST /v1/charges/pix`.
  let dueDate: string | null = null
  if (request.expiration !== undefined) {
    if (request.expiration < saoPauloDate(draft.now)) {
      return yield* invalid("expiration", "expiration must be a date YYYY-MM-DD, not in the past")
    }
    dueDate = request.expiration
  }
  const txid = yield* newTxid
  const lifetime = lifetimeSeconds === undefined ? DEFAULT_PIX_LIFETIME_MILLIS : lifetimeSeconds * 1000
  // A Pix with due date stays payable `expirationAfterDueDate` days after it, as a `cobv`'s `validadeAposVencimento`.
  const expiresAt = dueDate === null
    ? new Date(draft.now + lifetime)
    : endOfSaoPauloDay(lastPayableDate(dueDate, request.expirationAfterDueDate ?? 0))
  const provider = yield* PixProvider
  const payer = { name: draft.customer.name, document: draft.customer.document }
  const registration = { receiver: draft.owner, txid, amount: money.amount, expiresAt, dueDate, description: request.description ?? null, payer }
  // A Pix Automático enrollment registers the recurrence with its first charge: one composite code offers both.
  const registered: Effect.Effect<{ readonly emv: string; readonly psp: string | null; readonly recurrencyId?: string }, PixProviderError> = order.pixAutomatico
    ? Effect.map(provider.createRecurrence(registration), (r) => ({ ...r, psp: null }))
    : provider.createCharge(registration)
  const { emv, psp, recurrencyId } = yield* registered.pipe(
    Effect.mapError((e) => new ProviderUnavailable({ message: "Provedor Pix indisponível", details: { reason: e.message } }))
  )
  const pending: PendingCharge = { ...draft.common, ...money, paymentType: paymentTypeOf.pix, status: "PENDING", txid, emv, psp, dueDate, expiresAt, card: null }
  return {
    pending,
    recurrencyId: recurrencyId ?? null,
    notify: ["oneoff.pix.generated"],
    settle: (customerId: CustomerId) =>
      Effect.succeed<CheckoutResult>({
        success: true,
        customerId,
        chargeId: pending.id,
        status: "pending",
        pix: { emv, qrCode: qrPngDataUrl(emv), ...(recurrencyId === undefined ? {} : { recurrencyId }) }
      })
  } satisfies PreparedCharge<never, never>
})
