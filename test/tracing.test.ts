/**
 * Traces as an operator gets them: `billing serve` and `billing run` with
 * `OTEL_EXPORTER_OTLP_ENDPOINT` pointing at a local OTLP/HTTP collector (a
 * `node:http` server that keeps what it receives), through real HTTP on
 * PostgreSQL. A request with a `traceparent` joins the caller's trace as a
 * server span named by its route template, with the use case and its SQL
 * statements beneath it, and its JSON log line carries the same trace id.
 */
import { Result } from "effect"
import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import cliPackage from "../packages/cli/package.json" with { type: "json" }
import { tracingConfigFromEnv } from "../packages/cli/src/Tracing.ts"
import { type Running, runBilling, startBilling } from "./support/Cli.ts"
import { freshPostgresDatabase } from "./support/Engine.ts"

interface KeyValue {
  readonly key: string
  readonly value: { readonly stringValue?: string; readonly intValue?: number | string }
}

interface Span {
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId?: string
  readonly name: string
  readonly kind: number
  readonly attributes: ReadonlyArray<KeyValue>
}

interface Export {
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly resource: ReadonlyArray<KeyValue>
  readonly spans: ReadonlyArray<Span>
}

// OTLP's SPAN_KIND_SERVER and SPAN_KIND_CLIENT.
const SERVER = 2
const CLIENT = 3

const attribute = (attributes: ReadonlyArray<KeyValue>, key: string) => {
  const value = attributes.find((a) => a.key === key)?.value
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue))
}

/** A local OTLP/HTTP JSON collector: keeps every export, and resolves a wait once a span it describes arrives. */
const startCollector = async () => {
  const exports: Array<Export> = []
  const waiting: Array<{ readonly matches: (span: Span) => boolean; readonly resolve: (span: Span) => void }> = []
  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"))
      for (const resourceSpans of body.resourceSpans) {
        const spans = resourceSpans.scopeSpans.flatMap((scope: { spans: Array<Span> }) => scope.spans)
        exports.push({ path: req.url ?? "", headers: req.headers, resource: resourceSpans.resource.attributes, spans })
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}")
      for (const waiter of [...waiting]) {
        const span = exports.flatMap((e) => e.spans).find(waiter.matches)
        if (span !== undefined) {
          waiting.splice(waiting.indexOf(waiter), 1)
          waiter.resolve(span)
        }
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const spans = () => exports.flatMap((e) => e.spans)
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exports,
    spans,
    waitForSpan: (matches: (span: Span) => boolean) =>
      new Promise<Span>((resolve) => {
        const found = spans().find(matches)
        if (found !== undefined) resolve(found)
        else waiting.push({ matches, resolve })
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

/** The spans below `root` in `spans`, at any depth. */
const descendants = (spans: ReadonlyArray<Span>, root: Span): Array<Span> => {
  const below = spans.filter((s) => s.traceId === root.traceId && s.parentSpanId === root.spanId)
  return below.flatMap((child) => [child, ...descendants(spans, child)])
}

/**
 * The OTLP variables of a test process: those given, every other one blank
 * (unset, as the engine reads them), whatever the environment running the
 * tests exports.
 */
const otel = (variables: Record<string, string>) => ({
  OTEL_SDK_DISABLED: "",
  OTEL_TRACES_EXPORTER: "",
  OTEL_SERVICE_NAME: "",
  OTEL_RESOURCE_ATTRIBUTES: "",
  OTEL_EXPORTER_OTLP_ENDPOINT: "",
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "",
  OTEL_EXPORTER_OTLP_HEADERS: "",
  OTEL_EXPORTER_OTLP_TRACES_HEADERS: "",
  OTEL_EXPORTER_OTLP_PROTOCOL: "",
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "",
  OTEL_BSP_SCHEDULE_DELAY: "",
  ...variables
})

describe("OpenTelemetry traces over OTLP/HTTP", () => {
  let db: Awaited<ReturnType<typeof freshPostgresDatabase>>
  let collector: Awaited<ReturnType<typeof startCollector>>
  let server: Running
  let base: string
  let token: string

  beforeAll(async () => {
    db = await freshPostgresDatabase()
    collector = await startCollector()
    server = startBilling(["serve", "--port", "0", "--no-worker"], {
      DATABASE_URL: db.url,
      BILLING_LOG_FORMAT: "json",
      BILLING_LOG_LEVEL: "info",
      BILLING_SANDBOX_CLIENT_ID: "tracing-sandbox",
      BILLING_SANDBOX_CLIENT_SECRET: "tracing-sandbox-secret",
      ...otel({
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        // The collector's credentials, percent-encoded as the specification writes a space.
        OTEL_EXPORTER_OTLP_HEADERS: "authorization=Bearer%20collector-token,x-scope=billing",
        OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=test",
        OTEL_BSP_SCHEDULE_DELAY: "100"
      })
    })
    // With JSON logs, stdout is the log collector's: the banner goes to stderr.
    base = await new Promise<string>((resolve, reject) => {
      const check = () => {
        const match = server.stderr().match(/billing engine listening on (\S+)/)
        if (match !== null) {
          server.child.stderr!.off("data", check)
          resolve(match[1]!)
        }
      }
      server.child.stderr!.on("data", check)
      server.child.once("exit", () => reject(new Error(`billing serve exited: ${server.stderr()}`)))
      check()
    })
    const response = await fetch(`${base}/auth/token`, {
      method: "POST",
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: "tracing-sandbox", client_secret: "tracing-sandbox-secret" })
    })
    token = ((await response.json()) as { access_token: string }).access_token
  }, 90_000)

  afterAll(async () => {
    await server?.stop()
    await collector?.close()
    await db?.drop()
  })

  it("makes a request with a traceparent a server span of the caller's trace, named by route, with the use case and its SQL statements beneath", async () => {
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736"
    const callerSpanId = "00f067aa0ba902b7"
    const response = await fetch(`${base}/v1/charges/pix`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", traceparent: `00-${traceId}-${callerSpanId}-01` },
      body: JSON.stringify({ amount: 12.34 })
    })
    expect(response.status).toBe(200)

    const span = await collector.waitForSpan((s) => s.traceId === traceId && s.kind === SERVER)
    expect(span.parentSpanId).toBe(callerSpanId)
    expect(span.name).toBe("POST /v1/charges/pix")
    expect(attribute(span.attributes, "http.request.method")).toBe("POST")
    expect(attribute(span.attributes, "http.route")).toBe("/v1/charges/pix")
    expect(attribute(span.attributes, "http.response.status_code")).toBe(200)
    expect(attribute(span.attributes, "billing.request_id")).toMatch(/^req_/)
    const accountId = attribute(span.attributes, "billing.account_id")
    expect(accountId).toMatch(/^SANDBOX_acc_/)

    // Ended before their parent, the children were exported with it or before it.
    const below = descendants(collector.spans(), span)
    const useCase = below.find((s) => s.name === "Charges.createPix")
    expect(useCase?.parentSpanId).toBe(span.spanId)
    const feeQuery = descendants(collector.spans(), useCase!).find((s) =>
      s.kind === CLIENT && attribute(s.attributes, "db.system.name") === "postgresql" && /FROM account_fees/.test(String(attribute(s.attributes, "db.query.text"))))
    expect(feeQuery, below.map((s) => s.name).join(", ")).toBeDefined()
    // Statements travel without their parameters: the account's id is one of them.
    const statements = below.filter((s) => s.kind === CLIENT)
    expect(statements.length).toBeGreaterThan(1)
    for (const statement of statements) expect(JSON.stringify(statement)).not.toContain(accountId)

    // Sent where the specification says, with the collector's headers, from the service the variables name.
    const delivery = collector.exports.find((e) => e.spans.includes(span))!
    expect(delivery.path).toBe("/v1/traces")
    expect(delivery.headers.authorization).toBe("Bearer collector-token")
    expect(delivery.headers["x-scope"]).toBe("billing")
    expect(attribute(delivery.resource, "service.name")).toBe("billing")
    expect(attribute(delivery.resource, "service.version")).toBe(cliPackage.version)
    expect(attribute(delivery.resource, "deployment.environment")).toBe("test")
  })

  it("names a span by its route template, never by the id in its path, and writes its trace id on the request's log line", async () => {
    const created = await fetch(`${base}/v1/charges/pix`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ amount: 5 })
    })
    const { chargeId } = (await created.json()) as { chargeId: string }
    const traceId = "0af7651916cd43dd8448eb211c80319c"
    const response = await fetch(`${base}/v1/charges/${chargeId}?email=maria%40example.com`, {
      headers: { authorization: `Bearer ${token}`, traceparent: `00-${traceId}-b7ad6b7169203331-01`, "x-request-id": "trace-me-1" }
    })
    expect(response.status).toBe(200)

    const span = await collector.waitForSpan((s) => s.traceId === traceId && s.kind === SERVER)
    expect(span.name).toBe("GET /v1/charges/:chargeId")
    expect(attribute(span.attributes, "http.route")).toBe("/v1/charges/:chargeId")
    expect(attribute(span.attributes, "http.response.status_code")).toBe(200)
    expect(attribute(span.attributes, "billing.request_id")).toBe("trace-me-1")
    // Neither the id of the path nor the query's e-mail address: personal data, one series per id.
    expect(JSON.stringify(span)).not.toContain(chargeId)
    expect(JSON.stringify(span)).not.toContain("example.com")
    expect(descendants(collector.spans(), span).map((s) => s.name)).toContain("Charges.get")

    const [line] = await server.waitFor(/^\{.*"requestId":"trace-me-1".*\}$/m)
    const entry = JSON.parse(line)
    expect(entry.annotations).toMatchObject({ method: "GET", path: `/v1/charges/${chargeId}`, status: 200 })
    expect(entry.traceId).toBe(traceId)
    expect(entry.spanId).toBe(span.spanId)
  })

  it("starts a trace of its own for a request without a traceparent: requests never share one", async () => {
    const ids = new Set<string>()
    for (const requestId of ["untraced-1", "untraced-2"]) {
      expect((await fetch(`${base}/healthz`, { headers: { "x-request-id": requestId } })).status).toBe(200)
      const span = await collector.waitForSpan((s) => s.kind === SERVER && attribute(s.attributes, "billing.request_id") === requestId)
      expect(span.name).toBe("GET /healthz")
      expect(span.parentSpanId).toBeUndefined()
      const [line] = await server.waitFor(new RegExp(`^\\{.*"requestId":"${requestId}".*\\}$`, "m"))
      expect(JSON.parse(line).traceId).toBe(span.traceId)
      ids.add(span.traceId)
    }
    expect(ids.size).toBe(2)
  })

  it("exports the spans of billing run before it exits, under OTEL_SERVICE_NAME", async () => {
    // An export interval longer than the run: only the flush at its end can deliver them.
    const run = await runBilling(["run"], {
      DATABASE_URL: db.url,
      ...otel({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${collector.url}/custom/traces`, OTEL_SERVICE_NAME: "billing-batch", OTEL_BSP_SCHEDULE_DELAY: "600000" })
    })
    expect(run.status, run.stderr).toBe(0)
    const delivery = collector.exports.find((e) => attribute(e.resource, "service.name") === "billing-batch")
    expect(delivery?.path).toBe("/custom/traces")
    expect(delivery?.spans.map((s) => s.name)).toContain("BillingRun.runAll")
  })
})

describe("the OTEL_* variables", () => {
  it("export nothing without an endpoint, or when turned off", () => {
    expect(tracingConfigFromEnv({})).toEqual(Result.succeed(undefined))
    expect(tracingConfigFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: "" })).toEqual(Result.succeed(undefined))
    expect(tracingConfigFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_SDK_DISABLED: "true" })).toEqual(Result.succeed(undefined))
    expect(tracingConfigFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_TRACES_EXPORTER: "none" })).toEqual(Result.succeed(undefined))
  })

  it("append /v1/traces to the base endpoint, and take the traces endpoint as it is", () => {
    const url = (variables: Record<string, string>) => Result.getOrThrow(tracingConfigFromEnv(variables))?.url
    expect(url({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" })).toBe("http://collector:4318/v1/traces")
    expect(url({ OTEL_EXPORTER_OTLP_ENDPOINT: "https://otlp.example.com/api/" })).toBe("https://otlp.example.com/api/v1/traces")
    expect(url({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://other:9000/traces" }))
      .toBe("http://other:9000/traces")
  })

  it("read the headers as key=value pairs, percent-decoded, the traces' own first", () => {
    const headers = (variables: Record<string, string>) =>
      Result.getOrThrow(tracingConfigFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", ...variables }))?.headers
    expect(headers({ OTEL_EXPORTER_OTLP_HEADERS: " Authorization = Basic%20dTpw , x-team=pay%3Dments" }))
      .toEqual({ authorization: "Basic dTpw", "x-team": "pay=ments" })
    expect(headers({ OTEL_EXPORTER_OTLP_HEADERS: "a=1", OTEL_EXPORTER_OTLP_TRACES_HEADERS: "b=2" })).toEqual({ b: "2" })
  })

  it("name the service billing unless OTEL_SERVICE_NAME says otherwise, at the engine's version", () => {
    const config = (variables: Record<string, string>) =>
      Result.getOrThrow(tracingConfigFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", ...variables }))
    expect(config({})).toMatchObject({ serviceName: "billing", serviceVersion: cliPackage.version, protocol: "http/json" })
    expect(config({ OTEL_SERVICE_NAME: "billing-eu" })?.serviceName).toBe("billing-eu")
  })

  it("refuse, naming the variable, what cannot work", () => {
    const failure = (variables: Record<string, string>) => Result.match(tracingConfigFromEnv(variables), { onSuccess: () => undefined, onFailure: (message) => message })
    expect(failure({ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" })).toMatch(/^invalid OTEL_EXPORTER_OTLP_ENDPOINT collector:4318/)
    expect(failure({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "ftp://collector/traces" })).toMatch(/^invalid OTEL_EXPORTER_OTLP_TRACES_ENDPOINT/)
    expect(failure({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4317", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })).toMatch(/^invalid OTEL_EXPORTER_OTLP_PROTOCOL grpc/)
    expect(failure({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_EXPORTER_OTLP_HEADERS: "no-equals-sign" })).toMatch(/^invalid OTEL_EXPORTER_OTLP_HEADERS/)
    expect(failure({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_BSP_SCHEDULE_DELAY: "soon" })).toMatch(/^invalid OTEL_BSP_SCHEDULE_DELAY soon/)
  })
})
