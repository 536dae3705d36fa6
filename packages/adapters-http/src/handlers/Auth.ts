/** Handlers of `POST /auth/token`. */
import { Billing } from "@billing/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { BillingApi } from "../api/Api.ts"
import { throttleAddress } from "../ClientAddress.ts"
import { capture, type Services } from "./Common.ts"

export const AuthHandlers = HttpApiBuilder.group(BillingApi, "auth", Effect.fn("Handlers.auth")(function*(handlers) {
  const provide = yield* capture<Services<ReturnType<typeof Billing.issueToken>>>()
  return handlers.handle("token", ({ payload, request }) =>
    provide(Billing.issueToken({ ...payload, clientAddress: throttleAddress(request) })))
}))
