/**
 * Multi-row inserts send their rows as one JSON parameter
 * (`insertRecords`). What reaches the database must be what a parameter of
 * its own would have written: every string exact (quotes, backslashes, the
 * literal text `\ud800`, characters outside the BMP), a lone UTF-16
 * surrogate as U+FFFD (what UTF-8 encoding of a parameter makes of it), and
 * rows in their order; on both databases the engine runs on.
 */
import { type AccountId, Outbox } from "@billing/core"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { databaseKinds, startEngine, type TestEngine } from "./support/Engine.ts"

describe.each(databaseKinds)("rows inserted as one JSON parameter on %s", (kind) => {
  let engine: TestEngine
  let accountId: AccountId
  beforeAll(async () => {
    engine = await startEngine(kind)
    accountId = (await engine.createAccount()).accountId
  })
  afterAll(() => engine?.dispose())

  it("writes every string as a parameter would, lone surrogates as U+FFFD, in the rows' order", async () => {
    const bodies = [
      `quote " backslash \\ and the text \\ud800 and \\\\ud800`,
      "pair 😀 and accents ção",
      "lone high \ud800 then text",
      "lone low \udfff at the end \\\udc00",
      "control \u0001 and tab \t and newline \n"
    ]
    await engine.run(Effect.flatMap(Outbox, (outbox) =>
      outbox.appendMany(bodies.map((body) => ({ accountId, event: "charge.created" as const, body })))))
    const rows = await engine.run(Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql<{ body: string }>`SELECT body FROM outbox WHERE account_id = ${accountId} ORDER BY id`))
    expect(rows.map((row) => row.body)).toEqual([
      `quote " backslash \\ and the text \\ud800 and \\\\ud800`,
      "pair 😀 and accents ção",
      "lone high \ufffd then text",
      "lone low \ufffd at the end \\\ufffd",
      "control \u0001 and tab \t and newline \n"
    ])
  })
})
