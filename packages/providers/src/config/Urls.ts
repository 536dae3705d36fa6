/**
 * The URLs of the providers file. PSPs are reached over mutual TLS, so their
 * URLs are `https://`; the engine's own `publicUrl` may be `http://` only on
 * a loopback host (a developer's machine, a test), never where a PSP would
 * post payments in clear.
 */
import { Schema, SchemaGetter } from "effect"

const parse = (text: string) => {
  try {
    return new URL(text)
  } catch {
    return undefined
  }
}

/** `localhost`, 127.0.0.0/8 and `::1`: the hosts only this machine reaches. */
export const isLoopbackHost = (hostname: string) =>
  hostname === "localhost" || hostname.endsWith(".localhost") || /^127(\.\d{1,3}){3}$/.test(hostname) || hostname === "[::1]"

const Url = Schema.String.pipe(Schema.check(Schema.isMaxLength(2048)))

/** The engine's base URL as PSPs reach it; kept without a trailing slash, so paths append to it. */
export const PublicUrl = Url.pipe(
  Schema.check(Schema.makeFilter((text: string) => {
    const url = parse(text)
    if (url === undefined) return "must be a URL"
    if (url.search !== "" || url.hash !== "") return "must not have a query or fragment"
    if (url.protocol === "https:") return undefined
    if (url.protocol === "http:") return isLoopbackHost(url.hostname) ? undefined : "must be https:// (http:// only for a loopback host)"
    return "must be an https:// URL"
  })),
  Schema.decode({ decode: SchemaGetter.transform((text: string) => text.replace(/\/+$/, "")), encode: SchemaGetter.passthrough() })
)

/** An `https://` URL of a PSP. */
export const HttpsUrl = Url.pipe(Schema.check(Schema.makeFilter((text: string) => {
  const url = parse(text)
  return url !== undefined && url.protocol === "https:" && url.hash === "" ? undefined : "must be an https:// URL"
})))

/** The PSP's API Pix base URL, up to and including `/v2` (the standard's version segment), without a trailing slash. */
export const PixBaseUrl = HttpsUrl.pipe(
  Schema.check(Schema.makeFilter((text: string) =>
    new URL(text).pathname.replace(/\/+$/, "").endsWith("/v2") && new URL(text).search === ""
      ? undefined
      : "must end with /v2 (the API Pix base URL, e.g. https://pix.example.com/api/v2)"
  )),
  Schema.decode({ decode: SchemaGetter.transform((text: string) => text.replace(/\/+$/, "")), encode: SchemaGetter.passthrough() })
)
