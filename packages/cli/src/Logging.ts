/**
 * How the engine logs, chosen by environment in the composition root:
 *
 * - `BILLING_LOG_FORMAT`: `pretty` (default; one line per entry for a person
 *   at a terminal) or `json` (Effect's structured entry, one JSON object per
 *   line for a log collector, with the `traceId` and `spanId` of the span it
 *   was written in: `jsonLine`);
 * - `BILLING_LOG_LEVEL`: `debug`, `info` (default), `warn` or `error`.
 *
 * Both are applied with Effect's logger layers, so every fiber of the
 * process (HTTP requests, worker jobs) logs the same way.
 */
import { Cause, Formatter, Layer, Logger, type LogLevel, References, Result } from "effect"

export type LogFormat = "json" | "pretty"

export interface LoggingConfig {
  readonly format: LogFormat
  readonly level: LogLevel.LogLevel
}

const Formats: ReadonlyArray<LogFormat> = ["json", "pretty"]

const Levels: { readonly [name: string]: LogLevel.LogLevel } = {
  debug: "Debug",
  info: "Info",
  warn: "Warn",
  error: "Error"
}

/** Reads `BILLING_LOG_FORMAT` and `BILLING_LOG_LEVEL`; a value outside the lists is an error naming the variable. */
export const loggingConfigFromEnv = (env: NodeJS.ProcessEnv = process.env): Result.Result<LoggingConfig, string> => {
  const format = (env.BILLING_LOG_FORMAT || "pretty").toLowerCase()
  const level = (env.BILLING_LOG_LEVEL || "info").toLowerCase()
  if (!Formats.includes(format as LogFormat)) {
    return Result.fail(`invalid BILLING_LOG_FORMAT ${env.BILLING_LOG_FORMAT}: use json or pretty`)
  }
  if (!(level in Levels)) {
    return Result.fail(`invalid BILLING_LOG_LEVEL ${env.BILLING_LOG_LEVEL}: use ${Object.keys(Levels).join(", ")}`)
  }
  return Result.succeed({ format: format as LogFormat, level: Levels[level]! })
}

const text = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value))

// `key=value`, quoted when the value would otherwise split the line.
const pair = (key: string, value: unknown) => {
  const shown = text(value) ?? String(value)
  return `${key}=${/[\s"=]/.test(shown) ? JSON.stringify(shown) : shown}`
}

/**
 * One line per entry: time, level, message, annotations as `key=value`; a
 * cause follows on its own lines. Effect's `consolePretty` prints each
 * annotation on a line of its own, which turns a request log into a page.
 */
export const prettyLine = Logger.make(({ cause, date, fiber, logLevel, message }) => {
  const annotations = Object.entries(fiber.getRef(References.CurrentLogAnnotations)).map(([key, value]) => pair(key, value))
  const messages = (Array.isArray(message) ? message : [message]).map(text)
  const line = [date.toISOString().slice(11, 23), logLevel.toUpperCase().padEnd(5), ...messages, ...annotations].join(" ")
  return cause.reasons.length === 0 ? line : `${line}\n${Cause.pretty(cause)}`
})

/**
 * Effect's JSON line (`Logger.formatJson`: message, level, timestamp, cause,
 * annotations, spans, fiberId) and, when it was written inside a span, that
 * span's `traceId` and `spanId` (as OTLP writes them), so that an operator
 * goes from a log line to its trace. The ids are the caller's trace when the
 * request came with a `traceparent`, even when this process exports none.
 */
export const jsonLine = Logger.make((options) => {
  const entry = Logger.formatStructured.log(options)
  const span = options.fiber.cache.span
  return Formatter.formatJson(span === undefined ? entry : { ...entry, traceId: span.traceId.padStart(32, "0"), spanId: span.spanId })
})

/** The logger and minimum level of `config`, as one layer to provide to the whole program. */
export const LoggingLive = (config: LoggingConfig) =>
  Layer.mergeAll(
    Logger.layer([Logger.withConsoleLog(config.format === "json" ? jsonLine : prettyLine)]),
    Layer.succeed(References.MinimumLogLevel, config.level)
  )
