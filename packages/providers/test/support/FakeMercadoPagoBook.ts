/**
 * The books of the fake Mercado Pago: card tokens (single use, keeping only
 * the first six and last four digits and the holder's name, as Mercado Pago
 * shows them), customers and the cards kept under them, payments and their
 * refunds, and the answers given per idempotency key. Shapes follow the API
 * reference
 * (https://www.mercadopago.com.br/developers/en/reference/online-payments/checkout-api-payments/create-payment/post,
 * …/create-refund/post, …/reference/customers/_customers_search/get,
 * …/reference/cards/_customers_customer_id_cards/post, whose error causes
 * 101, 106, 112 and 150 the customer routes answer) and the SDK's types of
 * a card token made from a kept card (mercadopago/sdk-nodejs,
 * src/clients/cardToken/create/types.ts: `card_id`, `customer_id`,
 * `security_code`); outcomes follow the holder's name as the test cards page
 * says (https://www.mercadopago.com.br/developers/en/docs/checkout-bricks/integration-test/test-cards),
 * a kept card's as the card it was kept from.
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
  readonly expirationMonth: number
  readonly expirationYear: number
  /** The kept card it was made from (`card_id`), and that card's customer. */
  readonly cardId: string | null
  readonly customerId: string | null
  used: boolean
}

/** A customer (`POST /v1/customers`), one per e-mail. */
export interface FakeCustomer {
  readonly id: string
  readonly email: string
  readonly identification: { readonly type: string; readonly number: string } | null
}

/** A card kept under a customer (`POST /v1/customers/{id}/cards`). */
export interface FakeCard {
  readonly id: string
  readonly customerId: string
  readonly firstSix: string
  readonly lastFour: string
  readonly holder: string
  readonly expirationMonth: number
  readonly expirationYear: number
  readonly paymentMethodId: string
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
  /** As sent: `{ email, identification }`, or a kept card's `{ type: "customer", id }`. */
  readonly payer: { readonly email?: string; readonly identification?: { readonly type: string; readonly number: string }; readonly type?: string; readonly id?: string }
  captured: boolean
  readonly date_created: string
  /** `id`: the kept card paid with, null for a card typed for the payment. */
  readonly card: { readonly id: string | null; readonly first_six_digits: string; readonly last_four_digits: string; readonly cardholder: { readonly name: string } }
  readonly refunds: Array<{ readonly id: number; readonly payment_id: number; readonly amount: number; readonly status: "approved" }>
  readonly three_ds_info?: { readonly external_resource_url: string; readonly creq: string }
}

/** Where the fake's 3-D Secure challenges are passed (the issuer's ACS, as `three_ds_info.external_resource_url` names one). */
export const FAKE_CHALLENGE_URL = "https://acs.example.com/browser-challenges"

export const makeMercadoPagoBook = () => ({
  tokens: new Map<string, CardToken>(),
  customers: new Map<string, FakeCustomer>(),
  cards: new Map<string, FakeCard>(),
  payments: new Map<number, FakePayment>(),
  /** The first answer to each idempotency key, answered again to the same key. */
  answered: new Map<string, Answer>(),
  nextId: 1_000_000_001
})
export type MercadoPagoBook = ReturnType<typeof makeMercadoPagoBook>

const isInt = (value: unknown, min: number, max: number) => Number.isInteger(value) && (value as number) >= min && (value as number) <= max
const cents = (reais: number) => Math.round(reais * 100)

const tokenAnswer = (token: CardToken): Answer => ({
  status: 201,
  body: {
    id: token.id,
    first_six_digits: token.firstSix,
    last_four_digits: token.lastFour,
    expiration_month: token.expirationMonth,
    expiration_year: token.expirationYear,
    cardholder: { name: token.holder },
    status: "active",
    luhn_validation: true,
    live_mode: false
  }
})

/**
 * `POST /v1/card_tokens` of a kept card: `card_id` (with its `customer_id`
 * when sent), the security code optional (a payment without it stands for
 * an application Mercado Pago enabled for automatic payments).
 */
const createSavedCardToken = (book: MercadoPagoBook, body: any): Answer => {
  const card = typeof body.card_id === "string" ? book.cards.get(body.card_id) : undefined
  if (card === undefined) return mpError(400, "card not found", "bad_request", 120)
  if (body.customer_id !== undefined && body.customer_id !== card.customerId) return mpError(400, "invalid users involved", "bad_request", 150)
  if (body.security_code !== undefined && !(typeof body.security_code === "string" && /^\d{3,4}$/.test(body.security_code))) {
    return mpError(400, "invalid parameter security_code", "bad_request", 224)
  }
  if (body.card_number !== undefined) return mpError(400, "card_id and card_number are exclusive", "bad_request")
  const id = `${book.nextId++}`.padStart(32, "0")
  const { firstSix, lastFour, holder, expirationMonth, expirationYear } = card
  const token: CardToken = { id, firstSix, lastFour, holder, expirationMonth, expirationYear, cardId: card.id, customerId: card.customerId, used: false }
  book.tokens.set(id, token)
  return tokenAnswer(token)
}

/** `POST /v1/card_tokens`: a typed card, or a kept one (`card_id`). */
export const createToken = (book: MercadoPagoBook, body: any): Answer => {
  if (body?.card_id !== undefined) return createSavedCardToken(book, body)
  if (typeof body?.card_number !== "string" || !/^\d{13,19}$/.test(body.card_number)) return mpError(400, "invalid parameter card_number", "bad_request", 205)
  if (typeof body.security_code !== "string" || !/^\d{3,4}$/.test(body.security_code)) return mpError(400, "invalid parameter security_code", "bad_request", 224)
  if (!isInt(body.expiration_month, 1, 12)) return mpError(400, "invalid parameter expiration_month", "bad_request", 208)
  if (!isInt(body.expiration_year, 2000, 2100)) return mpError(400, "invalid parameter expiration_year", "bad_request", 209)
  if (typeof body.cardholder?.name !== "string" || body.cardholder.name === "") return mpError(400, "invalid parameter cardholder.name", "bad_request", 221)
  const id = `${book.nextId++}`.padStart(32, "0")
  const token: CardToken = {
    id,
    firstSix: body.card_number.slice(0, 6),
    lastFour: body.card_number.slice(-4),
    holder: body.cardholder.name,
    expirationMonth: body.expiration_month,
    expirationYear: body.expiration_year,
    cardId: null,
    customerId: null,
    used: false
  }
  book.tokens.set(id, token)
  return tokenAnswer(token)
}

const EMAIL = /^[^@\s]+@[^@\s]+$/

const isIdentification = (identification: any) =>
  (identification?.type === "CPF" && /^\d{11}$/.test(identification.number)) || (identification?.type === "CNPJ" && /^\d{14}$/.test(identification.number))

/** `GET /v1/customers/search?email=…`. */
export const searchCustomers = (book: MercadoPagoBook, query: URLSearchParams): Answer => {
  const email = query.get("email")?.toLowerCase()
  const results = [...book.customers.values()].filter((customer) => email === undefined || customer.email === email)
  return { status: 200, body: { paging: { limit: 10, offset: 0, total: results.length }, results: results.map((customer) => customerBody(book, customer)) } }
}

const customerBody = (book: MercadoPagoBook, customer: FakeCustomer) => ({
  id: customer.id,
  email: customer.email,
  identification: customer.identification,
  cards: [...book.cards.values()].filter((card) => card.customerId === customer.id).map(cardBody),
  date_created: new Date().toISOString(),
  live_mode: false
})

/** `POST /v1/customers`: one customer per e-mail (cause 101 for a second). */
export const createCustomer = (book: MercadoPagoBook, body: any): Answer => {
  if (typeof body?.email !== "string" || !EMAIL.test(body.email)) return mpError(400, "the email format is invalid.", "bad_request", 106)
  if (body.identification !== undefined && !isIdentification(body.identification)) return mpError(400, "the identification.number is invalid.", "bad_request", 112)
  const email = body.email.toLowerCase()
  if ([...book.customers.values()].some((customer) => customer.email === email)) return mpError(400, "the customer already exist.", "bad_request", 101)
  const customer: FakeCustomer = { id: `${book.nextId++}-fakeCustomer${book.customers.size}`, email, identification: body.identification ?? null }
  book.customers.set(customer.id, customer)
  return { status: 201, body: customerBody(book, customer) }
}

/** The payment method of a card number's first digits, as Mercado Pago infers it from the card token. */
const paymentMethodOf = (firstSix: string) =>
  /^3[47]/.test(firstSix) ? "amex" : /^5[1-5]|^2[2-7]/.test(firstSix) ? "master" : /^4/.test(firstSix) ? "visa" : "elo"

const cardBody = (card: FakeCard) => ({
  id: card.id,
  customer_id: card.customerId,
  expiration_month: card.expirationMonth,
  expiration_year: card.expirationYear,
  first_six_digits: card.firstSix,
  last_four_digits: card.lastFour,
  payment_method: { id: card.paymentMethodId, name: card.paymentMethodId, payment_type_id: "credit_card" },
  security_code: { length: 3, card_location: "back" },
  cardholder: { name: card.holder },
  date_created: new Date().toISOString(),
  live_mode: false
})

/** `POST /v1/customers/{id}/cards`: the card of `token` (a first payment's, used or not) kept under the customer. */
export const saveCustomerCard = (book: MercadoPagoBook, customerId: string, body: any): Answer => {
  const customer = book.customers.get(customerId)
  if (customer === undefined) return mpError(404, "the customer id is invalid.", "not_found", 105)
  if (typeof body?.token !== "string") return mpError(400, "the card is required.", "bad_request", 119)
  const token = book.tokens.get(body.token)
  if (token === undefined) return mpError(400, "card not found.", "bad_request", 120)
  const { firstSix, lastFour, holder, expirationMonth, expirationYear } = token
  const card: FakeCard = { id: `${book.nextId++}`, customerId, firstSix, lastFour, holder, expirationMonth, expirationYear, paymentMethodId: paymentMethodOf(firstSix) }
  book.cards.set(card.id, card)
  return { status: 201, body: cardBody(card) }
}

const checkPayment = (book: MercadoPagoBook, body: any): Answer | CardToken => {
  const amount = body?.transaction_amount
  if (typeof amount !== "number" || !(amount > 0) || Math.abs(amount * 100 - cents(amount)) > 1e-6) return mpError(400, "transaction_amount must be positive, in reais with two decimals", "bad_request", 4020)
  if (!isInt(body.installments, 1, 24)) return mpError(400, "Invalid installments", "bad_request", 3011)
  if (typeof body.payment_method_id !== "string") return mpError(400, "payment_method_id attribute can't be null", "bad_request", 4033)
  const token = typeof body.token === "string" ? book.tokens.get(body.token) : undefined
  // A kept card's customer is the payer; it pays only by a token of its own card.
  if (body.payer?.type === "customer") {
    if (typeof body.payer.id !== "string" || !book.customers.has(body.payer.id)) return mpError(400, "the customer id is invalid.", "bad_request", 105)
    if (token !== undefined && token.customerId !== body.payer.id) return mpError(400, "invalid users involved", "bad_request", 150)
  } else {
    // The payer's e-mail is required; the identification, when sent, a CPF's 11 digits or a CNPJ's 14.
    if (typeof body.payer?.email !== "string" || !EMAIL.test(body.payer.email)) return mpError(400, "payer.email must be a valid email", "bad_request", 4050)
    if (body.payer.identification !== undefined && !isIdentification(body.payer.identification)) {
      return mpError(400, "Invalid user identification number", "bad_request", 2067)
    }
  }
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
    card: { id: checked.cardId, first_six_digits: checked.firstSix, last_four_digits: checked.lastFour, cardholder: { name: checked.holder } },
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
