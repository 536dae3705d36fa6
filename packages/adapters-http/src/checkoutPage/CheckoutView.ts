/**
 * The form of a link or session: the buyer's data, the method, the card.
 * It posts to its own URL and works without JavaScript for Pix and boleto;
 * the script adds what needs it (only the fields of the chosen method, the
 * card sent to the tokenization and never in the form). Every field is
 * named as the API names it, so an error the API reports about
 * `customer.documentNumber` is shown under that field.
 */
import { type HostedCheckout, hostedInstallments, type HostedInstallmentTerms, Money, type PaymentMethodInput } from "@billing/core"
import { escapeHtml, type Html, htmlDocument } from "./Html.ts"
import { summary } from "./Summary.ts"
import type { FieldName, PageTexts } from "./Texts.ts"
import { themeOf } from "./Theme.ts"

/** What the buyer sent back, and what was wrong with it. */
export interface FormState {
  readonly values: Readonly<Record<string, string>>
  readonly errors: Readonly<Record<string, string>>
  /** A problem of the whole attempt (a refused card), shown above the button. */
  readonly alert?: string | undefined
}

export const emptyForm: FormState = { values: {}, errors: {} }

/** The form field of the `i`-th order bump: one name each, so a form sent back keeps which were ticked. */
export const bumpField = (i: number) => `orderBumps[${i}]`

/** The order bumps ticked in `values`, by price id (only those the checkout offers). */
export const tickedBumps = (checkout: HostedCheckout, values: Readonly<Record<string, string>>) =>
  checkout.orderBumps.filter((bump, i) => values[bumpField(i)] === bump.priceId)

/** What the buyer pays before a coupon: the checkout's lines and the bumps ticked. */
export const subtotalOf = (checkout: HostedCheckout, bumps: ReadonlyArray<{ readonly amount: Money.Cents }>) =>
  Money.cents(bumps.reduce<number>((sum, bump) => sum + bump.amount, checkout.total))

/** The installments' options for paying `amount`, with what each costs in all (and the fees, when the buyer bears them). */
export const installmentOptions = (t: PageTexts, terms: HostedInstallmentTerms, amount: Money.Cents) =>
  hostedInstallments(terms, amount).map((plan) => ({
    value: String(plan.installments),
    label: t.installmentOption(plan.installments, Money.formatReais(plan.total), plan.surcharge > 0 ? Money.formatReais(plan.surcharge) : null)
  }))

const idOf = (field: string) => `f-${field.replaceAll(".", "-")}`
const errorIdOf = (field: string) => `e-${field.replaceAll(".", "-")}`

interface FieldOptions {
  /** Posted with the form; card fields are not (the script sends them to the tokenization). */
  readonly posted?: boolean
  readonly type?: string
  readonly attributes?: string
  readonly value?: string | undefined
  /** A field shown read-only needs no hint on how to type it. */
  readonly readOnly?: boolean
}

const field = (t: PageTexts, state: FormState, name: FieldName, options: FieldOptions = {}): Html => {
  const error = state.errors[name]
  const hint = options.readOnly ? undefined : t.hints[name]
  const describedBy = [hint === undefined ? undefined : `h-${idOf(name)}`, errorIdOf(name)].filter((x) => x !== undefined).join(" ")
  const value = options.value ?? state.values[name] ?? ""
  return `<div class="field">
<label for="${idOf(name)}">${escapeHtml(t.fields[name])}</label>
${hint === undefined ? "" : `<p class="hint" id="h-${idOf(name)}">${escapeHtml(hint)}</p>`}
<input id="${idOf(name)}"${options.posted === false ? "" : ` name="${name}"`} data-field="${name}" type="${options.type ?? "text"}" value="${escapeHtml(value)}" aria-describedby="${describedBy}"${error === undefined ? "" : ` aria-invalid="true"`}${options.readOnly ? " readonly" : ""} ${options.attributes ?? ""}>
<p class="field-error" id="${errorIdOf(name)}">${error === undefined ? "" : escapeHtml(error)}</p>
</div>`
}

const buyerFields = (t: PageTexts, state: FormState, checkout: HostedCheckout): Html => {
  if (checkout.buyer !== null) {
    // A session's buyer: shown, read-only and not posted (the session's own is used).
    const shown = (name: FieldName, value: string | undefined) =>
      value === undefined ? "" : field(t, state, name, { posted: false, value, readOnly: true })
    return `<fieldset class="group" id="buyer">
<legend>${escapeHtml(t.buyerHeading)}</legend>
<p class="note">${escapeHtml(t.prefilledNote)}</p>
${shown("customer.name", checkout.buyer.name)}
${shown("customer.email", checkout.buyer.email)}
${shown("customer.documentNumber", checkout.buyer.documentNumber)}
${shown("customer.phone", checkout.buyer.phone)}
</fieldset>`
  }
  return `<fieldset class="group" id="buyer">
<legend>${escapeHtml(t.buyerHeading)}</legend>
${field(t, state, "customer.name", { attributes: `required maxlength="200" autocomplete="name"` })}
${field(t, state, "customer.email", { type: "email", attributes: `required maxlength="200" autocomplete="email"` })}
${field(t, state, "customer.documentNumber", { attributes: `required inputmode="numeric" maxlength="18" pattern="[0-9.\\-/ ]{11,18}"` })}
${field(t, state, "customer.phone", { type: "tel", attributes: `maxlength="20" autocomplete="tel"` })}
</fieldset>`
}

// Required for boleto only: the script marks them so when boleto is chosen; the API checks either way.
const addressFields = (t: PageTexts, state: FormState): Html =>
  `<fieldset class="group" id="address" data-method-section="boleto">
<legend>${escapeHtml(t.addressHeading)}</legend>
<p class="note">${escapeHtml(t.addressNote)}</p>
${field(t, state, "customer.address.zipCode", { attributes: `inputmode="numeric" maxlength="9" pattern="[0-9]{5}-?[0-9]{3}" autocomplete="postal-code" data-required-for="boleto"` })}
${field(t, state, "customer.address.street", { attributes: `maxlength="200" autocomplete="address-line1" data-required-for="boleto"` })}
${field(t, state, "customer.address.number", { attributes: `maxlength="20" data-required-for="boleto"` })}
${field(t, state, "customer.address.complement", { attributes: `maxlength="100" autocomplete="address-line2"` })}
${field(t, state, "customer.address.neighborhood", { attributes: `maxlength="100" data-required-for="boleto"` })}
${field(t, state, "customer.address.city", { attributes: `maxlength="100" autocomplete="address-level2" data-required-for="boleto"` })}
${field(t, state, "customer.address.state", { attributes: `maxlength="2" pattern="[A-Za-z]{2}" autocomplete="address-level1" data-required-for="boleto"` })}
</fieldset>`

const methodChoice = (t: PageTexts, methods: ReadonlyArray<PaymentMethodInput>, chosen: string | undefined): Html =>
  `<fieldset class="group methods">
<legend>${escapeHtml(t.methodHeading)}</legend>
${methods.map((method) => `<label class="method"><input type="radio" name="paymentMethod" value="${method}" required${(chosen ?? methods[0]) === method ? " checked" : ""}> <span>${escapeHtml(t.methods[method])}</span></label>`).join("\n")}
</fieldset>`

// The card fieldset starts disabled: without the script the card cannot be tokenized, and must not be posted.
const cardFields = (t: PageTexts, state: FormState, terms: HostedInstallmentTerms, amount: Money.Cents): Html => {
  const chosen = state.values.installments ?? "1"
  const options = installmentOptions(t, terms, amount)
    .map((o) => `<option value="${o.value}"${o.value === chosen ? " selected" : ""}>${escapeHtml(o.label)}</option>`).join("")
  return `<fieldset class="group" id="card" data-method-section="creditcard" disabled>
<legend>${escapeHtml(t.methods.creditcard)}</legend>
<noscript><p class="note">${escapeHtml(t.cardNeedsScript)}</p></noscript>
${field(t, state, "card.number", { posted: false, attributes: `inputmode="numeric" autocomplete="cc-number" maxlength="23" pattern="[0-9 \\-]{13,23}" data-required-for="creditcard"` })}
${field(t, state, "card.name", { posted: false, attributes: `autocomplete="cc-name" maxlength="100" data-required-for="creditcard"` })}
${field(t, state, "card.expiration", { posted: false, attributes: `inputmode="numeric" autocomplete="cc-exp" maxlength="5" pattern="(0[1-9]|1[0-2])/[0-9]{2}" placeholder="MM/AA" data-required-for="creditcard"` })}
${field(t, state, "card.cvv", { posted: false, attributes: `inputmode="numeric" autocomplete="cc-csc" maxlength="4" pattern="[0-9]{3,4}" data-required-for="creditcard"` })}
<div class="field">
<label for="${idOf("installments")}">${escapeHtml(t.fields.installments)}</label>
<select id="${idOf("installments")}" name="installments" aria-describedby="${errorIdOf("installments")}">${options}</select>
<p class="field-error" id="${errorIdOf("installments")}">${escapeHtml(state.errors.installments ?? "")}</p>
</div>
<input type="hidden" name="cardToken" value="">
</fieldset>`
}

/** Each order bump as a checkbox that adds its price; the script adds it to the total shown, the payment to the charge. */
const bumpFields = (t: PageTexts, state: FormState, checkout: HostedCheckout): Html =>
  checkout.orderBumps.length === 0 ? "" : `<fieldset class="group bumps">
<legend>${escapeHtml(t.bumpsHeading)}</legend>
${checkout.orderBumps.map((bump, i) => `<label class="bump"><input type="checkbox" name="${bumpField(i)}" value="${escapeHtml(bump.priceId)}" data-bump-amount="${bump.amount}"${state.values[bumpField(i)] === bump.priceId ? " checked" : ""}> <span class="bump-label">${escapeHtml(bump.label)}</span> <span class="bump-price">${escapeHtml(t.bumpPrice(Money.formatReais(bump.amount)))}</span></label>`).join("\n")}
</fieldset>`

// The button applies the code at once (with the script); without it, the payment checks the code itself.
const couponField = (t: PageTexts, state: FormState): Html =>
  `<div class="coupon">
${field(t, state, "couponCode", { attributes: `maxlength="100" autocomplete="off"` })}
<button type="button" class="secondary apply-coupon" hidden>${escapeHtml(t.applyCoupon)}</button>
<p class="coupon-result" id="coupon-result" role="status"></p>
</div>`

/** The page of a link or session that can be paid, with `state` from an attempt that failed. */
export const checkoutDocument = (t: PageTexts, checkout: HostedCheckout, state: FormState): Html => {
  // Every method the link allows, Pix Automático too: its charge page shows the composite code and the bank's answer.
  const methods = checkout.methods
  const hasErrors = state.alert !== undefined || Object.keys(state.errors).length > 0
  const total = subtotalOf(checkout, tickedBumps(checkout, state.values))
  const form = `<form class="checkout" method="post" action="/pay/${escapeHtml(checkout.id)}" data-checkout="${escapeHtml(checkout.id)}" data-price-ids="${escapeHtml(checkout.priceIds.join(" "))}">
${bumpFields(t, state, checkout)}
${buyerFields(t, state, checkout)}
${methodChoice(t, methods, state.values.paymentMethod)}
${methods.includes("boleto") ? addressFields(t, state) : ""}
${methods.includes("creditcard") ? cardFields(t, state, checkout.installments, total) : ""}
${couponField(t, state)}
<div id="form-alert" class="alert" role="alert" tabindex="-1"${hasErrors ? "" : " hidden"}>${escapeHtml(state.alert ?? (hasErrors ? t.errorsHeading : ""))}</div>
<button type="submit" class="pay">${escapeHtml(t.pay)}</button>
${checkout.cancelUrl === null ? "" : `<p class="cancel"><a href="${escapeHtml(checkout.cancelUrl)}">${escapeHtml(t.cancel)}</a></p>`}
</form>`
  const page = { ...checkout, total }
  return htmlDocument(t, checkout.title ?? t.siteTitle(checkout.merchantName), `${summary(t, page, true)}\n${form}`, {
    "text-paying": t.paying,
    "text-pay": t.pay,
    "text-tokenize-failed": t.tokenizeFailed,
    "text-network-failed": t.networkFailed,
    "text-errors": t.errorsHeading,
    "text-coupon-unavailable": t.couponUnavailable,
    ...Object.fromEntries(Object.entries(t.couponRefused).map(([reason, text]) => [`text-coupon-${reason.toLowerCase().replaceAll("_", "-")}`, text]))
  }, themeOf(checkout.colors))
}
