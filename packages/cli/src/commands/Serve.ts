/**
 * `billing serve`: the HTTP `/v1` surface, with the scheduler loops in the
 * same process unless `--no-worker`.
 */
import { HttpServerLive } from "@billing/adapters-http"
import { BoletoCallbackLive, PixCallbackLive, registerBoletoCallback, registerCallbacks } from "@billing/providers"
import { Billing } from "@billing/core"
import { WorkerLive } from "@billing/worker"
import { Console, Context, Effect, Layer, Option, Result } from "effect"
import { Command, Flag } from "effect/cli"
import { HttpServer } from "effect/http"
import { IpNetwork } from "effect/net"
import { createServer } from "node:net"
import { CliFailure, usageError } from "../CliFailure.ts"
import { configFromEnv, describeDatabase, type EngineConfig, EngineLive, ProviderJobsLive } from "../Engine.ts"
import { forkHttpProcesses, isHttpProcess } from "../HttpProcesses.ts"
import { ClaimLeaseFromEnv, intFromEnv, ProgressToStderr, providersFromEnv } from "./Shared.ts"

const isPort = (port: number) => port >= 0 && port <= 65535
const isProcessCount = (count: number) => count >= 1 && count <= 64

const flags = {
  noWorker: Flag.Boolean("no-worker").pipe(
    Flag.withDescription("do not run the scheduler loops in this process (run `billing worker` elsewhere)"),
    Flag.withDefault(false)
  ),
  port: Flag.Int("port").pipe(
    Flag.withMetavar("N"),
    Flag.withDescription("HTTP port; 0 picks a free one (default: PORT, else 3000)"),
    Flag.filter(isPort, () => "0 to 65535"),
    Flag.optional
  ),
  processes: Flag.Int("processes").pipe(
    Flag.withMetavar("N"),
    Flag.withDescription("HTTP processes sharing the port, PostgreSQL only; one per core is a good start (default: BILLING_HTTP_PROCESSES, else 1)"),
    Flag.filter(isProcessCount, () => "1 to 64"),
    Flag.optional
  )
}

/**
 * `--processes N` forks HTTP processes that would each fail to listen on a
 * taken port, be replaced and fail again: try the port once here first.
 */
const checkPortFree = (port: number) =>
  Effect.callback<void, CliFailure>((resume) => {
    const probe = createServer()
    probe.once("error", (error: NodeJS.ErrnoException) =>
      resume(Effect.fail(new CliFailure({ message: error.code === "EADDRINUSE" ? portInUse(port) : error.message, code: 1 }))))
    probe.listen(port, () => probe.close(() => resume(Effect.void)))
  })

/** The one line for a taken port. */
export const portInUse = (port: number) => `port ${port} is in use; try --port`

/** The proxies of BILLING_TRUSTED_PROXIES; a bare address is a network of one. */
const trustedProxiesFromEnv = Effect.suspend(() => {
  const entries = (process.env.BILLING_TRUSTED_PROXIES ?? "").split(",").map((s) => s.trim()).filter((s) => s.length > 0)
  const networks: Array<IpNetwork.IpNetwork> = []
  for (const entry of entries) {
    const network = IpNetwork.fromString(entry.includes("/") ? entry : `${entry}/${entry.includes(":") ? 128 : 32}`)
    if (Result.isFailure(network)) return Effect.fail(usageError(`invalid address or network in BILLING_TRUSTED_PROXIES: ${entry}`))
    networks.push(network.success)
  }
  return Effect.succeed(networks)
})

/** Makes sure the sandbox account of `BILLING_SANDBOX_CLIENT_ID/SECRET` exists; returns its banner line. */
const ensureSandbox = Effect.fn("Cli.ensureSandbox")(function*() {
  const clientId = process.env.BILLING_SANDBOX_CLIENT_ID
  const clientSecret = process.env.BILLING_SANDBOX_CLIENT_SECRET
  if (!clientId || !clientSecret) {
    return { lines: [`  sandbox:     set BILLING_SANDBOX_CLIENT_ID and BILLING_SANDBOX_CLIENT_SECRET, or run 'billing accounts create'`], curl: undefined }
  }
  const sandbox = yield* Billing.ensureSandboxAccount(clientId, clientSecret)
  return {
    lines: [`  sandbox:     client_id=${clientId} client_secret=${clientSecret} (account ${sandbox.accountId})`],
    curl: `-d grant_type=client_credentials -d client_id=${clientId} -d client_secret=${clientSecret}`
  }
})

const banner = (options: {
  readonly config: EngineConfig
  readonly port: number
  readonly processes: number
  readonly worker: boolean
  readonly sandbox: { readonly lines: ReadonlyArray<string>; readonly curl: string | undefined }
}) => {
  const base = `http://localhost:${options.port}`
  const lines = [
    `billing engine listening on ${base}`,
    `  database:    ${describeDatabase(options.config)}`,
    `  base URL:    ${base}/v1`,
    `  token URL:   ${base}/auth/token`,
    `  OpenAPI:     ${base}/v1/openapi.json`,
    `  docs:        ${base}/docs`,
    `  HTTP:        ${options.processes === 1 ? "this process" : `${options.processes} processes`}`,
    `  worker:      ${options.worker ? "running in this process" : "off (--no-worker)"}`,
    ...options.sandbox.lines
  ]
  if (options.sandbox.curl !== undefined) lines.push(``, `try: curl -s -X POST ${base}/auth/token ${options.sandbox.curl}`)
  // With JSON logs, stdout is for log collectors: one JSON object per line.
  return process.env.BILLING_LOG_FORMAT?.toLowerCase() === "json" ? Console.error(lines.join("\n")) : Console.log(lines.join("\n"))
}

/** `billing serve [--no-worker] [--port N] [--processes N]`. */
export const serve = Command.make("serve", flags, Effect.fn("Cli.serve")(function*(input) {
  const port = yield* Option.match(input.port, { onSome: Effect.succeed, onNone: () => intFromEnv("PORT", 3000, isPort, "port") })
  const processes = yield* Option.match(input.processes, {
    onSome: Effect.succeed,
    onNone: () => intFromEnv("BILLING_HTTP_PROCESSES", 1, isProcessCount, "number of processes")
  })
  const trustedProxies = yield* trustedProxiesFromEnv
  const providers = yield* providersFromEnv
  // The PSPs' and the boleto bank's callbacks come to this server (with none configured, their routes answer 404).
  const routes = Layer.mergeAll(PixCallbackLive, BoletoCallbackLive)
  const httpOptions = { port, trustedProxies, metricsToken: process.env.BILLING_METRICS_TOKEN || undefined, routes }
  // Only `serve` opens an embedded data folder for others: a second one refuses rather than share.
  const config = configFromEnv(process.env, { holder: "billing serve", share: true, exclusive: true })
  // A forked HTTP process serves requests only; its primary does the rest.
  if (isHttpProcess()) {
    return yield* Layer.launch(HttpServerLive(httpOptions).pipe(Layer.provide(EngineLive(config, { migrate: false, providers }))))
  }
  if (processes > 1 && !config.databaseUrl) {
    return yield* usageError("--processes needs a PostgreSQL server (DATABASE_URL): embedded PGlite lives inside one process")
  }
  const worker = !input.noWorker
  // The sandbox account exists before the server accepts its first connection.
  const http = processes === 1
    ? Layer.effectDiscard(Effect.gen(function*() {
      const sandbox = yield* ensureSandbox()
      const server = Context.get(yield* Layer.build(HttpServerLive(httpOptions)), HttpServer.HttpServer)
      const listening = server.address._tag === "UnixPathAddress" ? port : server.address.port
      yield* banner({ config, port: listening, processes, worker, sandbox })
      if (providers !== undefined) yield* Effect.forkScoped(Effect.andThen(registerCallbacks(), registerBoletoCallback()))
    }))
    : Layer.effectDiscard(Effect.gen(function*() {
      const sandbox = yield* ensureSandbox()
      if (port !== 0) yield* checkPortFree(port)
      const forked = yield* forkHttpProcesses(processes)
      yield* banner({ config, port: forked.port, processes, worker, sandbox })
      if (providers !== undefined) yield* Effect.forkScoped(Effect.andThen(registerCallbacks(), registerBoletoCallback()))
    }))
  const app = Layer.mergeAll(http, worker ? Layer.merge(WorkerLive(), ProviderJobsLive(providers)).pipe(Layer.provide(ClaimLeaseFromEnv)) : Layer.empty)
  return yield* Layer.launch(app.pipe(Layer.provide(EngineLive(config, { providers })), Layer.provide(ProgressToStderr)))
})).pipe(
  Command.withDescription("Start the HTTP server (/auth/token and /v1), with the worker in the same process unless --no-worker")
)
