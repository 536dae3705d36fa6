/**
 * The books of the fake Mercado Pago: card tokens (single use, keeping only
 * the first six and last four digits and the holder's name, as Mercado Pago
 * shows them), payments and their refunds, and the answers given per
 * idempotency key. Shapes follow the API reference
 * (https://www.mercadopago.com.br/developers/en/reference/online-payments/checkout-api-payments/create-payment/post,
 * …/create-refund/post); outcomes follow the holder's name as the test
 * cards page says (https://www.mercadopago.com.br/developers/en/docs/checkout-bricks/integration-test/test-cards).
 */
export interface Answer {
  readonly status: number
  readonly body?: unknown
}

/** Mercado Pago's error body. */
export const mpError = (status: number, message: string, error = "bad_request", code?: number): Answer => ({
  status,
  body: { message, error, status, cause: code === undefined ? [] : [{ code, description: message }] }
})

/** The test cards page's holder names: status and `status_detail` of the payment they give. */
export const HOLDER_OUTCOMES: Readonly<Record<string, readonly [status: string, detail: string]>> = {
  APRO: ["approved", "accredited"],
  OTHE: ["rejected", "cc_rejected_other_reason"],
  CONT: ["in_process", "pending_contingency"],
  CALL: ["rejected", "cc_rejected_call_for_authorize"],
  FUND: ["rejected", "cc_rejected_insufficient_amount"],
  SECU: ["rejected", "cc_rejected_bad_filled_security_code"],
  EXPI: ["rejected", "cc_rejected_bad_filled_date"],
  FORM: ["rejected", "cc_rejected_bad_filled_other"],
  INST: ["rejected", "cc_rejected_invalid_installments"],
  DUPL: ["rejected", "cc_rejected_duplicated_payment"],
  LOCK: ["rejected", "cc_rejected_card_disabled"],
  CTNA: ["rejected", "cc_rejected_card_type_not_allowed"],
  BLAC: ["rejected", "cc_rejected_blacklist"]
}

interface CardToken {
  readonly id: string
  readonly firstSix: string
  readonly lastFour: string
  readonly holder: string
  used: boolean
}

export interface FakePayment {
  readonly id: number
  status: string
  status_detail: string
  readonly transaction_amount: number
  transaction_amount_refunded: number
  readonly installments: number
  readonly payment_method_id: string
  readonly payment_type_id: "credit_card"
  readonly external_reference: string | null
  readonly payer: { readonly email: string; readonly identification: { readonly type: string; readonly number: string } }
  captured: boolean
  readonly date_created: string
  readonly card: { readonly first_six_digits: string; readonly last_four_digits: string; readonly cardholder: { readonly name: string } }
  readonly refunds: Array<{ readonly id: number; readonly payment_id: number; readonly amount: number; readonly status: "approved" }>
  readonly three_ds_info?: { readonly external_resource_url: string; readonly creq: string }
}

/** Where the fake's 3-D Secure challenges are passed (the issuer's ACS, as `three_ds_info.external_resource_url` names one). */
export const FAKE_CHALLENGE_URL = "https://acs.example.com/browser-challenges"

export const makeMercadoPagoBook = () => ({
  tokens: new Map<string, CardToken>(),
  payments: new Map<number, FakePayment>(),
  /** The first answer to each idempotency key, answered again to the same key. */
  answered: new Map<string, Answer>(),
  nextId: 1_000_000_001
})
export type MercadoPagoBook = ReturnType<typeof makeMercadoPagoBook>

const isInt = (value: unknown, min: number, max: number) => Number.isInteger(value) && (value as number) >= min && (value as number) <= max
const cents = (reais: number) => Math.round(reais * 100)

/** `POST /v1/card_tokens`. */
export const createToken = (book: MercadoPagoBook, body: any): Answer => {
  if (typeof body?.card_number !== "string" || !/^\d{13,19}$/.test(body.card_number)) return mpError(400, "invalid parameter card_number", "bad_request", 205)
  if (typeof body.security_code !== "string" || !/^\d{3,4}$/.test(body.security_code)) return mpError(400, "invalid parameter security_code", "bad_request", 224)
  if (!isInt(body.expiration_month, 1, 12)) return mpError(400, "invalid parameter expiration_month", "bad_request", 208)
  if (!isInt(body.expiration_year, 2000, 2100)) return mpError(400, "invalid parameter expiration_year", "bad_request", 209)
  if (typeof body.cardholder?.name !== "string" || body.cardholder.name === "") return mpError(400, "invalid parameter cardholder.name", "bad_request", 221)
  const id = `${book.nextId++}`.padStart(32, "0")
  const token = { id, firstSix: body.card_number.slice(0, 6), lastFour: body.card_number.slice(-4), holder: body.cardholder.name, used: false }
  book.tokens.set(id, token)
  return {
    status: 201,
    body: {
      id,
      first_six_digits: token.firstSix,
      last_four_digits: token.lastFour,
      expiration_month: body.expiration_month,
      expiration_year: body.expiration_year,
      cardholder: { name: token.holder },
      status: "active",
      luhn_validation: true,
      live_mode: false
    }
  }
}

const checkPayment = (book: MercadoPagoBook, body: any): Answer | CardToken => {
  const amount = body?.transaction_amount
  if (typeof amount !== "number" || !(amount > 0) || Math.abs(amount * 100 - cents(amount)) > 1e-6) return mpError(400, "transaction_amount must be positive, in reais with two decimals", "bad_request", 4020)
  if (!isInt(body.installments, 1, 24)) return mpError(400, "Invalid installments", "bad_request", 3011)
  if (typeof body.payment_method_id !== "string") return mpError(400, "payment_method_id attribute can't be null", "bad_request", 4033)
  // The payer's e-mail is required; the identification, when sent, a CPF's 11 digits or a CNPJ's 14.
  if (typeof body.payer?.email !== "string" || !/^[^@\s]+@[^@\s]+$/.test(body.payer.email)) return mpError(400, "payer.email must be a valid email", "bad_request", 4050)
  const identification = body.payer.identification
  if (identification !== undefined && !((identification.type === "CPF" && /^\d{11}$/.test(identification.number)) || (identification.type === "CNPJ" && /^\d{14}$/.test(identification.number)))) {
    return mpError(400, "Invalid user identification number", "bad_request", 2067)
  }
  const token = typeof body.token === "string" ? book.tokens.get(body.token) : undefined
  if (token === undefined || token.used) return mpError(400, "Card Token not found", "bad_request", 2006)
  return token
}

/**
 * `POST /v1/payments` (the idempotency key is the server's business).
 * `challenge`: the issuer asks for 3-D Secure, whatever the holder's name.
 */
export const createPayment = (book: MercadoPagoBook, body: any, options: { readonly challenge?: boolean } = {}): Answer => {
  const checked = checkPayment(book, body)
  if ("status" in checked) return checked
  checked.used = true
  const [outcome, detail] = options.challenge === true
    ? ["pending", "pending_challenge"] as const
    : HOLDER_OUTCOMES[checked.holder.split(" ")[0]!.toUpperCase()] ?? HOLDER_OUTCOMES.APRO!
  const uncaptured = outcome === "approved" && body.capture === false
  const payment: FakePayment = {
    id: book.nextId++,
    status: uncaptured ? "authorized" : outcome,
    status_detail: uncaptured ? "pending_capture" : detail,
    transaction_amount: body.transaction_amount,
    transaction_amount_refunded: 0,
    installments: body.installments,
    payment_method_id: body.payment_method_id,
    payment_type_id: "credit_card",
    external_reference: body.external_reference ?? null,
    payer: body.payer,
    captured: outcome === "approved" && !uncaptured,
    date_created: new Date().toISOString(),
    card: { first_six_digits: checked.firstSix, last_four_digits: checked.lastFour, cardholder: { name: checked.holder } },
    refunds: [],
    ...(options.challenge === true ? { three_ds_info: { external_resource_url: FAKE_CHALLENGE_URL, creq: "eyJmYWtlIjoiY3JlcSJ9" } } : {})
  }
  book.payments.set(payment.id, payment)
  return { status: 201, body: payment }
}

/** `PUT /v1/payments/{id}`: `{ capture: true }` of an authorized payment, `{ status: "cancelled" }` of one not yet captured. */
export const updatePayment = (book: MercadoPagoBook, id: number, body: any): Answer => {
  const payment = book.payments.get(id)
  if (payment === undefined) return mpError(404, "Payment not found", "not_found", 2000)
  const open = ["pending", "in_process", "authorized"].includes(payment.status)
  if (body?.status === "cancelled" && open) Object.assign(payment, { status: "cancelled", status_detail: "by_collector" })
  else if (body?.capture === true && payment.status === "authorized") Object.assign(payment, { status: "approved", status_detail: "accredited", captured: true })
  else return mpError(400, "The action requested is not valid for the current payment state", "bad_request", 2063)
  return { status: 200, body: payment }
}

/** `POST /v1/payments/{id}/refunds`: without `amount`, what is left. */
export const refundPayment = (book: MercadoPagoBook, id: number, body: any): Answer => {
  const payment = book.payments.get(id)
  if (payment === undefined) return mpError(404, "Payment not found", "not_found", 2000)
  if (payment.status !== "approved") return mpError(400, "The action requested is not valid for the current payment state", "bad_request", 2063)
  const left = cents(payment.transaction_amount) - cents(payment.transaction_amount_refunded)
  const amount = body?.amount === undefined ? left : cents(body.amount)
  if (!(amount > 0)) return mpError(400, "amount attribute must be positive", "bad_request", 4040)
  // Not in the reference's list of codes: the fake's own words for an amount above what is left.
  if (amount > left) return mpError(400, "amount exceeds the amount available to refund", "bad_request")
  const refund = { id: book.nextId++, payment_id: id, amount: amount / 100, status: "approved" as const }
  payment.refunds.push(refund)
  payment.transaction_amount_refunded = (cents(payment.transaction_amount_refunded) + amount) / 100
  if (amount === left) Object.assign(payment, { status: "refunded", status_detail: "refunded" })
  else payment.status_detail = "partially_refunded"
  return { status: 201, body: { ...refund, source: { id: "collector", name: "Loja Exemplo", type: "collector" }, date_created: new Date().toISOString(), unique_sequence_number: null } }
}

/** `GET /v1/payments/search?external_reference=…`. */
export const searchPayments = (book: MercadoPagoBook, query: URLSearchParams): Answer => {
  const reference = query.get("external_reference")
  const results = [...book.payments.values()].filter((p) => reference === null || p.external_reference === reference)
  return { status: 200, body: { paging: { total: results.length, limit: 30, offset: 0 }, results } }
}
