/** `/v1/products`: products and their prices. Bad input answers `INVALID_PRODUCT_DATA`. */
import { InvalidProductData, ProductHasActiveSubscriptions, ProductInput, ProductNotFound, ProductUpdateView, ProductView } from "@billing/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { enveloped } from "../ErrorEnvelope.ts"
import {
  authenticated,
  CatalogueFilters,
  InvalidInputCode,
  KeysetPagination,
  KeysetQuery,
  ProductIdParam,
  requires
} from "./Common.ts"

export class ProductsGroup extends HttpApiGroup.make("products")
  .add(
    HttpApiEndpoint.post("create", "/", {
      payload: ProductInput,
      success: ProductView.pipe(HttpApiSchema.status(201)),
      error: enveloped(InvalidProductData)
    })
      .annotateMerge(requires("products/write"))
      .annotate(OpenApi.Summary, "Create a product"),
    HttpApiEndpoint.get("list", "/", {
      query: { ...KeysetQuery, ...CatalogueFilters },
      success: Schema.Struct({ items: Schema.Array(ProductView), pagination: KeysetPagination }),
      error: enveloped(InvalidProductData)
    })
      .annotateMerge(requires("products/read"))
      .annotate(OpenApi.Summary, "List products"),
    HttpApiEndpoint.get("get", "/:productId", {
      params: ProductIdParam,
      success: ProductView,
      error: enveloped(ProductNotFound)
    })
      .annotateMerge(requires("products/read"))
      .annotate(OpenApi.Summary, "Get a product"),
    HttpApiEndpoint.put("update", "/:productId", {
      params: ProductIdParam,
      payload: ProductInput,
      success: ProductUpdateView,
      error: [enveloped(InvalidProductData), enveloped(ProductNotFound)]
    })
      .annotateMerge(requires("products/write"))
      .annotate(OpenApi.Summary, "Update a product"),
    HttpApiEndpoint.delete("remove", "/:productId", {
      params: ProductIdParam,
      success: Schema.Struct({ message: Schema.String, productId: Schema.String, deleted: Schema.Literal(true) }),
      error: [enveloped(ProductNotFound), enveloped(ProductHasActiveSubscriptions)]
    })
      .annotateMerge(requires("products/write"))
      .annotate(OpenApi.Summary, "Delete a product"),
    HttpApiEndpoint.post("archive", "/:productId/archive", {
      params: ProductIdParam,
      success: Schema.Struct({ productId: Schema.String, status: Schema.Literal("archived"), archivedAt: Schema.String }),
      error: enveloped(ProductNotFound)
    })
      .annotateMerge(requires("products/write"))
      .annotate(OpenApi.Summary, "Archive a product")
  )
  .pipe(authenticated({ prefix: "/v1/products", title: "Products", description: "Products and prices" }))
  .annotate(InvalidInputCode, "INVALID_PRODUCT_DATA")
{}
