/**
 * Examples and a reading guide in the OpenAPI document. Effect derives schemas
 * but no examples, and a reference page is read for its examples first: this
 * transform gives every operation an example of each request body, parameter
 * and response, and a description stating its scope and its error codes.
 *
 * Examples are generated from the schemas themselves (a value of each
 * property's type, first enum member, Brazilian sample data chosen by the
 * property's name), so a new endpoint is documented without writing anything
 * here. A few requests that a new integrator sends first are written by hand
 * (`RequestExamples`); `test/docs.test.ts` sends them to a real server.
 * Every example must stay valid under its schema: Redocly's lint of the
 * document checks them.
 */

type Json = { readonly [key: string]: any }

/** One instant for every timestamp, so the examples agree with each other. */
const INSTANT = "2030-01-15T12:00:00.000Z"

/** Request bodies written by hand, by operation id: what a first integration sends. */
export const RequestExamples: { readonly [operationId: string]: Json } = {
  token: {
    grant_type: "client_credentials",
    client_id: "sandbox-client",
    client_secret: "sandbox-secret-change-me",
    scope: "pix.cob/write pix.cob/read"
  },
  "charges.createPix": {
    amount: 10.5,
    externalTxid: "loja-01",
    metadata: { orderId: "1234" }
  },
  "charges.checkout": {
    paymentMethod: "pix",
    amount: 49.9,
    description: "Pedido #1234",
    externalId: "pedido-1234",
    customer: { name: "Maria Silva", email: "maria@example.com", documentNumber: "52998224725" }
  },
  "customers.create": {
    name: "Maria Silva",
    document: "52998224725",
    email: "maria@example.com",
    phone: "+5511987654321"
  },
  "products.create": {
    name: "Plano Pro",
    type: "RECURRING",
    prices: [{ title: "Mensal", amount: 49.9, recurrenceType: "MONTHLY", recurrenceInterval: 1 }]
  },
  "webhooks.register": {
    url: "https://example.com/webhooks/billing",
    events: ["payment.success", "charge.expired"]
  },
  // A municipal issuer (São Paulo); the certificate's base64 is cut short here.
  "nfseConfigs.create": {
    config_name: "Licenças de software",
    invoiceTiming: "AFTER_CONFIRMATION",
    descricao_servico: "Licenciamento de uso de software",
    item_lista_servico: "01.05",
    aliquota_iss: 2.9,
    prestador: { codigo_municipio: "3550308", codigo_opcao_simples_nacional: 3, regime_especial_tributacao: 0, inscricao_municipal: "12345678" },
    prefeitura: { login: "loja", senha: "senha-do-portal", serie_rps: "A1", proximo_numero_rps: 1 },
    certificate: { pfx_base64: "MIIKZAIBAzCCCi4GCSqGSIb3DQEHAaCCCh8EggobMIIKFzCCBK8GCSqGSIb3DQEHBqCCBKAwggScAgEA", password: "senha-do-certificado" }
  },
  "nfseConfigs.update": {
    enabled: true,
    prefeitura: { proximo_numero_rps: 101 }
  }
}

// Sample values by property name: a generic `"string"` tells a reader less
// than a CPF where a CPF goes. Ids carry the prefixes the engine issues.
const StringsByName: { readonly [name: string]: string } = {
  accountId: "acc_4f8k2m9x1q7w3e5r",
  masterAccountId: "acc_4f8k2m9x1q7w3e5r",
  masterAccointId: "acc_4f8k2m9x1q7w3e5r",
  subAccountId: "acc_9d2h6j1k5l8z3x7c",
  subaccountId: "acc_9d2h6j1k5l8z3x7c",
  accountNumber: "10000001",
  chargeId: "cha_7k2m9x4q1w8e5r3t",
  customerId: "cus_3n8b5v2c7x1z9m4k",
  productId: "prod_6t1y8u3i5o2p9a4s",
  priceId: "price_2d7f4g9h1j6k3l8q",
  couponId: "cpn_5w2e7r4t9y1u6i3o",
  webhookId: "uwh_8a3s6d1f4g9h2j7k",
  webhookEventId: "whe_1z6x3c8v5b2n7m4q",
  paymentMethodId: "pm_4r9t2y7u1i6o3p8a",
  tokenId: "pm_4r9t2y7u1i6o3p8a",
  id: "pl_7q2w9e4r1t6y3u8i",
  publicId: "pl_7q2w9e4r1t6y3u8i",
  endToEndId: "E1234567820300115120000000000001",
  txid: "7k2m9x4q1w8e5r3t0000000000",
  name: "Maria Silva",
  email: "maria@example.com",
  document: "52998224725",
  documentNumber: "52998224725",
  taxId: "52998224725",
  phone: "+5511987654321",
  cep: "01310100",
  zipCode: "01310100",
  street: "Avenida Paulista",
  number: "1000",
  complement: "Sala 12",
  neighborhood: "Bela Vista",
  city: "São Paulo",
  cityCode: "3550308",
  state: "SP",
  country: "BR",
  currency: "BRL",
  url: "https://example.com/webhooks/billing",
  pdfUrl: "https://example.com/v1/charges/cha_7k2m9x4q1w8e5r3t/boleto.pdf",
  description: "Pedido #1234",
  title: "Mensal",
  statementDescriptor: "LOJA TESTE",
  code: "BEMVINDO10",
  couponCode: "BEMVINDO10",
  event: "payment.success",
  entity: "payment.success",
  externalId: "pedido-1234",
  externalTxid: "loja-01",
  emv: "00020101021226860014br.gov.bcb.pix2564pix.example.com/qr/v3/7k2m9x4q1w8e5r3t5204000053039865802BR6304ABCD",
  emvQrCode: "00020101021226860014br.gov.bcb.pix2564pix.example.com/qr/v3/7k2m9x4q1w8e5r3t5204000053039865802BR6304ABCD",
  qrCode: "data:image/png;base64,iVBORw0KGgo=",
  digitableLine: "23790.00009 00000.000009 00000.000009 1 99990000004990",
  barCode: "23791999900000049900000000000000000000000000",
  ourNumber: "00000000001",
  expiration: "2030-01-20",
  grant_type: "client_credentials",
  client_id: "sandbox-client",
  client_secret: "sandbox-secret-change-me",
  scope: "pix.cob/write pix.cob/read",
  access_token: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhY2NfNGY4azJtOXgxcTd3M2U1ciJ9.c2lnbmF0dXJl",
  secret: "whsec_2b7e151628aed2a6abf7158809cf4f3c",
  authToken: "receiver-token",
  bank: "Banco Exemplo",
  bankCode: "237",
  branch: "0001",
  account: "12345-6",
  brand: "VISA",
  firstSix: "411111",
  lastFour: "1111",
  lastKey: "cha_7k2m9x4q1w8e5r3t",
  nextPageToken: "whe_1z6x3c8v5b2n7m4q",
  message: "Descrição legível do resultado",
  reason: "receiver answered HTTP 500",
  error: "receiver answered HTTP 500"
}

const NumbersByName: { readonly [name: string]: number } = {
  expires_in: 3600,
  statusCode: 200,
  responseStatusCode: 200,
  limit: 15,
  perPage: 15,
  total: 1,
  installments: 1,
  quantity: 1,
  billingDay: 10,
  recurrenceInterval: 1
}

/** A name that reads as an instant (`createdAt`, `paidAt`) or as a calendar date (`dueDate`, `dateFrom`). */
const stringByShape = (name: string): string | undefined =>
  /At$/.test(name) || name === "timestamp" || name === "validFrom" || name === "validUntil"
    ? INSTANT
    : /Date$|^date[A-Z]|^(start|end)Date$/.test(name)
    ? "2030-01-20"
    : undefined

/** Where the generator stands: the document, which side of the exchange, and the `$ref`s it is inside (to stop at a cycle). */
interface Walk {
  readonly doc: Json
  readonly mode: "request" | "response"
  readonly refs: ReadonlySet<string>
}

// Deep enough for every schema of the API; a guard against a runaway recursion.
const MAX_REF_DEPTH = 12

const isNull = (schema: Json) => schema.type === "null"

/** The object a local `$ref` (`#/components/...`) names. */
const resolveRef = (doc: Json, ref: string): Json =>
  ref.slice(2).split("/").reduce((at: Json | undefined, part) => at?.[part], doc) ?? {}

const clamp = (value: number, schema: Json) => {
  const min = typeof schema.minimum === "number" ? schema.minimum : -Infinity
  const max = typeof schema.maximum === "number" ? schema.maximum : Infinity
  return Math.min(max, Math.max(min, value))
}

const fitString = (value: string, schema: Json) =>
  typeof schema.maxLength === "number" ? value.slice(0, schema.maxLength) : value

/**
 * An example value of `schema`, or `undefined` when none can be made (a
 * cycle). `name` is the property the value stands in, for the sample tables.
 */
const exampleOf = (ctx: Walk, schema: Json | undefined, name: string | undefined): unknown => {
  if (schema === undefined || typeof schema !== "object") return null
  if (typeof schema.$ref === "string") {
    if (ctx.refs.has(schema.$ref) || ctx.refs.size > MAX_REF_DEPTH) return undefined
    return exampleOf({ ...ctx, refs: new Set([...ctx.refs, schema.$ref]) }, resolveRef(ctx.doc, schema.$ref), name)
  }
  if (schema.example !== undefined) return schema.example
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0]
  if (schema.const !== undefined) return schema.const
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0]
  const members = schema.anyOf ?? schema.oneOf
  if (Array.isArray(members)) {
    // The first member that is not `null` says the most; a nullable field is shown filled.
    for (const member of members.filter((m: Json) => !isNull(m))) {
      const value = exampleOf(ctx, member, name)
      if (value !== undefined) return value
    }
    return null
  }
  if (Array.isArray(schema.allOf)) {
    return Object.assign({}, ...schema.allOf.map((member: Json) => exampleOf(ctx, member, name) ?? {}))
  }
  switch (schema.type) {
    case "object":
      return objectExample(ctx, schema, name)
    case "array": {
      const item = exampleOf(ctx, schema.items, singular(name))
      return item === undefined ? [] : [item]
    }
    case "string": {
      if (schema.format === "binary") return undefined
      const sample = name === undefined ? undefined : StringsByName[name] ?? stringByShape(name)
      return fitString(sample ?? (schema.format === "date-time" ? INSTANT : "string"), schema)
    }
    case "integer":
    case "number": {
      const sample = name === undefined ? undefined : NumbersByName[name]
      return clamp(sample ?? (schema.type === "number" ? 10.5 : 1), schema)
    }
    case "boolean":
      return name === "hasMore" ? false : true
    case "null":
      return null
  }
  // `{}`: anything. `metadata` reads better as an object, the rest as `null`.
  return name === "metadata" ? { orderId: "1234" } : null
}

const singular = (name: string | undefined) => name?.replace(/s$/, "")

const objectExample = (ctx: Walk, schema: Json, name: string | undefined) => {
  const properties: Json = schema.properties ?? {}
  const required: ReadonlyArray<string> = schema.required ?? []
  // A request shows what must be sent (all fields when none is required); a
  // response shows everything it can carry.
  const keys = ctx.mode === "request" && required.length > 0 ? required : Object.keys(properties)
  if (keys.length === 0) return name === "metadata" ? { orderId: "1234" } : {}
  const out: Record<string, unknown> = {}
  for (const key of keys) {
    const value = exampleOf(ctx, properties[key], key)
    if (value !== undefined) out[key] = value
  }
  return out
}

/** `CHARGE_NOT_FOUND` → `Charge not found`: a readable stand-in for the message of an error example. */
const sentenceOf = (code: string) => {
  const words = code.toLowerCase().replace(/_/g, " ")
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/** The error codes a response schema can carry: the `code` of envelopes and of bare refusals, the `error` of OAuth bodies. */
const codesOf = (doc: Json, schema: Json | undefined): Array<string> => {
  if (schema === undefined) return []
  const resolved = typeof schema.$ref === "string" ? resolveRef(doc, schema.$ref) : schema
  if (Array.isArray(resolved.anyOf)) return resolved.anyOf.flatMap((member: Json) => codesOf(doc, member))
  const error = resolved.properties?.error
  const codes = error?.properties?.code?.enum ?? error?.enum ?? resolved.properties?.code?.enum
  return Array.isArray(codes) ? codes.filter((c: unknown): c is string => typeof c === "string") : []
}

const memberExamples = (ctx: Walk, schema: Json): Json | undefined => {
  const members: ReadonlyArray<Json> | undefined = schema.anyOf
  if (!Array.isArray(members) || members.length < 2) return undefined
  const entries = members.flatMap((member) => {
    const codes = codesOf(ctx.doc, member)
    const value = exampleOf(ctx, member, undefined)
    if (codes.length !== 1 || value === undefined) return []
    const code = codes[0]!
    return [[code, { summary: code, value: withMessage(value, code) }] as const]
  })
  return entries.length === members.length ? Object.fromEntries(entries) : undefined
}

/** An error example reads better with a message that names its code. */
const withMessage = (value: unknown, code: string): unknown => {
  if (typeof value !== "object" || value === null) return value
  const body = value as Json
  if (typeof body.error === "object" && body.error !== null && "message" in body.error) {
    return { ...body, error: { ...body.error, message: sentenceOf(code), details: null } }
  }
  if (typeof body.error === "string" && "error_description" in body) return { ...body, error_description: sentenceOf(code) }
  if (typeof body.code === "string" && typeof body.message === "string") return { ...body, message: sentenceOf(code) }
  return value
}

/**
 * A media type object with an example added when it has none. Requests get
 * `example`; responses get the `examples` map (Scalar shows a response's
 * `examples` and generates its own from the schema otherwise), with one entry
 * per error code where a status carries several.
 */
const withExample = (ctx: Walk, media: Json, handWritten: Json | undefined, status: string | undefined): Json => {
  if (media.example !== undefined || media.examples !== undefined || media.schema === undefined) return media
  if (status === undefined) {
    const value = handWritten ?? exampleOf(ctx, media.schema, undefined)
    return value === undefined ? media : { ...media, example: value }
  }
  const schema = typeof media.schema.$ref === "string" ? resolveRef(ctx.doc, media.schema.$ref) : media.schema
  const isError = !status.startsWith("2")
  const perCode = isError ? memberExamples(ctx, schema) : undefined
  if (perCode !== undefined) return { ...media, examples: perCode }
  const value = exampleOf(ctx, media.schema, undefined)
  if (value === undefined) return media
  const codes = isError ? codesOf(ctx.doc, media.schema) : []
  const [name, example] = codes.length === 1 ? [codes[0]!, withMessage(value, codes[0]!)] : [`HTTP ${status}`, value]
  return { ...media, examples: { [name]: { summary: name, value: example } } }
}

const withContentExamples = (ctx: Walk, content: Json | undefined, handWritten: Json | undefined, status?: string) =>
  content === undefined
    ? content
    : Object.fromEntries(Object.entries(content).map(([type, media]) => [type, withExample(ctx, media, handWritten, status)]))

const withParameterExample = (doc: Json) => (parameter: Json): Json => {
  if (typeof parameter.$ref === "string" || parameter.example !== undefined || parameter.schema === undefined) return parameter
  const value = exampleOf({ doc, mode: "request", refs: new Set() }, parameter.schema, parameter.name)
  return value === undefined || value === null ? parameter : { ...parameter, example: value }
}

/** The lines added to an operation's description: the scope it needs and every error code per status. */
const guide = (doc: Json, operation: Json): string => {
  const requirements: ReadonlyArray<Json> = operation.security ?? []
  const scopes = requirements.flatMap((r) => Object.values(r).flat() as Array<string>)
  const access = requirements.length === 0
    ? "**Access:** public, no token."
    : `**Scope:** ${scopes.length === 0 ? "any valid token" : scopes.map((s) => `\`${s}\``).join(", ")}.`
  const errors = Object.entries(operation.responses ?? {})
    .filter(([status]) => !status.startsWith("2"))
    .map(([status, response]) => {
      const codes = [...new Set(Object.values((response as Json).content ?? {}).flatMap((m) => codesOf(doc, (m as Json).schema)))]
      return codes.length === 0 ? `${status}` : `${status} ${codes.map((c) => `\`${c}\``).join(", ")}`
    })
  return errors.length === 0 ? access : `${access}\n\n**Errors:** ${errors.join("; ")}.`
}

const HTTP_METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"])

const documentOperation = (doc: Json, operation: Json): Json => {
  const handWritten = RequestExamples[operation.operationId]
  const request: Walk = { doc, mode: "request", refs: new Set() }
  const response: Walk = { doc, mode: "response", refs: new Set() }
  const description = [operation.description, guide(doc, operation)].filter(Boolean).join("\n\n")
  return {
    ...operation,
    description,
    ...(operation.parameters ? { parameters: operation.parameters.map(withParameterExample(doc)) } : {}),
    ...(operation.requestBody
      ? {
        requestBody: {
          ...operation.requestBody,
          content: withContentExamples(request, operation.requestBody.content, handWritten)
        }
      }
      : {}),
    responses: Object.fromEntries(Object.entries(operation.responses ?? {}).map(([status, r]) => {
      const value = r as Json
      return [status, value.content ? { ...value, content: withContentExamples(response, value.content, undefined, status) } : value]
    }))
  }
}

/**
 * The OpenAPI transform that documents each operation for readers: an
 * example of every request body, parameter and response (one per error code
 * where a status carries several), and a description naming the scope and
 * the error codes. Runs last, on the document the other transforms produced.
 */
export const documentExamples = (spec: Json): Json => ({
  ...spec,
  paths: Object.fromEntries(Object.entries(spec.paths as Json).map(([path, item]) => [
    path,
    Object.fromEntries(Object.entries(item as Json).map(([method, operation]) => [
      method,
      HTTP_METHODS.has(method) ? documentOperation(spec, operation as Json) : operation
    ]))
  ]))
})
