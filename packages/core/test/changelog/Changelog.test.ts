import { Effect, Layer } from "effect"
import { describe, expect, it } from "vitest"
import { ReleaseNotes, ReleaseNotesInvalid } from "../../src/changelog/Changelog.ts"

const note = (date: string, extra: Record<string, unknown> = {}) => ({ kind: "fix", date, title: "Something mended", routes: [], ...extra })

/** What building the release notes from `contents` gives: the notes, or why the file was refused. */
const load = (contents: unknown) =>
  Effect.runPromise(Effect.result(Layer.build(ReleaseNotes.layer(contents)).pipe(Effect.scoped)))

describe("the release notes file", () => {
  it("takes months newest first, each note inside its month and newest first", async () => {
    const good = {
      groups: [
        { month: "2026.12", notes: [note("2026-12-02"), note("2026-12-02"), note("2026-12-01", { routes: ["GET /v1/changelog"] })] },
        { month: "2026.11", notes: [note("2026-11-30")] }
      ]
    }
    expect((await load(good))._tag).toBe("Success")
  })

  it("refuses a file that breaks a rule, naming where", async () => {
    const refusal = async (contents: unknown) => {
      const result = await load(contents)
      if (result._tag === "Success") throw new Error(`accepted: ${JSON.stringify(contents)}`)
      expect(result.failure).toBeInstanceOf(ReleaseNotesInvalid)
      return result.failure.message
    }
    // A note of 1 December filed under November.
    expect(await refusal({ groups: [{ month: "2026.11", notes: [note("2026-12-01")] }] })).toContain("must fall in 2026.11")
    // November before December, and a month twice.
    expect(await refusal({ groups: [{ month: "2026.11", notes: [note("2026-11-01")] }, { month: "2026.12", notes: [note("2026-12-01")] }] }))
      .toContain("newest first")
    expect(await refusal({ groups: [{ month: "2026.11", notes: [note("2026-11-02")] }, { month: "2026.11", notes: [note("2026-11-01")] }] }))
      .toContain("newest first")
    // Notes oldest first within a month.
    expect(await refusal({ groups: [{ month: "2026.11", notes: [note("2026-11-01"), note("2026-11-02")] }] })).toContain("newest first")
    // A month with no note; a month 13; 31 November; a kind outside the spec's four; a route without its method.
    expect(await refusal({ groups: [{ month: "2026.11", notes: [] }] })).toContain("at least one note")
    expect(await refusal({ groups: [{ month: "2026.13", notes: [note("2026-13-01")] }] })).toContain("month")
    expect(await refusal({ groups: [{ month: "2026.11", notes: [note("2026-11-31")] }] })).toContain("real date")
    expect(await refusal({ groups: [{ month: "2026.11", notes: [note("2026-11-01", { kind: "feature" })] }] })).toContain("kind")
    expect(await refusal({ groups: [{ month: "2026.11", notes: [note("2026-11-01", { routes: ["/v1/changelog"] })] }] })).toContain("routes")
  })
})
