/**
 * `BILLING_LOG_FORMAT` and `BILLING_LOG_LEVEL`: parsing, and what each
 * format prints for a request line (one line either way).
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Result } from "effect"
import { TestConsole } from "effect/testing"
import { loggingConfigFromEnv, LoggingLive } from "../src/Logging.ts"

const requestLine = Effect.logInfo("POST /v1/charges/pix 200 3.2ms").pipe(
  Effect.annotateLogs({ method: "POST", path: "/v1/charges/pix", status: 200, durationMs: 3.2, requestId: "req_1" })
)

const printed = (env: NodeJS.ProcessEnv, effect: Effect.Effect<void>) => {
  const config = loggingConfigFromEnv(env)
  if (Result.isFailure(config)) throw new Error(config.failure)
  return effect.pipe(
    Effect.andThen(TestConsole.logLines),
    Effect.provide(LoggingLive(config.success)),
    Effect.provide(TestConsole.layer)
  )
}

describe("logging configuration", () => {
  it("defaults to pretty at info, and reads both variables case-insensitively", () => {
    assert.deepStrictEqual(loggingConfigFromEnv({}), Result.succeed({ format: "pretty", level: "Info" }))
    assert.deepStrictEqual(
      loggingConfigFromEnv({ BILLING_LOG_FORMAT: "JSON", BILLING_LOG_LEVEL: "Warn" }),
      Result.succeed({ format: "json", level: "Warn" })
    )
    assert.deepStrictEqual(loggingConfigFromEnv({ BILLING_LOG_LEVEL: "debug" }), Result.succeed({ format: "pretty", level: "Debug" }))
    assert.isTrue(Result.isFailure(loggingConfigFromEnv({ BILLING_LOG_LEVEL: "trace" })))
    assert.isTrue(Result.isFailure(loggingConfigFromEnv({ BILLING_LOG_FORMAT: "logfmt" })))
  })

  it.effect("json prints one valid JSON object per line, annotations included", () =>
    Effect.gen(function*() {
      const lines = yield* printed({ BILLING_LOG_FORMAT: "json" }, Effect.andThen(requestLine, Effect.logWarning("two\nlines")))
      assert.strictEqual(lines.length, 2)
      const [first, second] = lines.map((line) => JSON.parse(line as string))
      assert.strictEqual(first.message, "POST /v1/charges/pix 200 3.2ms")
      assert.strictEqual(first.level, "INFO")
      assert.deepStrictEqual(first.annotations, { method: "POST", path: "/v1/charges/pix", status: 200, durationMs: 3.2, requestId: "req_1" })
      assert.strictEqual(second.message, "two\nlines")
    }))

  it.effect("pretty prints a request on one line with its fields as key=value", () =>
    Effect.gen(function*() {
      const lines = yield* printed({}, requestLine)
      assert.strictEqual(lines.length, 1)
      const line = lines[0] as string
      assert.notInclude(line, "\n")
      assert.match(line, /^\d\d:\d\d:\d\d\.\d{3} INFO  POST \/v1\/charges\/pix 200 3\.2ms method=POST path=\/v1\/charges\/pix status=200 durationMs=3\.2 requestId=req_1$/)
    }))

  it.effect("warn drops info lines", () =>
    Effect.gen(function*() {
      const lines = yield* printed({ BILLING_LOG_LEVEL: "warn" }, Effect.andThen(requestLine, Effect.logWarning("kept")))
      assert.strictEqual(lines.length, 1)
      assert.include(lines[0] as string, "kept")
    }))

  it.effect("debug shows debug lines, which info drops", () =>
    Effect.gen(function*() {
      const lines = yield* printed({ BILLING_LOG_LEVEL: "debug" }, Effect.andThen(Effect.logDebug("shown"), requestLine))
      assert.strictEqual(lines.length, 2)
      assert.include(lines[0] as string, "DEBUG shown")
    }))

  it.effect("info drops debug lines", () =>
    Effect.gen(function*() {
      const lines = yield* printed({}, Effect.andThen(Effect.logDebug("hidden"), requestLine))
      assert.strictEqual(lines.length, 1)
      assert.notInclude(lines[0] as string, "hidden")
    }))
})
