/**
 * Our overlay on the BCB API Pix 2.9.0 (`../shared/reference/bcb-pix-api/openapi.yaml`,
 * read, never copied): the file's known defects mended so that a strict
 * validator can hold both sides to it, and the few routes and parameters
 * the PSPs add, each saying why. Everything else is the file as published.
 */

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)

/** Visits every object of `node`, depth first. */
const walk = (node: unknown, visit: (object: Json) => void): void => {
  if (Array.isArray(node)) return node.forEach((item) => walk(item, visit))
  if (!isObject(node)) return
  visit(node)
  Object.values(node).forEach((value) => walk(value, visit))
}

const schemas = (spec: Json) => (spec.components as Json).schemas as Json

/** The README's defects, and the ones this overlay found the same way (a strict validator refused the file's own examples). */
const mendDefects = (spec: Json) => {
  walk(spec, (object) => {
    // README: patterns written with literal slashes (`/^\d{11}$/`), and patterns not anchored
    // (`[a-zA-Z0-9]{26,35}` would accept a 40-character txid).
    if (typeof object.pattern === "string") {
      const bare = object.pattern.replace(/^\/(.*)\/$/, "$1")
      object.pattern = bare.startsWith("^") ? bare : `^(?:${bare})$`
    }
    // README: `location` is declared `format: uri` but carries no scheme (`pix.example.com/qr/v2/…`).
    if (isObject(object.properties) && isObject(object.properties.location)) delete object.properties.location.format
    // Once anchored, `allOf: [TxId (26 to 35), 1 to 35]` would demand 26 to 35 of a Pix's txid, which may be
    // a static code's (up to 25): the narrower pattern is the one meant.
    if (Array.isArray(object.allOf) && object.allOf.length === 2 && isObject(object.allOf[0]) && object.allOf[0].$ref === "#/components/schemas/TxId") {
      const narrower = object.allOf[1] as Json
      delete object.allOf
      Object.assign(object, { type: "string", pattern: narrower.pattern })
    }
  })
  const all = schemas(spec)
  // README: `RecNotification.required` lists `atualizacao"` (a stray quote).
  const notification = all.RecNotification as Json
  notification.required = (notification.required as Array<string>).map((name) => name.replace(/"$/, ""))
  // Found here: `PixConsultados` (the answer of GET /pix) requires `cobs`, copied from `CobsConsultadas`; its list is `pix`.
  ;(all.PixConsultados as Json).required = ["parametros"]
  // Found here: `DadosRecebedor` repeats its receiver's `required` (logradouro, cidade, uf, cep) at the top level, so a
  // cobv would need an address beside `recebedor`; the file's own example `cobResponse4` has it only inside.
  delete (all.DadosRecebedor as Json).required
}

/** 401 on every operation: the file's OAuth2 scheme implies it for an expired or revoked token (RFC 6750 §3.1), but lists none. */
const addUnauthorized = (spec: Json) => {
  for (const item of Object.values(spec.paths as Json)) {
    for (const [method, operation] of Object.entries(item as Json)) {
      if (method === "parameters" || !isObject(operation)) continue
      const responses = operation.responses as Json
      responses["401"] ??= { description: "Token ausente, expirado ou revogado.", content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problema" } } } }
    }
  }
}

/**
 * The payload locations (`GET /{pixUrlAccessToken}`, `/cobv/{pixUrlAccessToken}`,
 * `/rec/{recUrlAccessToken}`) are served on the location host, not under the
 * API's base URL; left in, `/cobv/{pixUrlAccessToken}` would shadow `/cobv/{txid}`.
 */
const dropLocations = (spec: Json) => {
  const paths = spec.paths as Json
  for (const path of Object.keys(paths)) if (/^\/(cobv\/|rec\/)?\{(pix|rec)UrlAccessToken\}$/.test(path)) delete paths[path]
}

const efiError = { type: "object", required: ["nome", "mensagem"], properties: { nome: { type: "string" }, mensagem: { type: "string" } } }
const efiErrorResponse = { description: "Erro da Efí.", content: { "application/json": { schema: efiError } } }
const sentPixFields = {
  idEnvio: { type: "string", pattern: "^[a-zA-Z0-9]{1,35}$" },
  valor: { type: "string", pattern: "^\\d{1,10}\\.\\d{2}$" },
  status: { type: "string", enum: ["EM_PROCESSAMENTO", "REALIZADO", "NAO_REALIZADO"] },
  horario: { type: "object", properties: { solicitacao: { type: "string", format: "date-time" }, liquidacao: { type: "string", format: "date-time" } } }
}
const idEnvioParameter = { name: "idEnvio", in: "path", required: true, schema: { type: "string", pattern: "^[a-zA-Z0-9]{1,35}$" } }

/**
 * Efí's send-Pix routes, outside the standard, as Efí's "Envio e pagamento
 * Pix" page documents them: the request, the 201 answer, the look-up by
 * `idEnvio`, and its `{ nome, mensagem }` errors.
 */
const addEfiSendPix = (spec: Json) => {
  const paths = spec.paths as Json
  paths["/gn/pix/{idEnvio}"] = {
    parameters: [idEnvioParameter],
    put: {
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: {
              type: "object",
              additionalProperties: false,
              required: ["valor", "pagador", "favorecido"],
              properties: {
                valor: sentPixFields.valor,
                pagador: { type: "object", additionalProperties: false, required: ["chave"], properties: { chave: { type: "string", maxLength: 77 }, infoPagador: { type: "string", maxLength: 140 } } },
                favorecido: { type: "object", required: ["chave"], properties: { chave: { type: "string", maxLength: 77 } } }
              }
            }
          }
        }
      },
      responses: {
        "201": {
          description: "Pix enviado.",
          content: { "application/json": { schema: { type: "object", required: ["idEnvio", "e2eId", "valor", "horario", "status"], properties: { ...sentPixFields, e2eId: { type: "string", pattern: "^[a-zA-Z0-9]{32}$" } } } } }
        },
        "400": efiErrorResponse,
        "409": efiErrorResponse,
        "422": efiErrorResponse,
        "503": { $ref: "#/components/responses/ServicoIndisponivel" }
      }
    }
  }
  paths["/gn/pix/enviados/id-envio/{idEnvio}"] = {
    parameters: [idEnvioParameter],
    get: {
      responses: {
        "200": {
          description: "Pix enviado.",
          content: { "application/json": { schema: { type: "object", required: ["endToEndId", "idEnvio", "valor", "status"], properties: { ...sentPixFields, endToEndId: { type: "string", pattern: "^[a-zA-Z0-9]{32}$" } } } } }
        },
        "404": { $ref: "#/components/responses/NaoEncontrado" },
        "503": { $ref: "#/components/responses/ServicoIndisponivel" }
      }
    }
  }
}

/** BB's `gw-dev-app-key`, a query parameter of every call of the `bb` profile. */
const addAppKey = (spec: Json, parameter: string) => {
  for (const item of Object.values(spec.paths as Json)) {
    const declared = ((item as Json).parameters as Array<unknown> | undefined) ?? []
    ;(item as Json).parameters = [...declared, { name: parameter, in: "query", required: true, schema: { type: "string", minLength: 1 } }]
  }
}

export interface OverlayOptions {
  /** The profile's application key parameter (`gw-dev-app-key`), required on every call. */
  readonly appKeyParameter?: string | undefined
  /** Whether the PSP has Efí's send-Pix routes. */
  readonly efiSendPix?: boolean
}

/** `spec` (a fresh copy, changed in place) with our overlay. */
export const applyOverlay = (spec: Json, options: OverlayOptions): Json => {
  mendDefects(spec)
  dropLocations(spec)
  if (options.efiSendPix === true) addEfiSendPix(spec)
  addUnauthorized(spec)
  if (options.appKeyParameter !== undefined) addAppKey(spec, options.appKeyParameter)
  return spec
}
