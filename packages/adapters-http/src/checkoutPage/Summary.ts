/** What every state of the page opens with: who sells, what is bought, the total. */
import { type HostedLine, Money } from "@billing/core"
import { escapeHtml, type Html } from "./Html.ts"
import type { PageTexts } from "./Texts.ts"

const lineItem = (t: PageTexts, line: HostedLine): Html => {
  const terms = line.recurrence === null
    ? []
    : [t.recurrence(line.recurrence.type, line.recurrence.interval), ...(line.recurrence.trialDays > 0 ? [t.trial(line.recurrence.trialDays)] : [])]
  return `<li class="line">
<span class="line-name">${escapeHtml(line.product ?? t.chargeLine)}${line.price === null ? "" : ` <span class="line-price">${escapeHtml(line.price)}</span>`}</span>
<span class="line-quantity">${escapeHtml(t.quantity(line.quantity))}</span>
<span class="line-amount">${escapeHtml(Money.formatReais(line.amount))}${terms.length === 0 ? "" : ` <span class="line-terms">${escapeHtml(terms.join(" · "))}</span>`}</span>
</li>`
}

interface SummaryOf {
  readonly merchantName: string
  /** The link's `checkoutName`, heading the summary. */
  readonly title?: string | null | undefined
  readonly lines: ReadonlyArray<HostedLine>
  readonly total: Money.Cents
}

/**
 * The merchant as the page's heading, then the lines and the total. On a
 * form (`live`), the total is a live region the script updates as order
 * bumps are ticked and a coupon applied, with a discount row for the coupon.
 */
export const summary = (t: PageTexts, page: SummaryOf, live = false): Html =>
  `<header class="merchant">
<p class="merchant-label">${escapeHtml(t.soldBy)}</p>
<h1>${escapeHtml(page.merchantName)}</h1>
</header>
<section class="summary" aria-labelledby="summary-title">
<h2 id="summary-title">${escapeHtml(page.title ?? t.summary)}</h2>
<ul class="lines">
${page.lines.map((line) => lineItem(t, line)).join("\n")}
</ul>
${live ? `<p class="discount" id="discount" hidden><span>${escapeHtml(t.discount)}</span> <strong id="discount-amount"></strong></p>\n` : ""}<p class="total"${live ? ` id="total" aria-live="polite"` : ""}><span>${escapeHtml(t.total)}</span> <strong>${escapeHtml(Money.formatReais(page.total))}</strong></p>
</section>`
