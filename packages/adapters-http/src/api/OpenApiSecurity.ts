/**
 * How the OpenAPI document describes `Authentication`. The middleware declares
 * `HttpApiSecurity.bearer`, which is how a request carries its token and all
 * that `HttpApiSecurity` can express; clients also need to know where the
 * token comes from (OAuth 2.0 client credentials at `/auth/token`), what each
 * scope grants, and that every authenticated operation reads `X-Sub-Account`.
 * `documentAuthentication` rewrites the generated document accordingly; the
 * scopes of each operation come from `requires` in `Common.ts`.
 */
import { AllScopes, type Scope } from "@billing/core"
import { Record } from "effect"
import type { Authentication } from "./Common.ts"

/** What each scope grants, for the OAuth2 scheme of the document; a new scope fails type checking until described. */
export const ScopeDescriptions: { readonly [S in Scope]: string } = {
  "pix.cob/write": "Create, cancel and archive immediate Pix charges",
  "pix.cob/read": "Read charges and their status",
  "checkouts/write": "Create charges on the transparent checkout, checkout links and sessions",
  "checkouts/read": "Read checkout links and sessions",
  "products/write": "Create, update, archive and delete products and prices",
  "products/read": "Read products and prices; list coupons",
  "customers/write": "Create and update customers",
  "customers/read": "Read and look up customers",
  "customers/delete": "Delete customers",
  "subscriptions/write": "Create and change subscriptions",
  "subscriptions/read": "Read subscriptions",
  "proposals/write": "Open sub-accounts (onboarding proposals)",
  "proposals/read": "Read onboarding proposals",
  "subaccounts/read": "List sub-accounts and the charges of the account",
  "wallet/write": "Withdraw, transfer, refund, and pay charges in the sandbox",
  "wallet/read": "Read the balance and the statement",
  "nota.fiscal/write": "Issue, cancel and configure fiscal invoices (NFS-e)",
  "nota.fiscal/read": "Read fiscal invoices",
  "coupons/write": "Create, update, pause and delete coupons",
  "coupons/read": "Read a coupon",
  "payment.methods/write": "Tokenize cards (pm_)",
  "webhooks/write": "Accepted for webhook management, which any valid token of the account may do",
  "webhooks/read": "Accepted for webhook management, which any valid token of the account may do"
}

/** The name of the scheme in `components.securitySchemes`: the key `Authentication` declares it under. */
const schemeName: keyof typeof Authentication.security = "oauth2"

const OAuth2Scheme = {
  type: "oauth2",
  description: "Send the access token as `Authorization: Bearer <access_token>`. "
    + "A token without the operation's scope answers 401 with the bare body `{ \"message\": \"TOKEN EXPIRADO OU INVALIDO\" }`.",
  flows: {
    clientCredentials: {
      tokenUrl: "/auth/token",
      scopes: Object.fromEntries(AllScopes.map((scope) => [scope, ScopeDescriptions[scope]]))
    }
  }
}

const XSubAccount = {
  name: "X-Sub-Account",
  in: "header",
  required: false,
  description: "Account number of a sub-account of the caller to act on. Absent, or the caller's own number: the caller's "
    + "account. A number under another master answers 401 `UNAUTHORIZED`; an unknown number 404 `NOT_FOUND`.",
  schema: { type: "string" }
}

const XSubAccountRef = { $ref: "#/components/parameters/XSubAccount" }

type Json = { readonly [key: string]: any }

const isAuthenticated = (operation: Json) => Array.isArray(operation.security) && operation.security.length > 0

const withSubAccount = (operation: Json): Json =>
  isAuthenticated(operation) ? { ...operation, parameters: [...(operation.parameters ?? []), XSubAccountRef] } : operation

/**
 * The OpenAPI transform of the API: the bearer scheme becomes the OAuth 2.0
 * client-credentials scheme with every scope, and each authenticated
 * operation declares the optional `X-Sub-Account` header.
 */
export const documentAuthentication = (spec: Json): Json => ({
  ...spec,
  paths: Record.map(spec.paths as { readonly [path: string]: Json }, (item) => Record.map(item, withSubAccount)),
  components: {
    ...spec.components,
    securitySchemes: { ...spec.components.securitySchemes, [schemeName]: OAuth2Scheme },
    parameters: { ...spec.components.parameters, XSubAccount }
  }
})
