/**
 * What the groups of the contract share: the wiring of an authenticated `/v1`
 * group, the scope an endpoint requires, path ids and pagination query
 * fields. A group file declares its endpoints and pipes them through
 * `authenticated`; nothing here is specific to one resource.
 */
import {
  AccountNotFound,
  Caller,
  ChargeId,
  CheckoutLinkId,
  CheckoutSessionId,
  CouponId,
  CustomerId,
  InvalidData,
  NotFound,
  ProductId,
  QueryInt,
  type Scope,
  Text,
  Unauthorized,
  WebhookDeliveryId,
  WebhookId
} from "@billing/core"
import { Context, Record, Schema } from "effect"
import type { HttpRouter } from "effect/http"
import {
  type HttpApiEndpoint,
  type HttpApiGroup,
  HttpApiMiddleware,
  HttpApiSecurity,
  OpenApi
} from "effect/http-api"
import { enveloped } from "../ErrorEnvelope.ts"

/** The code of a bad-input 400 in a group (default `INVALID_DATA`); products answer `INVALID_PRODUCT_DATA`. */
export class InvalidInputCode extends Context.Service<InvalidInputCode, string>()("@billing/adapters-http/InvalidInputCode") {}

/**
 * How a group refuses an `X-Sub-Account` of another master (default 401
 * `UNAUTHORIZED`); the wallet answers 401 `OWNERSHIP_MISMATCH`, as the provider.
 */
export class ForeignSubAccountCode extends Context.Service<ForeignSubAccountCode, "UNAUTHORIZED" | "OWNERSHIP_MISMATCH">()(
  "@billing/adapters-http/ForeignSubAccountCode"
) {}

/**
 * The scopes that grant a route, any one of them (none: any valid token of
 * the account); read by the `Authentication` middleware. Set it with {@link requires}.
 */
export class RequiredScope extends Context.Service<RequiredScope, ReadonlyArray<Scope>>()("@billing/adapters-http/RequiredScope") {}

/**
 * `Authorization: Bearer <access token>`, the credential of every
 * authenticated route. The OpenAPI document describes it as the OAuth 2.0
 * client-credentials flow that issues the token (see `OpenApiSecurity.ts`).
 */
export const Bearer = HttpApiSecurity.bearer

/**
 * Authenticates `/v1` requests (bearer token, scope of the route,
 * `X-Sub-Account`) and provides the `Caller` to handlers. Its refusals are
 * answered in the spec's shapes: envelope 401/404, or the bare
 * `{ message }` 401 of a missing scope.
 */
export class Authentication extends HttpApiMiddleware.Service<Authentication, { provides: Caller }>()(
  "@billing/adapters-http/Authentication",
  {
    security: { oauth2: Bearer },
    error: [enveloped(Unauthorized), enveloped(AccountNotFound), enveloped(NotFound)]
  }
) {}

/** Turns request decoding failures into 400 `INVALID_DATA` (or the group's `InvalidInputCode`) with the offending fields. */
export class InvalidInput extends HttpApiMiddleware.Service<InvalidInput>()("@billing/adapters-http/InvalidInput", {
  error: enveloped(InvalidData)
}) {}

/**
 * The wiring of an authenticated `/v1` group: every path under `prefix`, bad
 * input answered in the envelope, and the caller authenticated first (the
 * middleware added last runs first), so a bad token wins over a bad body and
 * costs no decoding. `title` and `description` name the group's OpenAPI tag.
 */
export const authenticated = <const Prefix extends HttpRouter.PathInput>(options: {
  readonly prefix: Prefix
  readonly title: string
  readonly description: string
}) =>
<Id extends string, Endpoints extends HttpApiEndpoint.Constraint>(group: HttpApiGroup.HttpApiGroup<Id, Endpoints>) =>
  group
    .middleware(InvalidInput)
    .middleware(Authentication)
    .prefix(options.prefix)
    .annotateMerge(OpenApi.annotations({ title: options.title, description: options.description }))

/**
 * The annotations of an endpoint granted by any one of `scopes` (none: any
 * valid token of the account): `Authentication` refuses a token without one
 * of them, and the OpenAPI operation lists them in its `security`, one
 * alternative each (the middleware declares the scheme but cannot know the scopes).
 *
 * ```ts
 * HttpApiEndpoint.delete("remove", "/:id", { ... }).annotateMerge(requires("customers/delete", "customers/write"))
 * ```
 */
export const requires = (...scopes: ReadonlyArray<Scope>): Context.Context<RequiredScope> =>
  Context.merge(
    Context.make(RequiredScope, scopes),
    OpenApi.annotations({
      transform: (operation) => {
        const requirements = operation.security as ReadonlyArray<{ readonly [scheme: string]: ReadonlyArray<string> }>
        return {
          ...operation,
          security: scopes.length === 0
            ? requirements
            : requirements.flatMap((requirement) => scopes.map((scope) => Record.map(requirement, () => [scope])))
        }
      }
    })
  )

/**
 * A path id: opaque, so an id of another account or of nothing answers the
 * resource's 404, never a 400; but bounded (100 characters, no NUL, which
 * PostgreSQL text cannot hold), so no id reaches a query it cannot run.
 */
export const Id = Text.pipe(Schema.check(Schema.isMaxLength(100)))

/** A path id of one kind of entity: bounded as `Id`, then decoded into its brand, so a handler hands the use case a `ChargeId`, not any string. */
export const idOf = <A extends string>(schema: Schema.Codec<A, string>) => Id.pipe(Schema.decodeTo(schema))

export const ChargeIdParam = { chargeId: idOf(ChargeId) }
export const WebhookIdParam = { webhookId: idOf(WebhookId) }
export const WebhookEventIdParam = { webhookEventId: idOf(WebhookDeliveryId) }
export const ProductIdParam = { productId: idOf(ProductId) }
export const CustomerIdParam = { customerId: idOf(CustomerId) }
export const CouponIdParam = { couponId: idOf(CouponId) }
/** Checkout links (`pl_`) and sessions (`cs_`) are both at `/:id`, each decoded as its own kind. */
export const LinkIdParam = { id: idOf(CheckoutLinkId) }
export const SessionIdParam = { id: idOf(CheckoutSessionId) }

/** `?limit=`: page size; each use case applies its own default and bounds. */
export const LimitQuery = { limit: Schema.optionalKey(QueryInt) }

/** Keyset pagination: `limit` and the `lastKey` of the previous page. */
export const KeysetQuery = { ...LimitQuery, lastKey: Schema.optionalKey(Schema.String) }

/** The filters of catalogue lists (products, coupons): `status` and a free-text `search`. */
export const CatalogueFilters = {
  status: Schema.optionalKey(Schema.String),
  search: Schema.optionalKey(Schema.String)
}

/** The `pagination` object of keyset lists that count their total (products, checkout links). */
export const KeysetPagination = Schema.Struct({
  total: Schema.Number,
  limit: Schema.Number,
  hasMore: Schema.Boolean,
  lastKey: Schema.NullOr(Schema.String)
})
