#!/usr/bin/env node
/**
 * `billing <command>`: serve | worker | migrate | accounts create.
 * Configuration by environment: DATABASE_URL, BILLING_DATA_DIR, BILLING_SECRET_KEY,
 * BILLING_TRUSTED_PROXIES, PORT, BILLING_SANDBOX_CLIENT_ID, BILLING_SANDBOX_CLIENT_SECRET,
 * BILLING_LOG_FORMAT and BILLING_LOG_LEVEL.
 */
import { HttpServerLive } from "@billing/adapters-http"
import { Database } from "@billing/adapters-postgres"
import { Billing } from "@billing/core"
import { WorkerLive } from "@billing/worker"
import { NodeRuntime } from "@effect/platform-node"
import { Console, Effect, Layer, Predicate, Result } from "effect"
import { HttpServer } from "effect/http"
import { IpNetwork } from "effect/net"
import { parseArgs } from "node:util"
import { configFromEnv, DatabaseLive, describeDatabase, EngineLive } from "./Engine.ts"
import { forkHttpProcesses, isHttpProcess } from "./HttpProcesses.ts"
import { loggingConfigFromEnv, LoggingLive } from "./Logging.ts"

const usage = `usage: billing <command> [options]

commands:
  serve [--no-worker] [--port N] [--processes N]
                                     HTTP server (and the worker, unless --no-worker); with
                                     --processes N (PostgreSQL only), N processes share the port
  worker                             the scheduler loops only
  migrate                            apply pending database migrations
  accounts create --name NAME --document CPF_OR_CNPJ [--sandbox]
                  [--scopes SCOPE,...] [--parent ACCOUNT_ID] [--email EMAIL]
                                     open an account with API credentials (prints JSON)

environment:
  DATABASE_URL        PostgreSQL server; when absent, embedded PGlite in BILLING_DATA_DIR (.data/pglite)
  BILLING_SECRET_KEY  32 bytes (base64 or hex) sealing the token signing key; required with
                      DATABASE_URL; on PGlite generated into BILLING_DATA_DIR/secret.key when absent
  BILLING_TRUSTED_PROXIES
                      comma-separated addresses or CIDR networks of reverse proxies whose
                      X-Forwarded-For gives the client address (default: none, header ignored)
  PORT                HTTP port of serve (default 3000)
  BILLING_DB_POOL     connections to the PostgreSQL server per process (default 20)
  BILLING_HTTP_PROCESSES
                      default of serve --processes (1)
  BILLING_SANDBOX_CLIENT_ID, BILLING_SANDBOX_CLIENT_SECRET
                      when both are set, serve makes sure a sandbox master account with these
                      credentials and every scope exists
  BILLING_LOG_FORMAT  pretty (default) or json (one JSON object per line on stdout)
  BILLING_LOG_LEVEL   debug, info (default), warn or error
`

const fail = (message: string) => Effect.sync(() => {
  process.stderr.write(`billing: ${message}\n\n${usage}`)
  process.exitCode = 2
})

const config = configFromEnv()
const logging = loggingConfigFromEnv()

/** The proxies of BILLING_TRUSTED_PROXIES; a bare address is a network of one. */
const trustedProxies = (text: string | undefined) => {
  const entries = (text ?? "").split(",").map((s) => s.trim()).filter((s) => s.length > 0)
  const networks: Array<IpNetwork.IpNetwork> = []
  for (const entry of entries) {
    const cidr = entry.includes("/") ? entry : `${entry}/${entry.includes(":") ? 128 : 32}`
    const network = IpNetwork.fromString(cidr)
    if (Result.isFailure(network)) return Result.fail(entry)
    networks.push(network.success)
  }
  return Result.succeed(networks)
}

const serve = (args: Array<string>) => {
  const { values } = parseArgs({
    args,
    options: { "no-worker": { type: "boolean" }, port: { type: "string" }, processes: { type: "string" } }
  })
  const port = Number(values.port ?? process.env.PORT ?? 3000)
  if (!Number.isInteger(port) || port < 0 || port > 65535) return fail(`invalid port ${values.port ?? process.env.PORT}`)
  const processes = Number(values.processes ?? process.env.BILLING_HTTP_PROCESSES ?? 1)
  if (!Number.isInteger(processes) || processes < 1 || processes > 64) return fail(`invalid number of processes ${values.processes ?? process.env.BILLING_HTTP_PROCESSES}`)
  const proxies = trustedProxies(process.env.BILLING_TRUSTED_PROXIES)
  if (Result.isFailure(proxies)) return fail(`invalid address or network in BILLING_TRUSTED_PROXIES: ${proxies.failure}`)
  const httpOptions = { port, trustedProxies: proxies.success }
  // A forked HTTP process serves requests only; its primary does the rest.
  if (isHttpProcess()) return Layer.launch(HttpServerLive(httpOptions).pipe(Layer.provide(EngineLive(config, { migrate: false }))))
  if (processes > 1 && !config.databaseUrl) {
    return fail("--processes needs a PostgreSQL server (DATABASE_URL): embedded PGlite lives inside one process")
  }
  const clientId = process.env.BILLING_SANDBOX_CLIENT_ID
  const clientSecret = process.env.BILLING_SANDBOX_CLIENT_SECRET
  const ensureSandbox = clientId && clientSecret
    ? Effect.map(Billing.ensureSandboxAccount(clientId, clientSecret), (sandbox) => [
      `  sandbox:     client_id=${clientId} client_secret=${clientSecret} (account ${sandbox.accountId})`
    ])
    : Effect.succeed([`  sandbox:     set BILLING_SANDBOX_CLIENT_ID and BILLING_SANDBOX_CLIENT_SECRET, or run 'billing accounts create'`])
  const banner = (listening: number, sandbox: ReadonlyArray<string>) => {
    const base = `http://localhost:${listening}`
    const lines = [
      `billing engine listening on ${base}`,
      `  database:    ${describeDatabase(config)}`,
      `  base URL:    ${base}/v1`,
      `  token URL:   ${base}/auth/token`,
      `  OpenAPI:     ${base}/v1/openapi.json`,
      `  docs:        ${base}/docs`,
      `  HTTP:        ${processes === 1 ? "this process" : `${processes} processes`}`,
      `  worker:      ${values["no-worker"] ? "off (--no-worker)" : "running in this process"}`,
      ...sandbox
    ]
    if (clientId && clientSecret) {
      lines.push(
        ``,
        `try: curl -s -X POST ${base}/auth/token -d grant_type=client_credentials -d client_id=${clientId} -d client_secret=${clientSecret}`
      )
    }
    // With JSON logs, stdout is for log collectors: one JSON object per line.
    const json = Result.isSuccess(logging) && logging.success.format === "json"
    return json ? Console.error(lines.join("\n")) : Console.log(lines.join("\n"))
  }
  const http = processes === 1
    ? Layer.effectDiscard(Effect.gen(function*() {
      const server = yield* HttpServer.HttpServer
      const address = server.address._tag === "UnixPathAddress" ? undefined : server.address
      yield* banner(address?.port ?? port, yield* ensureSandbox)
    })).pipe(Layer.provideMerge(HttpServerLive(httpOptions)))
    : Layer.effectDiscard(Effect.gen(function*() {
      // The sandbox account exists before the first request can arrive.
      const sandbox = yield* ensureSandbox
      const forked = yield* forkHttpProcesses(processes)
      yield* banner(forked.port, sandbox)
    }))
  const app = Layer.mergeAll(http, values["no-worker"] ? Layer.empty : WorkerLive())
  return Layer.launch(app.pipe(Layer.provide(EngineLive(config))))
}

const worker = () =>
  Console.log(`billing worker running on ${describeDatabase(config)}`).pipe(
    Effect.andThen(Layer.launch(WorkerLive().pipe(Layer.provide(EngineLive(config)))))
  )

const migrate = () =>
  Effect.gen(function*() {
    const ran = yield* Database.migrate
    yield* Console.log(ran.length === 0 ? "no pending migrations" : ran.map(([id, name]) => `applied ${id}_${name}`).join("\n"))
  }).pipe(Effect.provide(DatabaseLive(config)))

const accounts = (args: Array<string>) => {
  const [sub, ...rest] = args
  if (sub !== "create") return fail(`unknown accounts command ${sub ?? "(none)"}`)
  const { values } = parseArgs({
    args: rest,
    options: {
      name: { type: "string" },
      document: { type: "string" },
      sandbox: { type: "boolean" },
      scopes: { type: "string" },
      parent: { type: "string" },
      email: { type: "string" }
    }
  })
  if (!values.name || !values.document) return fail("accounts create needs --name and --document")
  return Billing.createAccount({
    name: values.name,
    document: values.document,
    sandbox: values.sandbox ?? false,
    scopes: values.scopes?.split(",").map((s) => s.trim()).filter((s) => s.length > 0),
    parentId: values.parent,
    email: values.email
  }).pipe(
    Effect.flatMap((created) => Console.log(JSON.stringify(created, null, 2))),
    Effect.catch((error) => fail(`${error._tag}: ${error.message}`)),
    Effect.provide(EngineLive(config))
  )
}

const [command, ...args] = process.argv.slice(2)
const program = (() => {
  if (Result.isFailure(logging)) return fail(logging.failure)
  try {
    switch (command) {
      case "serve":
        return serve(args)
      case "worker":
        return worker()
      case "migrate":
        return migrate()
      case "accounts":
        return accounts(args)
      case undefined:
      case "help":
      case "--help":
        return Console.log(usage)
      default:
        return fail(`unknown command ${command}`)
    }
  } catch (error) {
    // parseArgs refuses unknown flags by throwing; answer with the usage.
    return fail(error instanceof Error ? error.message : String(error))
  }
})()

// Configuration that cannot work (no secret key for a PostgreSQL server, a
// key that does not open this database's signing key) stops the command with
// one line, not a stack trace.
const refuse = (error: unknown) =>
  Predicate.isTagged(error, "SecretKeyRequired") || Predicate.isTagged(error, "InvalidSecretKey") ||
    Predicate.isTagged(error, "SigningKeyUnreadable")
    ? Effect.sync(() => {
      process.stderr.write(`billing: ${(error as unknown as { message: string }).message}\n`)
      process.exitCode = 1
    })
    : Effect.fail(error)

NodeRuntime.runMain(
  (program as Effect.Effect<void, unknown>).pipe(
    Effect.catch(refuse),
    Result.isSuccess(logging) ? Effect.provide(LoggingLive(logging.success)) : (self) => self
  )
)
