/**
 * The BCB API Pix as a contract both sides of a test are held to: every
 * request the adapter sends (route, path and query parameters, body) and
 * every answer the fake PSP gives (status, content type, body) is checked
 * with ajv against `../shared/reference/bcb-pix-api/openapi.yaml` under our
 * overlay (`PixApiOverlay.ts`). A check returns the violations, empty when
 * the message keeps the contract.
 */
import { Ajv, type ValidateFunction } from "ajv"
import addFormatsModule from "ajv-formats"
import { load } from "js-yaml"
import { readFileSync } from "node:fs"
import { sharedReference } from "../../../core/test/support/SharedReference.ts"
import { applyOverlay, type OverlayOptions } from "./PixApiOverlay.ts"

type Json = Record<string, any>

export const BCB_OPENAPI = sharedReference("bcb-pix-api", "openapi.yaml")

let parsed: Json | undefined
/** The file, parsed once per test process (about a quarter of a second). */
const original = (): Json => (parsed ??= load(readFileSync(BCB_OPENAPI, "utf8")) as Json)

// ajv-formats is CommonJS with `exports.default`; Node's ESM loader hands its module object over.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv

export interface ContractRequest {
  readonly method: string
  /** The path under the base URL (`/cob/ABC…`), still percent-encoded. */
  readonly path: string
  readonly query: URLSearchParams
  readonly contentType: string | undefined
  /** The parsed JSON body; undefined when there was none. */
  readonly body: unknown
}

export interface ContractResponse {
  readonly status: number
  readonly contentType: string | undefined
  readonly body: unknown
}

interface Route {
  readonly template: string
  readonly pattern: RegExp
  readonly names: ReadonlyArray<string>
  readonly literals: number
}

const routeOf = (template: string): Route => {
  const names: Array<string> = []
  const source = template.split("/").map((segment) => {
    const name = /^\{(.+)\}$/.exec(segment)?.[1]
    if (name === undefined) return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
    names.push(name)
    return "([^/]+)"
  }).join("/")
  return { template, pattern: new RegExp(`^${source}$`), names, literals: template.split("/").length - names.length }
}

const mediaType = (contentType: string | undefined) => contentType?.split(";")[0]!.trim().toLowerCase()

/** A query or path value as its schema's type: the wire has only strings. */
const coerce = (value: string, schema: Json): unknown => {
  if (schema.type === "integer" && /^-?\d+$/.test(value)) return Number(value)
  if (schema.type === "boolean" && (value === "true" || value === "false")) return value === "true"
  return value
}

export interface PixApiContract {
  readonly checkRequest: (request: ContractRequest) => ReadonlyArray<string>
  readonly checkResponse: (request: Pick<ContractRequest, "method" | "path">, response: ContractResponse) => ReadonlyArray<string>
}

export const loadPixApiContract = (options: OverlayOptions = {}): PixApiContract => {
  const spec = applyOverlay(structuredClone(original()), options) as Json
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false })
  addFormats(ajv)
  ajv.addSchema(spec, "pix-api")
  const compiled = new Map<string, ValidateFunction>()
  const validate = (schema: Json, value: unknown, where: string): ReadonlyArray<string> => {
    const key = JSON.stringify(schema)
    const check = compiled.get(key) ?? ajv.compile({ $id: `pix-api-check-${compiled.size}`, ...rebase(schema) })
    compiled.set(key, check)
    return check(value) ? [] : (check.errors ?? []).map((error) => `${where}${error.instancePath} ${error.message ?? "invalid"}`)
  }
  const deref = (node: Json): Json => (typeof node.$ref === "string" ? deref(pointer(spec, node.$ref)) : node)
  const routes = Object.keys(spec.paths).map(routeOf).sort((a, b) => b.literals - a.literals)
  const find = (method: string, path: string) => {
    for (const route of routes) {
      const match = route.pattern.exec(path)
      const operation = match === null ? undefined : spec.paths[route.template][method.toLowerCase()]
      if (match !== null && operation !== undefined) {
        const values = Object.fromEntries(route.names.map((name, index) => [name, decodeURIComponent(match[index + 1]!)]))
        return { route, operation: operation as Json, item: spec.paths[route.template] as Json, values }
      }
    }
    return undefined
  }

  const checkRequest: PixApiContract["checkRequest"] = (request) => {
    const found = find(request.method, request.path)
    if (found === undefined) return [`${request.method} ${request.path}: no such operation in the API Pix`]
    const where = `${request.method} ${found.route.template}`
    const parameters = [...(found.item.parameters ?? []), ...(found.operation.parameters ?? [])].map(deref)
    const violations: Array<string> = []
    for (const parameter of parameters) {
      const raw = parameter.in === "path" ? found.values[parameter.name] : parameter.in === "query" ? request.query.get(parameter.name) ?? undefined : undefined
      if (raw === undefined) {
        if (parameter.required === true) violations.push(`${where}: ${parameter.in} parameter ${parameter.name} is missing`)
        continue
      }
      violations.push(...validate(parameter.schema, coerce(raw, deref(parameter.schema)), `${where} ${parameter.in} ${parameter.name}`))
    }
    const declared = new Set(parameters.filter((parameter) => parameter.in === "query").map((parameter) => parameter.name))
    for (const name of request.query.keys()) if (!declared.has(name)) violations.push(`${where}: query parameter ${name} is not in the API`)
    const body = found.operation.requestBody === undefined ? undefined : deref(found.operation.requestBody)
    if (body === undefined) {
      if (request.body !== undefined) violations.push(`${where}: takes no body`)
    } else if (request.body === undefined) {
      if (body.required === true) violations.push(`${where}: body is missing`)
    } else if (mediaType(request.contentType) !== "application/json") {
      violations.push(`${where}: content-type ${request.contentType} is not application/json`)
    } else {
      violations.push(...validate(body.content["application/json"].schema, request.body, `${where} body`))
    }
    return violations
  }

  const checkResponse: PixApiContract["checkResponse"] = (request, response) => {
    const found = find(request.method, request.path)
    if (found === undefined) return [`${request.method} ${request.path}: answered a route the API Pix does not have`]
    const where = `${request.method} ${found.route.template} → ${response.status}`
    const declared = found.operation.responses[String(response.status)] ?? found.operation.responses.default
    if (declared === undefined) return [`${where}: status not in the API`]
    const content = deref(declared).content as Json | undefined
    if (content === undefined) return response.body === undefined ? [] : [`${where}: the API gives this answer no body`]
    const media = content[mediaType(response.contentType) ?? ""]
    if (media === undefined) return [`${where}: content-type ${response.contentType} is not one of ${Object.keys(content).join(", ")}`]
    return validate(media.schema, response.body, `${where} body`)
  }

  return { checkRequest, checkResponse }
}

/** A JSON pointer (`#/components/schemas/Pix`) into `document`. */
const pointer = (document: Json, ref: string): Json =>
  ref.replace(/^#\//, "").split("/").reduce((node: Json, key) => node[key.replace(/~1/g, "/").replace(/~0/g, "~")], document)

/** A schema of the file, its `#/…` references made absolute (into the schema registered as `pix-api`). */
const rebase = (schema: Json): Json =>
  JSON.parse(JSON.stringify(schema).replace(/"\$ref":"#\//g, `"$ref":"pix-api#/`))
