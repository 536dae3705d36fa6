/**
 * The page of a charge: how to pay it (the Pix QR code and its code, the
 * boleto's line and PDF), and its status in a live region that the script
 * keeps up to date by polling `/pay/{chargeId}/status`, so the page turns
 * to "Pagamento confirmado" by itself, announced to screen readers too.
 */
import { type HostedCharge, Money } from "@billing/core"
import { escapeHtml, type Html, htmlDocument } from "./Html.ts"
import { summary } from "./Summary.ts"
import type { PageTexts } from "./Texts.ts"

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

const pixBlock = (t: PageTexts, pix: NonNullable<HostedCharge["pix"]>): Html => {
  const deadline = new Intl.DateTimeFormat(t.locale, { timeZone: "America/Sao_Paulo", dateStyle: "short", timeStyle: "short" }).format(pix.expiresAt)
  return `<section class="instrument" id="pix" aria-labelledby="pix-title">
<h2 id="pix-title">${escapeHtml(t.pixHeading)}</h2>
<p>${escapeHtml(t.pixSteps)}</p>
<img class="qr" src="${pix.qrCode}" alt="${escapeHtml(t.pixQrAlt)}" width="244" height="244">
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

const paidBlock = (t: PageTexts, charge: HostedCharge): Html =>
  `<h2>${escapeHtml(t.paid)}</h2><p>${escapeHtml(t.paidDetail(Money.formatReais(charge.total)))}</p>`

/** The page of `charge`, paid or waiting for its payment. */
export const chargeDocument = (t: PageTexts, charge: HostedCharge): Html => {
  // The region exists from the start, so that the change to paid is announced.
  const status = `<section id="status" class="status${charge.paid ? " paid" : ""}" role="status" aria-live="polite"${charge.paid ? "" : ` data-poll="/pay/${escapeHtml(charge.id)}/status"`}>
${charge.paid ? paidBlock(t, charge) : `<p>${escapeHtml(t.waiting)}</p>`}
</section>`
  const instruments = charge.paid
    ? ""
    : [charge.pix === null ? "" : pixBlock(t, charge.pix), charge.boleto === null ? "" : boletoBlock(t, charge.id, charge.boleto)].join("\n")
  return htmlDocument(t, t.siteTitle(charge.merchantName), `${summary(t, charge)}\n${status}\n${instruments}`, {
    "text-copied": t.copied,
    "text-paid": t.paid,
    "text-paid-detail": t.paidDetail(Money.formatReais(charge.total))
  })
}
