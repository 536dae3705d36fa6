/**
 * Traces over OTLP/HTTP, when the standard `OTEL_*` variables ask for them.
 *
 * - `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (used as is) or
 *   `OTEL_EXPORTER_OTLP_ENDPOINT` (`/v1/traces` appended): where spans go.
 *   Neither set, no exporter: spans stay in the process, as before.
 * - `OTEL_EXPORTER_OTLP_TRACES_HEADERS` or `OTEL_EXPORTER_OTLP_HEADERS`:
 *   `key=value,key2=value2` (values percent-decoded), the collector's token.
 * - `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL` or `OTEL_EXPORTER_OTLP_PROTOCOL`:
 *   `http/json` (default) or `http/protobuf`; gRPC is not spoken.
 * - `OTEL_SERVICE_NAME` (default `billing`); `service.version` is the
 *   engine's; `OTEL_RESOURCE_ATTRIBUTES` adds the rest (`deployment.environment=…`).
 * - `OTEL_BSP_SCHEDULE_DELAY`: milliseconds between exports (5000).
 * - `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none` turn it off.
 *
 * The exporter is Effect's own (`OtlpTracer`): the spans are the code's
 * (`Effect.fn` names, SQL statements) and the HTTP server's, one per request.
 */
import { Duration, Effect, Layer, Option, Result, Tracer } from "effect"
import { FetchHttpClient } from "effect/http"
import { OtlpExporter, OtlpSerialization, OtlpTracer } from "effect/observability"
import packageJson from "../package.json" with { type: "json" }
import { usageError } from "./CliFailure.ts"

/** The `OTEL_*` variables of the environment, as `configFromEnv` hands them over. */
export type OtelVariables = { readonly [name: string]: string | undefined }

/** The `OTEL_*` variables of `env`, and only those. */
export const otelVariables = (env: NodeJS.ProcessEnv): OtelVariables =>
  Object.fromEntries(Object.entries(env).filter(([name]) => name.startsWith("OTEL_")))

export interface TracingConfig {
  /** The traces endpoint, `…/v1/traces`. */
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly protocol: "http/json" | "http/protobuf"
  readonly serviceName: string
  readonly serviceVersion: string
  readonly exportInterval: Duration.Duration
}

// An empty variable is an unset one, as the OpenTelemetry SDKs read them.
const read = (variables: OtelVariables, name: string) => {
  const value = variables[name]?.trim()
  return value === undefined || value === "" ? undefined : value
}

const tracesEndpoint = (variables: OtelVariables): Result.Result<string | undefined, string> => {
  const signal = read(variables, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
  const base = read(variables, "OTEL_EXPORTER_OTLP_ENDPOINT")
  const [name, raw] = signal !== undefined ? ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", signal] : ["OTEL_EXPORTER_OTLP_ENDPOINT", base]
  if (raw === undefined) return Result.succeed(undefined)
  if (!URL.canParse(raw) || !/^https?:$/.test(new URL(raw).protocol)) {
    return Result.fail(`invalid ${name} ${raw}: an http:// or https:// URL`)
  }
  if (signal !== undefined) return Result.succeed(raw)
  // The base endpoint names the collector; each signal has its path below it (the specification's rule).
  const url = new URL(raw)
  url.pathname = `${url.pathname.replace(/\/$/, "")}/v1/traces`
  return Result.succeed(url.toString())
}

/** `key=value,key2=value2`, the W3C baggage form the specification uses; values are percent-decoded. */
const parseHeaders = (name: string, raw: string | undefined): Result.Result<Record<string, string>, string> => {
  const headers: Record<string, string> = {}
  for (const entry of (raw ?? "").split(",")) {
    if (entry.trim() === "") continue
    const at = entry.indexOf("=")
    const key = at === -1 ? "" : entry.slice(0, at).trim()
    if (key === "") return Result.fail(`invalid ${name}: expected key=value,key2=value2`)
    try {
      headers[key.toLowerCase()] = decodeURIComponent(entry.slice(at + 1).trim())
    } catch {
      return Result.fail(`invalid ${name}: the value of ${key} is not percent-encoded right`)
    }
  }
  return Result.succeed(headers)
}

/**
 * Reads the `OTEL_*` variables: undefined when no endpoint is set or tracing
 * is turned off; an error naming the variable for a value that cannot work.
 */
export const tracingConfigFromEnv = (variables: OtelVariables): Result.Result<TracingConfig | undefined, string> =>
  Result.gen(function*() {
    if (read(variables, "OTEL_SDK_DISABLED")?.toLowerCase() === "true") return undefined
    if (read(variables, "OTEL_TRACES_EXPORTER")?.toLowerCase() === "none") return undefined
    const url = yield* tracesEndpoint(variables)
    if (url === undefined) return undefined
    const headersName = read(variables, "OTEL_EXPORTER_OTLP_TRACES_HEADERS") !== undefined ? "OTEL_EXPORTER_OTLP_TRACES_HEADERS" : "OTEL_EXPORTER_OTLP_HEADERS"
    const headers = yield* parseHeaders(headersName, read(variables, headersName))
    const protocolName = read(variables, "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL") !== undefined ? "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL" : "OTEL_EXPORTER_OTLP_PROTOCOL"
    const protocol = read(variables, protocolName) ?? "http/json"
    if (protocol !== "http/json" && protocol !== "http/protobuf") {
      return yield* Result.fail(`invalid ${protocolName} ${protocol}: use http/json or http/protobuf (gRPC is not supported)`)
    }
    const delay = read(variables, "OTEL_BSP_SCHEDULE_DELAY")
    if (delay !== undefined && !/^\d+$/.test(delay)) return yield* Result.fail(`invalid OTEL_BSP_SCHEDULE_DELAY ${delay}: milliseconds`)
    return {
      url,
      headers,
      protocol,
      serviceName: read(variables, "OTEL_SERVICE_NAME") ?? "billing",
      serviceVersion: packageJson.version,
      exportInterval: Duration.millis(delay === undefined ? 5000 : Number(delay))
    }
  })

type OtlpSpan = OtlpTracer.TraceData["resourceSpans"][number]["scopeSpans"][number]["spans"][number]

// OTLP's SpanKind.SPAN_KIND_SERVER.
const SERVER = 2

/**
 * What Effect's HTTP server writes on its span that we keep out of traces:
 * the raw URL (ids in the path and documents or e-mail addresses in the
 * query are personal data; the route template says which endpoint) and the
 * client's address. The request's log line, found by its trace id, has the
 * path for the operator who needs it.
 */
const PERSONAL_ATTRIBUTES: ReadonlySet<string> = new Set(["url.full", "url.path", "url.query", "client.address"])

const stringAttribute = (span: OtlpSpan, key: string) => span.attributes.find((attribute) => attribute.key === key)?.value.stringValue ?? undefined

/**
 * A server span as OpenTelemetry names it, `{method} {route}` (`POST
 * /v1/charges/pix`), without the personal attributes. Effect names its span
 * when the request arrives, before the router has matched it, so the name is
 * given here, from the `http.route` the router wrote on it; a request no
 * route matched keeps the method alone.
 */
const serverSpan = (span: OtlpSpan): OtlpSpan => {
  if (span.kind !== SERVER) return span
  const method = stringAttribute(span, "http.request.method")
  const route = stringAttribute(span, "http.route")
  return {
    ...span,
    name: method !== undefined && route !== undefined ? `${method} ${route}` : span.name,
    attributes: span.attributes.filter((attribute) => !PERSONAL_ATTRIBUTES.has(attribute.key))
  }
}

const withServerSpans = (data: OtlpTracer.TraceData): OtlpTracer.TraceData => ({
  resourceSpans: data.resourceSpans.map((resource) => ({
    ...resource,
    scopeSpans: resource.scopeSpans.map((scope) => ({ ...scope, spans: scope.spans.map(serverSpan) }))
  }))
})

/** Effect's serialization of `protocol`, with the server spans named by route (`serverSpan`). */
const Serialization = (protocol: TracingConfig["protocol"]) =>
  Layer.effect(
    OtlpSerialization.OtlpSerialization,
    Effect.gen(function*() {
      const serialization = yield* OtlpSerialization.OtlpSerialization
      return { ...serialization, traces: (data: OtlpTracer.TraceData) => serialization.traces(withServerSpans(data)) }
    })
  ).pipe(Layer.provide(protocol === "http/json" ? OtlpSerialization.layerJson : OtlpSerialization.layerProtobuf))

/**
 * A span whose parent is the native tracer's starts a trace of its own. Such
 * a parent was made before the exporter existed (the command's own span,
 * `Cli.serve` or `Cli.worker`, which lasts as long as the process): it is
 * never exported, and would gather every request and job pass of the
 * process into one endless trace. A caller's `traceparent` is no native span
 * and stays the parent.
 */
const rootedAtExporter = (tracer: Tracer.Tracer): Tracer.Tracer =>
  Tracer.make({
    span: (options) =>
      tracer.span(
        Option.isSome(options.parent) && options.parent.value instanceof Tracer.NativeSpan
          ? { ...options, parent: Option.none(), root: true }
          : options
      ),
    context: tracer.context
  })

/** The OTLP tracer of `config`: spans exported in batches, the last ones when the process stops. */
export const TracingLive = (config: TracingConfig) =>
  Layer.effect(
    Tracer.Tracer,
    Effect.map(
      OtlpTracer.make({
        url: config.url,
        headers: config.headers,
        resource: { serviceName: config.serviceName, serviceVersion: config.serviceVersion },
        exportInterval: config.exportInterval
      }),
      rootedAtExporter
    )
  ).pipe(Layer.provide([OtlpExporter.layerFlusher, FetchHttpClient.layer, Serialization(config.protocol)]))

/**
 * The tracer the `OTEL_*` variables ask for, or nothing at all (no exporter,
 * no fiber, no cost) when they ask for none; a value that cannot work stops
 * the command in one line.
 */
export const TracingFromEnv = (variables: OtelVariables | undefined) =>
  Layer.unwrap(Effect.suspend(() => {
    const config = tracingConfigFromEnv(variables ?? {})
    if (Result.isFailure(config)) return Effect.fail(usageError(config.failure))
    return Effect.succeed(config.success === undefined ? Layer.empty : TracingLive(config.success))
  }))
