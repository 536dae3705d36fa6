/**
 * The page's one stylesheet and one script, served from this server at
 * paths versioned by their content hash and cached for a year as immutable:
 * a new version is a new path, so no buyer keeps an old script against a
 * new page. No CDN, no third party: the page works offline from the
 * bundled server, and the Content-Security-Policy can say `'self'`.
 */
import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"

export interface Asset {
  readonly path: string
  readonly contentType: string
  readonly body: Uint8Array
}

const load = (file: string, contentType: string): Asset => {
  const body = readFileSync(new URL(`./assets/${file}`, import.meta.url))
  const hash = createHash("sha256").update(body).digest("hex").slice(0, 16)
  const [name, extension] = file.split(".")
  return { path: `${ASSETS_PATH}/${name}.${hash}.${extension}`, contentType, body: new Uint8Array(body) }
}

/** Where the assets are served; a route of its own under `/pay`. */
export const ASSETS_PATH = "/pay/assets"

export const stylesheet = load("checkout.css", "text/css; charset=utf-8")
export const script = load("checkout.js", "text/javascript; charset=utf-8")

/** The asset at `path`, if it is the current version of one. */
export const assetAt = (path: string): Asset | undefined => [stylesheet, script].find((asset) => asset.path === path)
