/** Handlers of `POST /auth/token`. */
import { Billing } from "@billing/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { BillingApi } from "../api/Api.ts"
import { capture, type Services } from "./Common.ts"

export const AuthHandlers = HttpApiBuilder.group(BillingApi, "auth", Effect.fn("Handlers.auth")(function*(handlers) {
  const provide = yield* capture<Services<ReturnType<typeof Billing.issueToken>>>()
  return handlers.handle("token", ({ payload }) => provide(Billing.issueToken(payload)))
}))
