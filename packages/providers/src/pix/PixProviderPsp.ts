/**
 * The production `PixProvider` on one PSP's BCB API Pix. Charges are `cob`
 * or `cobv` under a txid derived from ours, refunds are devoluções under an
 * id derived from the refund's, the statement is `GET /pix`; payouts exist
 * only where the profile has a route for them (Efí). What the standard does
 * not offer (DICT look-ups, Pix Automático here) is refused with a typed
 * error naming it. Every failure reaches the port as `PixProviderError`
 * with the PSP's words (its `type` and `correlationId` included).
 *
 * Built per PSP from its client (`pixProviderOn`), so the failover of
 * several holds one per entry and picks among them; the operations whose
 * failures the failover must tell apart (`returnPixAt`, `payOutAt`, and the
 * charge's steps in `PspCharges.ts`) keep the PSP's own errors.
 */
import { type Account, Money, type PayoutAnswer, PIX_RETURN_WINDOW_MILLIS, type PixKey, PixProvider, PixProviderError } from "@billing/core"
import { Effect, Layer } from "effect"
import type { PixPsp } from "../config/ProvidersConfig.ts"
import { efiSendPix } from "./EfiSendPix.ts"
import { makePixApiClient, type PixApiClient } from "./PixApiClient.ts"
import { PspProfiles } from "./PixProfiles.ts"
import { closePspCharge, registerCharge } from "./PspCharges.ts"
import { PixOperationUnsupported, PspStillProcessing } from "./PspErrors.ts"
import type { PspHttpOptions } from "./PspHttp.ts"
import { pspReference } from "./PspIdentifiers.ts"
import { statementOf } from "./PspStatement.ts"

/** A PSP's failure as the port's error, in the PSP's words. */
export const toPort = (error: { readonly message: string }) => new PixProviderError({ message: error.message })

/** A devolução at the client's PSP, its failures as the PSP's. */
export const returnPixAt = (api: PixApiClient) =>
  Effect.fn("PixProviderPsp.returnPix")(function*(input: { readonly endToEndId: string; readonly amount: Money.Cents; readonly reference: string }) {
    const id = pspReference(input.reference)
    const devolucao = yield* api.requestDevolucao(input.endToEndId, id, Money.toDecimalString(input.amount))
    switch (devolucao.status) {
      case "DEVOLVIDO": {
        const settled = devolucao.horario.liquidacao
        return { _tag: "Paid", endToEndId: devolucao.rtrId, ...(settled === undefined ? {} : { settledAt: new Date(settled) }) } satisfies PayoutAnswer
      }
      case "NAO_REALIZADO":
        return { _tag: "Refused", reason: devolucao.motivo ?? "Devolução não realizada" } satisfies PayoutAnswer
      case "EM_PROCESSAMENTO":
        // No answer yet: the refund stays in flight and the worker asks again by the same id (docs/decisions.md).
        return yield* new PspStillProcessing({ psp: api.psp.name, message: `${api.psp.name}: devolução ${id} of ${input.endToEndId} is EM_PROCESSAMENTO` })
    }
  })

/** A payout from the client's PSP (Efí's send-Pix route; refused for other profiles), its failures as the PSP's. */
export const payOutAt = (api: PixApiClient) =>
  Effect.fn("PixProviderPsp.payOut")(function*(input: { readonly reference: string; readonly amount: Money.Cents; readonly key: PixKey }) {
    const { name, profile, pixKey } = api.psp
    if (PspProfiles[profile].sendPix !== "efi") {
      return yield* new PixOperationUnsupported({ psp: name, profile, operation: "payOut", message: `${name}: the ${profile} profile has no route for sending Pix (payouts); only efi has one` })
    }
    const idEnvio = pspReference(input.reference)
    const sent = yield* efiSendPix(api.http, { idEnvio, valor: Money.toDecimalString(input.amount), pagador: pixKey.value, favorecido: input.key.value })
    switch (sent.status) {
      case "REALIZADO":
        return { _tag: "Paid", endToEndId: sent.endToEndId } satisfies PayoutAnswer
      case "NAO_REALIZADO":
        return { _tag: "Refused", reason: "Pix não realizado" } satisfies PayoutAnswer
      case "EM_PROCESSAMENTO":
        return yield* new PspStillProcessing({ psp: name, message: `${name}: Pix ${idEnvio} is EM_PROCESSAMENTO` })
    }
  })

const unsupported = (psp: PixPsp, operation: string, why: string) => () =>
  Effect.fail(toPort(new PixOperationUnsupported({ psp: psp.name, profile: psp.profile, operation, message: `${psp.name}: ${operation} is not supported: ${why}` })))

/** The port on the client's PSP. */
export const pixProviderOn = (api: PixApiClient): PixProvider["Service"] => {
  const psp = api.psp
  const [register, refund, send, close] = [registerCharge(api), returnPixAt(api), payOutAt(api), closePspCharge(api)]
  return PixProvider.of({
    // The plain standard names no institution: the entry's PSP is unknown to the engine (docs/decisions.md).
    ispbOf: () => PspProfiles[psp.profile].ispb ?? "",
    createCharge: (input) => register(input).pipe(Effect.mapError(toPort)),
    returnPix: (input) => refund(input).pipe(Effect.mapError(toPort)),
    payOut: (input) => send(input).pipe(Effect.mapError(toPort)),
    closeCharge: (input) => close(input).pipe(Effect.mapError(toPort)),
    // `GET /pix` filters by the Pix's own time: a devolução made in the window may belong to a Pix of up to 90 days before it.
    statement: (input: { readonly account: Account; readonly from: Date; readonly to: Date }) =>
      api.receivedPix(new Date(input.from.getTime() - PIX_RETURN_WINDOW_MILLIS), input.to).pipe(Effect.map((received) => statementOf(received, input.from, input.to)), Effect.mapError(toPort)),
    lookupKey: unsupported(psp, "lookupKey", "DICT look-ups are not part of the BCB API Pix"),
    createRecurrence: unsupported(psp, "createRecurrence", "Pix Automático (/rec, /cobr) is not implemented by the PSP adapter"),
    requestRecurrence: unsupported(psp, "requestRecurrence", "Pix Automático (/solicrec) is not implemented by the PSP adapter")
  })
}

/** The port on the PSP `psp`; its connections close with the scope. */
export const makePixProviderPsp = Effect.fn("PixProviderPsp.make")(function*(psp: PixPsp, options: PspHttpOptions = {}) {
  return pixProviderOn(yield* makePixApiClient(psp, options))
})

/** `PixProvider` on `psp` alone (the failover over the providers file's list is `PixProviderFromProviders`). */
export const pixProviderLayer = (psp: PixPsp, options: PspHttpOptions = {}) => Layer.effect(PixProvider, makePixProviderPsp(psp, options))
