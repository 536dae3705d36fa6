/**
 * Boleto payments coming in by the bank's callback: the providers file's
 * bank (Banco Inter) is registered with `webhookUrl` =
 * `{publicUrl}/psp/boleto/{secret}` and posts there a JSON array of
 * cobranças that changed (`InterCallback.callbackNotices`).
 *
 * `secret` is random per installation, kept sealed in the database
 * (`installationSecret`) and compared in constant time, as the Pix
 * callbacks' are; a wrong one answers 404, as for any path. Even so a
 * notice is not a payment: each boleto it says was paid is confirmed at the
 * bank before anything is recorded (`Billing.receiveBoletoNotices`), so a
 * forged body can cost a bank call for an open charge, never a payment.
 * The answer is 200 whatever became of each (a bank retries a callback
 * until it gets one); a body that is not the bank's shape is 400.
 */
import { Billing, constantTimeEqual, installationSecret } from "@billing/core"
import { Effect, Option } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { callbackNotices } from "../boleto/InterCallback.ts"
import { PAID_SITUACOES } from "../boleto/InterSchemas.ts"
import { Providers } from "../Providers.ts"

/** The secret in the boleto bank's callback URL, created by the first process that asks. */
export const boletoCallbackSecret = installationSecret("boleto_callback_secret")

/** The `webhookUrl` registered with the bank. */
export const boletoCallbackUrl = (publicUrl: string, secret: string) => `${publicUrl.replace(/\/+$/, "")}/psp/boleto/${secret}`

const notFound = HttpServerResponse.empty({ status: 404 })

/** Confirms at the bank the boletos one callback says were paid. */
const receiveBody = Effect.fn("BoletoCallback.receive")(function*() {
  const notices = yield* Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => request.json).pipe(
    Effect.flatMap(callbackNotices),
    Effect.option
  )
  if (Option.isNone(notices)) {
    yield* Effect.logWarning("boleto bank: a callback whose body is not the bank's list of cobranças was refused")
    return HttpServerResponse.empty({ status: 400 })
  }
  // Only a payment moves a charge; a write-off the engine asked for, or the bank's own expiry, is the expiry job's.
  const paid = notices.value.filter((notice) => PAID_SITUACOES.has(notice.situacao))
  const unnamed = paid.filter((notice) => notice.nossoNumero === undefined)
  if (unnamed.length > 0) {
    yield* Effect.logWarning(`boleto bank: ${unnamed.length} paid cobranças of a callback carry no nossoNumero (codigoSolicitacao ${unnamed.map((n) => n.codigoSolicitacao).join(", ")}); the poll confirms them`)
  }
  const ourNumbers = paid.flatMap((notice) => (notice.nossoNumero === undefined ? [] : [notice.nossoNumero]))
  if (ourNumbers.length > 0) {
    const outcomes = yield* Billing.receiveBoletoNotices(ourNumbers)
    const unknown = ourNumbers.filter((_, i) => outcomes[i] === "unknownOurNumber")
    if (unknown.length > 0) yield* Effect.logWarning(`boleto bank: a callback names boletos the engine did not issue: ${unknown.join(", ")}`)
  }
  return HttpServerResponse.empty({ status: 200 })
})

type ReceiveServices = Effect.Services<ReturnType<typeof Billing.receiveBoletoNotices>>

/** The route `POST /psp/boleto/{secret}` when the providers file names a boleto bank (none otherwise: a 404 like any path). */
export const BoletoCallbackLive = HttpRouter.use(Effect.fn("BoletoCallback.routes")(function*(router) {
  const providers = yield* Providers
  if (providers.boleto === undefined) return
  const expected = yield* boletoCallbackSecret
  const services = yield* Effect.context<ReceiveServices>()
  yield* router.add("POST", "/psp/boleto/:secret", Effect.gen(function*() {
    const params = yield* HttpRouter.params
    if (!constantTimeEqual(params.secret ?? "", expected)) return notFound
    return yield* Effect.provideContext(receiveBody(), services)
  }))
}))
