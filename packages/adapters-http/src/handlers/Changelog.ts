/** Handlers of `/v1/changelog`: the notes of `CHANGELOG.json` at the repository's root, checked once when the layer is built. */
import { Billing, ReleaseNotes } from "@billing/core"
import { Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import releaseNotes from "../../../../CHANGELOG.json" with { type: "json" }
import { BillingApi } from "../api/Api.ts"
import { capture, type Services } from "./Common.ts"

export const ChangelogHandlers = HttpApiBuilder.group(BillingApi, "changelog", Effect.fn("Handlers.changelog")(function*(handlers) {
  const provide = yield* capture<Services<ReturnType<typeof Billing.readChangelog>>>()
  return handlers.handle("read", ({ query }) => provide(Billing.readChangelog(query)))
})).pipe(Layer.provide(ReleaseNotes.layer(releaseNotes)))
