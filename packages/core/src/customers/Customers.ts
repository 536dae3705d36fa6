/**
 * Customers of the caller's account (spec: Customer, Customers). The
 * document identifies a customer: creating one that exists answers the
 * current record (or `CUSTOMER_ALREADY_EXISTS` with `upsert: true`), and it
 * can never change.
 */
import { Clock, Effect, Option } from "effect"
import { Caller } from "../auth/Authenticate.ts"
import { cityCodeOfCep } from "../brazil/CityCodes.ts"
import { normalizeDocument } from "../brazil/Documents.ts"
import {
  type AddressInput,
  type Customer,
  type CustomerAddress,
  CustomerAlreadyExists,
  type CustomerInput,
  CustomerHasActiveSubscriptions,
  CustomerNotFound,
  DocumentUpdateNotAllowed,
  toCustomerView
} from "../domain/Customer.ts"
import { invalidData as invalid } from "../domain/Errors.ts"
import { dateBound, pageLimit, type SearchQuery } from "../domain/Pagination.ts"
import { Charges } from "../ports/Charges.ts"
import { Subscriptions } from "../ports/Subscriptions.ts"
import { toSubscriptionSummary } from "../domain/SubscriptionSummary.ts"
import { Customers } from "../ports/Customers.ts"
import { Ids } from "../ports/Ids.ts"
import { Transactor } from "../ports/Transactor.ts"
import { type CustomerId, CustomerIds } from "../domain/Ids.ts"

/** The address to store: each part was checked by decoding; the IBGE code is resolved from the zip code when absent. */
const toAddress = (input: AddressInput): CustomerAddress => ({
  zipCode: input.zipCode,
  street: input.street ?? null,
  number: input.number ?? null,
  complement: input.complement ?? null,
  neighborhood: input.neighborhood ?? null,
  city: input.city ?? null,
  state: input.state ?? null,
  cityCode: input.cityCode ?? cityCodeOfCep(input.zipCode) ?? null
})

const findOwn = Effect.fn("Customers.findOwn")(function*(id: CustomerId) {
  const caller = yield* Caller
  const found = yield* (yield* Customers).find(caller.account.id, id)
  if (Option.isNone(found)) return yield* new CustomerNotFound({ message: `Cliente ${id} não encontrado`, details: null })
  return found.value
})

export const createCustomer = Effect.fn("Customers.create")(function*(input: CustomerInput) {
  const caller = yield* Caller
  const name = input.name?.trim()
  if (!name) return yield* invalid("name", "name is required")
  const document = input.document
  if (document === undefined) return yield* invalid("document", "document is required")
  const address = input.address === undefined ? null : toAddress(input.address)
  const at = new Date(yield* Clock.currentTimeMillis)
  const customer: Customer = {
    id: yield* (yield* Ids).make(CustomerIds, { sandbox: caller.account.sandbox }),
    accountId: caller.account.id,
    name,
    document,
    email: input.email ?? null,
    phone: input.phone ?? null,
    status: "ACTIVE",
    address,
    deletedAt: null,
    createdAt: at,
    updatedAt: at
  }
  const transactor = yield* Transactor
  const result = yield* transactor.withTransaction((yield* Customers).insertIfAbsent(customer))
  if (!result.created && input.upsert === true) {
    return yield* new CustomerAlreadyExists({
      message: `Já existe um cliente com o documento ${document}`,
      details: { customerId: result.customer.id }
    })
  }
  return toCustomerView(result.customer)
})

export const getCustomer = Effect.fn("Customers.get")(function*(id: CustomerId) {
  const customer = yield* findOwn(id)
  const ltv = yield* (yield* Charges).paidByCustomer(customer.accountId, customer.id)
  const subscriptions = yield* (yield* Subscriptions).listByCustomer(customer.accountId, customer.id)
  return {
    ...toCustomerView(customer),
    ltv,
    addresses: customer.address === null ? [] : [customer.address],
    subscriptions: subscriptions.map(toSubscriptionSummary)
  }
})

export const lookupCustomerByDocument = Effect.fn("Customers.lookupDocument")(function*(document: string) {
  const caller = yield* Caller
  const found = yield* (yield* Customers).findByDocument(caller.account.id, normalizeDocument(document))
  return Option.match(found, {
    onNone: () => ({ customer: null, address: null }),
    onSome: (c) => ({ customer: toCustomerView(c), address: c.address })
  })
})

export const listCustomers = Effect.fn("Customers.list")(function*(query: SearchQuery & {
  readonly document?: string | undefined
  readonly startDate?: string | undefined
  readonly endDate?: string | undefined
}) {
  const caller = yield* Caller
  const limit = yield* pageLimit(query.limit, 20, invalid)
  if (query.status !== undefined && !["ACTIVE", "INACTIVE", "BLOCKED"].includes(query.status)) {
    return yield* invalid("status", "status must be ACTIVE, INACTIVE or BLOCKED")
  }
  const date = (field: "startDate" | "endDate", endOfDay: boolean) => dateBound(query[field], { field, endOfDay, invalid })
  const page = yield* (yield* Customers).list(caller.account.id, {
    limit,
    after: query.lastKey ?? null,
    search: query.search?.trim() || null,
    document: query.document === undefined ? null : normalizeDocument(query.document),
    status: query.status ?? null,
    from: yield* date("startDate", false),
    to: yield* date("endDate", true)
  })
  return { items: page.items.map(toCustomerView), pagination: { lastKey: page.lastKey, hasMore: page.lastKey !== null, limit } }
})

export const updateCustomer = Effect.fn("Customers.update")(function*(id: CustomerId, input: CustomerInput) {
  const current = yield* findOwn(id)
  if (input.document !== undefined && input.document !== current.document) {
    return yield* new DocumentUpdateNotAllowed({ message: "O documento do cliente não pode ser alterado", details: { field: "document" } })
  }
  const name = input.name === undefined ? current.name : input.name.trim()
  if (name.length === 0) return yield* invalid("name", "name must not be empty")
  const updated: Customer = {
    ...current,
    name,
    email: input.email ?? current.email,
    phone: input.phone ?? current.phone,
    address: input.address === undefined ? current.address : toAddress(input.address),
    updatedAt: new Date(yield* Clock.currentTimeMillis)
  }
  const transactor = yield* Transactor
  yield* transactor.withTransaction((yield* Customers).update(updated))
  return toCustomerView(updated)
})

/**
 * Hides the customer from listings and frees its document; its charges keep
 * pointing at it. A customer with open subscriptions is refused
 * (`CUSTOMER_HAS_ACTIVE_SUBSCRIPTIONS`, the message says how many).
 */
export const deleteCustomer = Effect.fn("Customers.delete")(function*(id: CustomerId) {
  const caller = yield* Caller
  yield* findOwn(id)
  const open = yield* (yield* Subscriptions).countOpen(caller.account.id, { customerId: id })
  if (open > 0) {
    return yield* new CustomerHasActiveSubscriptions({
      message: `O cliente tem ${open} assinatura(s) ativa(s); cancele-as antes de removê-lo`,
      details: { customerId: id, activeSubscriptions: open }
    })
  }
  const at = new Date(yield* Clock.currentTimeMillis)
  const transactor = yield* Transactor
  yield* transactor.withTransaction((yield* Customers).markDeleted(caller.account.id, id, at))
  return { message: "Cliente removido com sucesso", customerId: id }
})

/** `GET /v1/customers`: one customer by exact document with `lookupDocument`, else a page of the list. */
export const queryCustomers = Effect.fn("Customers.query")(function*(query: Parameters<typeof listCustomers>[0] & {
  readonly lookupDocument?: string | undefined
}) {
  if (query.lookupDocument !== undefined) return yield* lookupCustomerByDocument(query.lookupDocument)
  return yield* listCustomers(query)
})
