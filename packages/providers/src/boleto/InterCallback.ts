/**
 * Inter's webhook for cobranças: `PUT /cobranca/v3/cobrancas/webhook` with
 * `{ webhookUrl }` (`InterCobrancas.registerWebhook`), after which Inter posts
 * a JSON array of `BillingPayload` items to that URL when a cobrança changes
 * (inter-co/pj-sdk-python `billing/models/BillingPayload.py`). Anyone can
 * post to a URL, so a callback is a notice, not a payment: the engine finds
 * the charge by `nossoNumero` (its `txid`) and confirms with
 * `BoletoIssuer.status` before recording anything.
 */
import { Effect, Schema } from "effect"
import { clip } from "../tls/ConnectionFailure.ts"
import { InterAnswerInvalid } from "./InterErrors.ts"
import { Callback, type Situacao } from "./InterSchemas.ts"

/** What a callback item says changed, to be confirmed at Inter. */
export interface CallbackNotice {
  readonly codigoSolicitacao: string
  readonly seuNumero: string | undefined
  readonly nossoNumero: string | undefined
  readonly situacao: Situacao
}

const decodeCallback = Schema.decodeUnknownEffect(Callback)

/** The notices of a callback body (already parsed from JSON), or why it is not Inter's callback. */
export const callbackNotices = (body: unknown): Effect.Effect<ReadonlyArray<CallbackNotice>, InterAnswerInvalid> =>
  decodeCallback(body).pipe(
    Effect.map((items) =>
      items.map((item) => ({ codigoSolicitacao: item.codigoSolicitacao, seuNumero: item.seuNumero, nossoNumero: item.nossoNumero, situacao: item.situacao }))
    ),
    Effect.mapError((error) => new InterAnswerInvalid({ message: `Inter: the callback does not have the published shape (${clip(String(error.message))})` }))
  )
