/**
 * The page of a charge: how to pay it (the Pix QR code and its code, the
 * boleto's line and PDF), and its status in a live region that the script
 * keeps up to date by polling `/pay/{chargeId}/status`, so the page turns
 * to "Pagamento confirmado" by itself, announced to screen readers too.
 * Paid, the region is the confirmation: amount, method and date, and, when
 * the page came from the link it was paid through, the link's success
 * message and its redirect back to the shop. A Pix Automático enrollment
 * shows its composite code and the bank's answer on the recurrence, which
 * the script follows the same way.
 */
import { type HostedCharge, Money } from "@billing/core"
import { escapeHtml, type Html, htmlDocument } from "./Html.ts"
import { summary } from "./Summary.ts"
import type { PageTexts, RecurrenceAuthorization } from "./Texts.ts"
import { themeOf } from "./Theme.ts"

/** Seconds the confirmation shows before the page takes the buyer back to the shop. */
export const REDIRECT_AFTER_SECONDS = 8

const copyable = (t: PageTexts, id: string, label: string, value: string): Html =>
  `<div class="field copyable">
<label for="${id}">${escapeHtml(label)}</label>
<div class="copy-row">
<textarea id="${id}" readonly rows="3">${escapeHtml(value)}</textarea>
<button type="button" class="copy" data-copy="${id}" hidden>${escapeHtml(t.copy)}</button>
</div>
</div>`

/** `YYYY-MM-DD` as `DD/MM/YYYY`. */
const brazilianDate = (date: string) => date.split("-").reverse().join("/")

// A composite code pays the charge and asks for the recurrence at once: the page says both, and names its QR apart.
const pixBlock = (t: PageTexts, pix: NonNullable<HostedCharge["pix"]>, composite: boolean): Html => {
  const deadline = new Intl.DateTimeFormat(t.locale, { timeZone: "America/Sao_Paulo", dateStyle: "short", timeStyle: "short" }).format(pix.expiresAt)
  return `<section class="instrument" id="pix" aria-labelledby="pix-title">
<h2 id="pix-title">${escapeHtml(composite ? t.pixAutomaticoHeading : t.pixHeading)}</h2>
<p>${escapeHtml(composite ? t.pixAutomaticoSteps : t.pixSteps)}</p>
<img class="qr" src="${pix.qrCode}" alt="${escapeHtml(composite ? t.pixAutomaticoQrAlt : t.pixQrAlt)}" width="244" height="244">
${copyable(t, "pix-code", t.pixCode, pix.emv)}
<p class="deadline">${escapeHtml(t.pixDeadline(deadline))}</p>
</section>`
}

const boletoBlock = (t: PageTexts, chargeId: string, boleto: NonNullable<HostedCharge["boleto"]>): Html =>
  `<section class="instrument" id="boleto" aria-labelledby="boleto-title">
<h2 id="boleto-title">${escapeHtml(t.boletoHeading)}</h2>
${copyable(t, "boleto-line", t.boletoLine, boleto.digitableLine)}
<p class="deadline">${escapeHtml(t.boletoDue(brazilianDate(boleto.dueDate)))}</p>
<p><a class="button-link" href="/v1/charges/${encodeURIComponent(chargeId)}/boleto.pdf">${escapeHtml(t.boletoPdf)}</a></p>
</section>`

/**
 * The bank's answer on a Pix Automático recurrence, in a live region of its
 * own: it may come before or after the payment, and stays once paid. The
 * script follows it through the status route while the bank has not
 * answered (the route's URL is here when the charge's region no longer polls).
 */
const authorizationBlock = (t: PageTexts, charge: HostedCharge, authorization: RecurrenceAuthorization): Html =>
  `<section class="instrument authorization" id="authorization" aria-labelledby="authorization-title">
<h2 id="authorization-title">${escapeHtml(t.authorizationHeading)}</h2>
<p id="authorization-state" class="authorization-${authorization.toLowerCase()}" role="status" aria-live="polite" data-authorization="${authorization}"${charge.paid && authorization === "PENDING" ? ` data-poll="/pay/${escapeHtml(charge.id)}/status"` : ""}>${escapeHtml(t.authorization[authorization])}</p>
</section>`

const methodOf = (t: PageTexts, charge: HostedCharge) =>
  charge.pixAutomatico !== null
    ? t.methods.pix_automatico
    : charge.paymentType === "CREDIT_CARD" && charge.installments !== null
    ? t.confirmation.cardInstallments(charge.installments)
    : t.confirmation.paymentTypes[charge.paymentType]

const receipt = (t: PageTexts, charge: HostedCharge): Html => {
  const when = charge.paidAt === null
    ? undefined
    : new Intl.DateTimeFormat(t.locale, { timeZone: "America/Sao_Paulo", dateStyle: "short", timeStyle: "short" }).format(charge.paidAt)
  const rows: Array<readonly [string, string]> = [
    [t.confirmation.amount, Money.formatReais(charge.total)],
    [t.confirmation.method, methodOf(t, charge)],
    ...(when === undefined ? [] : [[t.confirmation.date, when] as const])
  ]
  return `<dl class="receipt">${rows.map(([term, value]) => `<div><dt>${escapeHtml(term)}</dt><dd>${escapeHtml(value)}</dd></div>`).join("")}</dl>`
}

// The redirect is the script's (after a pause, with a link to go at once): a meta refresh would move a reader of the page without warning.
const backToShop = (t: PageTexts, confirmation: HostedCharge["confirmation"]): Html => {
  if (confirmation?.redirectUrl != null) {
    return `<p class="redirect" data-redirect="${escapeHtml(confirmation.redirectUrl)}" data-redirect-after="${REDIRECT_AFTER_SECONDS}">${escapeHtml(t.confirmation.redirecting)} <a href="${escapeHtml(confirmation.redirectUrl)}">${escapeHtml(t.confirmation.backToShop)}</a></p>`
  }
  if (confirmation?.returnUrl != null) return `<p><a href="${escapeHtml(confirmation.returnUrl)}">${escapeHtml(t.confirmation.backToShop)}</a></p>`
  return ""
}

const paidBlock = (t: PageTexts, charge: HostedCharge): Html => {
  const message = charge.confirmation?.successMessage
  return `<h2>${escapeHtml(t.paid)}</h2>
<p>${escapeHtml(t.paidDetail(Money.formatReais(charge.total)))}</p>
${message == null ? "" : `<p class="success-message">${escapeHtml(message)}</p>`}
${receipt(t, charge)}
${backToShop(t, charge.confirmation)}`
}

/** The page of `charge`, paid or waiting for its payment. */
export const chargeDocument = (t: PageTexts, charge: HostedCharge): Html => {
  // The region exists from the start, so that the change to paid is announced.
  const status = `<section id="status" class="status${charge.paid ? " paid" : ""}" role="status" aria-live="polite"${charge.paid ? "" : ` data-poll="/pay/${escapeHtml(charge.id)}/status"`}>
${charge.paid ? paidBlock(t, charge) : `<p>${escapeHtml(t.waiting)}</p>`}
</section>`
  const instruments = charge.paid
    ? ""
    : [charge.pix === null ? "" : pixBlock(t, charge.pix, charge.pixAutomatico !== null), charge.boleto === null ? "" : boletoBlock(t, charge.id, charge.boleto)].join("\n")
  const authorization = charge.pixAutomatico === null ? "" : authorizationBlock(t, charge, charge.pixAutomatico.authorization)
  const title = charge.confirmation?.title ?? null
  return htmlDocument(t, title ?? t.siteTitle(charge.merchantName), `${summary(t, { ...charge, title })}\n${status}\n${authorization}\n${instruments}`, {
    "text-copied": t.copied,
    "text-paid": t.paid,
    "text-paid-detail": t.paidDetail(Money.formatReais(charge.total)),
    ...Object.fromEntries(Object.entries(t.authorization).map(([state, text]) => [`text-authorization-${state.toLowerCase()}`, text]))
  }, charge.confirmation === null ? undefined : themeOf(charge.confirmation.colors))
}
