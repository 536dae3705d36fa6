/** `/v1/customers`: customers identified by CPF or CNPJ. */
import {
  CustomerAlreadyExists,
  CustomerDetailView,
  CustomerHasActiveSubscriptions,
  CustomerInput,
  CustomerNotFound,
  CustomerView,
  DocumentUpdateNotAllowed,
  InvalidData
} from "@billing/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { enveloped } from "../ErrorEnvelope.ts"
import { authenticated, CustomerIdParam, KeysetQuery, requires } from "./Common.ts"

const CustomerAddressView = CustomerView.fields.address

/** Update by PATCH, and by PUT as the provider's clients send it: only name, e-mail, phone and address change. */
const update = {
  params: CustomerIdParam,
  payload: CustomerInput,
  success: CustomerView,
  error: [enveloped(InvalidData), enveloped(DocumentUpdateNotAllowed), enveloped(CustomerNotFound)]
} as const

export class CustomersGroup extends HttpApiGroup.make("customers")
  .add(
    HttpApiEndpoint.post("create", "/", {
      payload: CustomerInput,
      success: CustomerView,
      error: [enveloped(InvalidData), enveloped(CustomerAlreadyExists)]
    })
      .annotateMerge(requires("customers/write"))
      .annotate(OpenApi.Summary, "Create a customer"),
    HttpApiEndpoint.get("list", "/", {
      query: {
        ...KeysetQuery,
        search: Schema.optionalKey(Schema.String),
        document: Schema.optionalKey(Schema.String),
        status: Schema.optionalKey(Schema.String),
        startDate: Schema.optionalKey(Schema.String),
        endDate: Schema.optionalKey(Schema.String),
        lookupDocument: Schema.optionalKey(Schema.String)
      },
      // `?lookupDocument=` answers one customer by exact document instead of a page.
      success: [
        Schema.Struct({ customer: Schema.NullOr(CustomerView), address: CustomerAddressView }),
        Schema.Struct({
          items: Schema.Array(CustomerView),
          pagination: Schema.Struct({ lastKey: Schema.NullOr(Schema.String), hasMore: Schema.Boolean, limit: Schema.Number })
        })
      ],
      error: enveloped(InvalidData)
    })
      .annotateMerge(requires("customers/read"))
      .annotate(OpenApi.Summary, "List customers or look one up by document"),
    HttpApiEndpoint.get("get", "/:customerId", {
      params: CustomerIdParam,
      success: CustomerDetailView,
      error: enveloped(CustomerNotFound)
    })
      .annotateMerge(requires("customers/read"))
      .annotate(OpenApi.Summary, "Get a customer"),
    HttpApiEndpoint.patch("update", "/:customerId", update)
      .annotateMerge(requires("customers/write"))
      .annotate(OpenApi.Summary, "Update a customer"),
    HttpApiEndpoint.put("replace", "/:customerId", update)
      .annotateMerge(requires("customers/write"))
      .annotate(OpenApi.Summary, "Update a customer (the provider's PUT, same rules as PATCH)"),
    HttpApiEndpoint.delete("remove", "/:customerId", {
      params: CustomerIdParam,
      success: Schema.Struct({ message: Schema.String, customerId: Schema.String }),
      error: [enveloped(CustomerNotFound), enveloped(CustomerHasActiveSubscriptions)]
    })
      .annotateMerge(requires("customers/delete", "customers/write"))
      .annotate(OpenApi.Summary, "Delete a customer")
  )
  .pipe(authenticated({ prefix: "/v1/customers", title: "Customers", description: "Customers identified by CPF or CNPJ" }))
{}
