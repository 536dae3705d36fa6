/**
 * `GET /docs`: the API reference, rendered by Scalar from the same OpenAPI
 * document that `/v1/openapi.json` serves (both are `OpenApi.fromApi` of
 * `BillingApi`, so they carry the same transforms: OAuth scopes, amounts,
 * examples).
 *
 * The page works with no network: `HttpApiScalar.layer` inlines the Scalar
 * bundle that ships inside `effect` (its `layerCdn` twin would load it from a
 * CDN), and Scalar's default fonts, fetched from Scalar's own host, are
 * turned off in favour of the system's. `test/docs.test.ts` opens the page in
 * Chromium with every non-local request blocked.
 */
import { HttpApiScalar } from "effect/http-api"
import { BillingApi } from "./api/Api.ts"

/** Where the reference is served. */
export const DOCS_PATH = "/docs"

// Options of the bundled Scalar beyond those Effect types: no usage data, and
// no developer toolbar (its "Share" and "Generate SDKs" lead to Scalar's site).
const scalar: HttpApiScalar.ScalarConfig & { readonly telemetry: boolean; readonly showDeveloperTools: "never" } = {
  // Fonts would come from Scalar's host: the page must render offline.
  withDefaultFonts: false,
  // Every group unfolded: a reader scanning for a route finds it without clicking.
  defaultOpenAllTags: true,
  authentication: { preferredSecurityScheme: "oauth2" },
  telemetry: false,
  showDeveloperTools: "never"
}

/** The route of the API reference page. */
export const DocsLive = HttpApiScalar.layer(BillingApi, { path: DOCS_PATH, scalar })
