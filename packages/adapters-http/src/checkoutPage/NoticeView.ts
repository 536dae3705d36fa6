/** The page of what cannot be paid here: gone (410), unknown (404), too many requests (429), a failure (500). */
import { escapeHtml, type Html, htmlDocument } from "./Html.ts"
import type { PageTexts } from "./Texts.ts"

export const noticeDocument = (t: PageTexts, notice: { readonly title: string; readonly detail: string }): Html =>
  htmlDocument(t, notice.title, `<section class="notice" aria-labelledby="notice-title">
<h1 id="notice-title">${escapeHtml(notice.title)}</h1>
<p>${escapeHtml(notice.detail)}</p>
</section>`)
