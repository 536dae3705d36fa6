/** Handlers of `/v1/sandbox`. */
import { Billing } from "@billing/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { BillingApi } from "../api/Api.ts"
import { capture, type Services } from "./Common.ts"

export const SandboxHandlers = HttpApiBuilder.group(BillingApi, "sandbox", Effect.fn("Handlers.sandbox")(function*(handlers) {
  const provide = yield* capture<Services<ReturnType<typeof Billing.advanceClock>>>()
  return handlers
    .handle("clock", () => provide(Billing.getTestClock()))
    .handle("advanceClock", ({ payload }) => provide(Billing.advanceClock(payload)))
}))
