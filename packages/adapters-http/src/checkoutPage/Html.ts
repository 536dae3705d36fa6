/**
 * The document around every state of the page, and the headers that keep
 * it safe: a Content-Security-Policy that lets the page load only its own
 * stylesheet and script (no inline script, no third party; images also as
 * `data:`, for the Pix QR code the engine renders as a PNG data URL), no
 * framing (`frame-ancestors 'none'`), forms only to this origin, and no
 * caching of pages that carry a buyer's payment.
 */
import { HttpServerResponse } from "effect/http"
import { script, stylesheet } from "./Assets.ts"
import type { PageTexts } from "./Texts.ts"

/** Text made safe for HTML content and attribute values. */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" })[c]!)

/** HTML already escaped: what the views compose. */
export type Html = string

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "object-src 'none'"
].join("; ")

export const securityHeaders: Readonly<Record<string, string>> = {
  "content-security-policy": CONTENT_SECURITY_POLICY,
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store"
}

/** A whole page: `main` inside the shared head and frame. */
export const htmlDocument = (t: PageTexts, title: string, main: Html, data: Readonly<Record<string, string>> = {}): Html => {
  const attributes = Object.entries(data).map(([key, value]) => ` data-${key}="${escapeHtml(value)}"`).join("")
  return `<!doctype html>
<html lang="${t.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${stylesheet.path}">
<script src="${script.path}" defer></script>
</head>
<body${attributes}>
<main class="page">
${main}
</main>
</body>
</html>`
}

/** `html` with the page's headers. */
export const htmlResponse = (status: number, html: Html, headers: Readonly<Record<string, string>> = {}) =>
  HttpServerResponse.text(html, { status, contentType: "text/html; charset=utf-8", headers: { ...securityHeaders, ...headers } })
