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
import type { PageTheme } from "./Theme.ts"

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

/** The merchant's colors: the theme's stylesheet after the page's, and each color changed for contrast noted in the head. */
const themeHead = (theme: PageTheme | undefined): Html =>
  theme === undefined ? "" : [
    ...theme.adjustments.map((a) => `\n<!-- ${a.setting} ${escapeHtml(a.requested)} adjusted to ${a.used} for contrast AA -->`),
    `\n<link rel="stylesheet" href="${theme.path}">`
  ].join("")

/** The colors used, and each one asked for that was changed, as data of the body. */
const themeData = (theme: PageTheme | undefined): Record<string, string> => {
  if (theme === undefined) return {}
  const used = { "color-primary": theme.accent, "color-secondary": theme.background, "color-font": theme.ink }
  const names = { primaryColor: "color-primary", secondaryColor: "color-secondary", fontColor: "color-font" } as const
  return { ...used, ...Object.fromEntries(theme.adjustments.map((a) => [`${names[a.setting]}-adjusted-from`, a.requested])) }
}

/** A whole page: `main` inside the shared head and frame, in the merchant's colors when `theme` has them. */
export const htmlDocument = (t: PageTexts, title: string, main: Html, data: Readonly<Record<string, string>> = {}, theme?: PageTheme): Html => {
  const attributes = Object.entries({ ...data, ...themeData(theme) }).map(([key, value]) => ` data-${key}="${escapeHtml(value)}"`).join("")
  return `<!doctype html>
<html lang="${t.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${stylesheet.path}">${themeHead(theme)}
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
