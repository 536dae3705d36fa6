/**
 * Pix coming in by the PSPs' callbacks (BCB API Pix, `webhook`): each PSP is
 * registered with `webhookUrl` = `{publicUrl}/psp/pix/{name}/{secret}`, and
 * by the standard's rule it POSTs to that URL plus `/pix` a body
 * `{ "pix": [ ... ] }` that may carry many Pix and may repeat them.
 *
 * `secret` is random per PSP and installation, kept sealed in the database
 * (`installationSecret`), and compared in constant time: the URL is the only
 * thing that tells a PSP's callback from anyone's POST (mutual TLS in front
 * of the route, where a PSP requires it, is the reverse proxy's: see
 * docs/decisions.md). A wrong name or secret answers 404, as for any path.
 *
 * Each Pix of ours is confirmed through `Billing.receivePix` (ledger,
 * `payment.success`, subscriptions), once by its end-to-end id; the answer
 * is 200 whatever became of each (an unknown txid is logged), since a PSP
 * retries a callback until it gets one.
 */
import { Billing, constantTimeEqual, installationSecret } from "@billing/core"
import { Effect, Option, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import type { PixPsp } from "../config/ProvidersConfig.ts"
import { PixReceived } from "../pix/PixApiSchemas.ts"
import { Providers } from "../Providers.ts"
import { receivedPixOf } from "./ReceivedPix.ts"

/** The callback's body (`PUT /webhook/{chave}`'s callbacks: "Pix recebidos"). */
const CallbackBody = Schema.Struct({ pix: Schema.Array(PixReceived) })

/** The secret in the callback URL of the PSP `name`, created by the first process that asks. */
export const callbackSecret = (psp: string) => installationSecret(`psp_callback_secret:${psp}`)

/** The `webhookUrl` registered with `psp`: where it sends its callbacks (plus `/pix`). */
export const callbackUrl = (publicUrl: string, psp: string, secret: string) =>
  `${publicUrl.replace(/\/+$/, "")}/psp/pix/${encodeURIComponent(psp)}/${secret}`

const notFound = HttpServerResponse.empty({ status: 404 })

/** Confirms the Pix of one callback body; answers 400 to a body that is not one. */
const receiveBody = Effect.fn("PixCallback.receive")(function*(psp: PixPsp) {
  const body = yield* Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => request.json).pipe(
    Effect.flatMap(Schema.decodeUnknownEffect(CallbackBody)),
    Effect.option
  )
  if (Option.isNone(body)) {
    yield* Effect.logWarning(`PSP ${psp.name}: a callback whose body is not { "pix": [...] } was refused`)
    return HttpServerResponse.empty({ status: 400 })
  }
  const ours = body.value.pix.flatMap((pix) => Option.toArray(receivedPixOf(pix, psp.name)))
  if (ours.length < body.value.pix.length) yield* Effect.logWarning(`PSP ${psp.name}: ${body.value.pix.length - ours.length} Pix of the callback are not the engine's charges`)
  if (ours.length > 0) yield* Billing.receivePix(ours)
  return HttpServerResponse.empty({ status: 200 })
})

type ReceiveServices = Effect.Services<ReturnType<typeof Billing.receivePix>>

/** The route `POST /psp/pix/{name}/{secret}/pix` for every PSP of the providers file. */
export const PixCallbackLive = HttpRouter.use(Effect.fn("PixCallback.routes")(function*(router) {
  const providers = yield* Providers
  const secrets = new Map<string, string>()
  for (const psp of providers.pix) secrets.set(psp.name, yield* callbackSecret(psp.name))
  const services = yield* Effect.context<ReceiveServices>()
  yield* router.add("POST", "/psp/pix/:name/:secret/pix", Effect.gen(function*() {
    const params = yield* HttpRouter.params
    const psp = providers.pix.find((p) => p.name === params.name)
    const expected = psp === undefined ? undefined : secrets.get(psp.name)
    if (psp === undefined || expected === undefined || !constantTimeEqual(params.secret ?? "", expected)) return notFound
    return yield* Effect.provideContext(receiveBody(psp), services)
  }))
}))
