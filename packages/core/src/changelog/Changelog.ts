/**
 * The engine's own release notes, served by `GET /v1/changelog` (spec:
 * Changelog; Versioning 2): notes grouped by year and month (`2026.11`),
 * newest first, each with a kind (`new`, `improved`, `fix`, `security`), a
 * date, a title and the routes whose integration it changes.
 *
 * The notes live in one file of the repository, `CHANGELOG.json`, in the
 * shape the route answers; `ChangelogFile` states the rules that file keeps
 * (each note inside its month, months and notes newest first, routes written
 * `METHOD /path`), and `ReleaseNotes.layer` refuses a file that breaks one,
 * so a bad edit stops the server at start rather than reaching a client.
 */
import { Context, Effect, Layer, Schema } from "effect"
import { toDayNumber } from "../brazil/CalendarDate.ts"
import { invalidData as invalid } from "../domain/Errors.ts"

export const NoteKind = Schema.Literals(["new", "improved", "fix", "security"])
export type NoteKind = typeof NoteKind.Type

/** A group's name: year and month, `YYYY.MM` (spec: Versioning 2). */
export const ReleaseMonth = Schema.String.annotate({ description: "Year and month, YYYY.MM", examples: ["2026.11"] }).pipe(
  Schema.check(Schema.isPattern(/^\d{4}\.(0[1-9]|1[0-2])$/u))
)

const NoteDate = Schema.String.annotate({ description: "The day the change was released, YYYY-MM-DD", examples: ["2026-11-27"] }).pipe(
  Schema.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2}$/u)),
  Schema.check(Schema.makeFilter((date: string) => toDayNumber(date) !== undefined || "must be a real date"))
)

/** A route as a client calls it: the method and the path with its `{parameters}`. */
const Route = Schema.String.annotate({ description: "METHOD /path", examples: ["GET /v1/changelog"] }).pipe(
  Schema.check(Schema.isPattern(/^(GET|POST|PUT|PATCH|DELETE) \/\S*$/u))
)

export const ReleaseNote = Schema.Struct({
  kind: NoteKind,
  date: NoteDate,
  title: Schema.String.annotate({ examples: ["GET /v1/changelog serves these release notes."] }).pipe(
    Schema.check(Schema.isMinLength(1), Schema.isMaxLength(300))
  ),
  /** Empty when the integration does not change (spec: "when the integration changes, the affected routes"). */
  routes: Schema.Array(Route)
}).annotate({ identifier: "ReleaseNote" })
export type ReleaseNote = typeof ReleaseNote.Type

export const ReleaseGroup = Schema.Struct({
  month: ReleaseMonth,
  notes: Schema.Array(ReleaseNote)
}).annotate({ identifier: "ReleaseGroup" })
export type ReleaseGroup = typeof ReleaseGroup.Type

/** `GET /v1/changelog`: the groups, newest first. */
export const ChangelogView = Schema.Struct({
  groups: Schema.Array(ReleaseGroup)
}).annotate({ identifier: "Changelog" })
export type ChangelogView = typeof ChangelogView.Type

/** Where `changelog` breaks the order and placement rules of the file, by path. */
const misplaced = (changelog: ChangelogView) =>
  changelog.groups.flatMap((group, g) => [
    ...(g > 0 && changelog.groups[g - 1]!.month <= group.month
      ? [{ path: ["groups", g, "month"], issue: "months must be newest first, each once" }]
      : []),
    ...(group.notes.length === 0 ? [{ path: ["groups", g, "notes"], issue: "a month has at least one note" }] : []),
    ...group.notes.flatMap((note, n) => [
      ...(note.date.slice(0, 7) !== group.month.replace(".", "-")
        ? [{ path: ["groups", g, "notes", n, "date"], issue: `must fall in ${group.month}` }]
        : []),
      ...(n > 0 && group.notes[n - 1]!.date < note.date
        ? [{ path: ["groups", g, "notes", n, "date"], issue: "notes must be newest first" }]
        : [])
    ])
  ])

/** The release notes file (`CHANGELOG.json`): the route's answer, with the rules its edits must keep. */
export const ChangelogFile = ChangelogView.pipe(Schema.check(Schema.makeFilter(misplaced)))

/** The release notes file does not keep its rules: the message says where. */
export class ReleaseNotesInvalid extends Schema.TaggedError<ReleaseNotesInvalid>()("ReleaseNotesInvalid", {
  message: Schema.String
}) {}

/**
 * The engine's release notes, read once when the server starts. Provide it
 * with `ReleaseNotes.layer(contents)`, `contents` being the parsed JSON of
 * `CHANGELOG.json`.
 */
export class ReleaseNotes extends Context.Service<ReleaseNotes, ChangelogView>()("@billing/core/changelog/ReleaseNotes") {
  static readonly layer = (contents: unknown) =>
    Layer.effect(
      ReleaseNotes,
      Schema.decodeUnknownEffect(ChangelogFile)(contents).pipe(
        Effect.mapError((error) => new ReleaseNotesInvalid({ message: `CHANGELOG.json: ${error.message}` }))
      )
    )
}

/** `GET /v1/changelog` query: the months from and to (inclusive), and one kind of note. */
export interface ChangelogQuery {
  readonly from?: string | undefined
  readonly to?: string | undefined
  readonly kind?: NoteKind | undefined
}

/**
 * The release notes of the months from `from` to `to` (`YYYY.MM`, both
 * inclusive, either open), only those of `kind` when given; newest first,
 * with no month left empty by the filter. 400 `INVALID_DATA` when `from`
 * comes after `to`.
 */
export const readChangelog = Effect.fn("Changelog.read")(function*(query: ChangelogQuery) {
  const { from, to, kind } = query
  if (from !== undefined && to !== undefined && from > to) {
    return yield* invalid("from", "from must not come after to")
  }
  const notes = yield* ReleaseNotes
  const groups = notes.groups
    .filter((group) => (from === undefined || group.month >= from) && (to === undefined || group.month <= to))
    .map((group) => ({ month: group.month, notes: kind === undefined ? group.notes : group.notes.filter((note) => note.kind === kind) }))
    .filter((group) => group.notes.length > 0)
  return { groups } satisfies ChangelogView
})
