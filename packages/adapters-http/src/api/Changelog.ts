/**
 * `GET /v1/changelog` (spec: Changelog; Versioning 2): the engine's release
 * notes. The spec shows neither query nor response nor scope: any valid
 * token reads them, filtered by month (`from`, `to`, both `YYYY.MM` and
 * inclusive) and by `kind`.
 */
import { ChangelogView, InvalidData, NoteKind, ReleaseMonth } from "@billing/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { enveloped } from "../ErrorEnvelope.ts"
import { authenticated, requires } from "./Common.ts"

export class ChangelogGroup extends HttpApiGroup.make("changelog")
  .add(
    HttpApiEndpoint.get("read", "/", {
      query: {
        from: Schema.optionalKey(ReleaseMonth),
        to: Schema.optionalKey(ReleaseMonth),
        kind: Schema.optionalKey(NoteKind)
      },
      success: ChangelogView,
      error: enveloped(InvalidData)
    })
      .annotateMerge(requires())
      .annotate(OpenApi.Summary, "Read the release notes, newest first")
  )
  .pipe(authenticated({
    prefix: "/v1/changelog",
    title: "Changelog",
    description: "The engine's release notes, grouped by year and month"
  }))
{}
