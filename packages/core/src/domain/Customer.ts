import { Schema } from "effect"
import { ErrorFields } from "./Errors.ts"
import { SubscriptionSummary } from "./SubscriptionSummary.ts"
import { Cep, DocumentNumber, Email, IbgeCityCode, Name, optional, PhoneE164, Text, Uf } from "./Values.ts"
import { Instant, ReaisJson } from "./Wire.ts"
import { AccountId, CustomerId } from "./Ids.ts"

const NullableString = Schema.NullOr(Schema.String)

/** A customer's address: only the zip code is required. */
export const CustomerAddress = Schema.Struct({
  zipCode: Schema.String,
  street: NullableString,
  number: NullableString,
  complement: NullableString,
  neighborhood: NullableString,
  city: NullableString,
  state: NullableString,
  /** IBGE code of the city, resolved from the zip code where the engine can (see docs/decisions.md). */
  cityCode: NullableString
})
export type CustomerAddress = typeof CustomerAddress.Type

export const CustomerStatus = Schema.Literals(["ACTIVE", "INACTIVE", "BLOCKED"])

/** A buyer of an account (`cus_`), one live customer per document. */
export const Customer = Schema.Struct({
  id: CustomerId,
  accountId: AccountId,
  name: Schema.String,
  document: Schema.String,
  email: NullableString,
  phone: NullableString,
  status: CustomerStatus,
  address: Schema.NullOr(CustomerAddress),
  deletedAt: Schema.NullOr(Schema.Date),
  createdAt: Schema.Date,
  updatedAt: Schema.Date
}).annotate({ identifier: "CustomerRecord" })
export type Customer = typeof Customer.Type

/** 400: `upsert: true` asked to create a customer whose document is already registered. */
export class CustomerAlreadyExists extends Schema.TaggedError<CustomerAlreadyExists>()("CUSTOMER_ALREADY_EXISTS", ErrorFields, {
  httpApiStatus: 400
}) {}

/** 400: an update tried to change the document. */
export class DocumentUpdateNotAllowed extends Schema.TaggedError<DocumentUpdateNotAllowed>()("DOCUMENT_UPDATE_NOT_ALLOWED", ErrorFields, {
  httpApiStatus: 400
}) {}

/** 400: the customer has an open subscription; the message says how many. */
export class CustomerHasActiveSubscriptions extends Schema.TaggedError<CustomerHasActiveSubscriptions>()(
  "CUSTOMER_HAS_ACTIVE_SUBSCRIPTIONS",
  ErrorFields,
  { httpApiStatus: 400 }
) {}

/** 404: no such customer on the caller's account (or it was deleted). */
export class CustomerNotFound extends Schema.TaggedError<CustomerNotFound>()("CUSTOMER_NOT_FOUND", ErrorFields, {
  httpApiStatus: 404
}) {}

const OptionalString = optional(Text)

/** An address as clients send it: the zip code required, the rest optional, each part checked. */
export const AddressInput = Schema.Struct({
  zipCode: Cep,
  street: OptionalString,
  number: OptionalString,
  complement: OptionalString,
  neighborhood: OptionalString,
  city: OptionalString,
  state: optional(Uf),
  cityCode: optional(IbgeCityCode)
})
export type AddressInput = typeof AddressInput.Type

/** Body of `POST /v1/customers` (`document` and `name` required there) and of the update (all optional). */
export const CustomerInput = Schema.Struct({
  name: optional(Name),
  document: optional(DocumentNumber),
  email: optional(Email),
  phone: optional(PhoneE164),
  address: optional(AddressInput),
  upsert: optional(Schema.Boolean)
}).annotate({ identifier: "CustomerInput" })
export type CustomerInput = typeof CustomerInput.Type

/** An address as every view prints it (customers, charges): a customer's address, absent parts null. */
export const AddressView = CustomerAddress

const f = Customer.fields

export const CustomerView = Schema.Struct({
  customerId: f.id,
  name: f.name,
  document: f.document,
  email: f.email,
  phone: f.phone,
  status: f.status,
  address: f.address,
  createdAt: Instant,
  updatedAt: Instant
}).annotate({ identifier: "Customer" })

export const CustomerDetailView = Schema.Struct({
  ...CustomerView.fields,
  /** Lifetime value: what the customer has paid the account, in reais. */
  ltv: ReaisJson,
  addresses: Schema.Array(AddressView),
  subscriptions: Schema.Array(SubscriptionSummary)
}).annotate({ identifier: "CustomerDetail" })

export const toCustomerView = (c: Customer): typeof CustomerView.Type => ({
  customerId: c.id,
  name: c.name,
  document: c.document,
  email: c.email,
  phone: c.phone,
  status: c.status,
  address: c.address,
  createdAt: c.createdAt,
  updatedAt: c.updatedAt
})
