/**
 * The production `PixProvider` on one PSP's BCB API Pix. Charges are `cob`
 * or `cobv` under a txid derived from ours, refunds are devoluções under an
 * id derived from the refund's, the statement is `GET /pix`; payouts exist
 * only where the profile has a route for them (Efí). What the standard does
 * not offer (DICT look-ups, Pix Automático here) is refused with a typed
 * error naming it. Every failure reaches the port as `PixProviderError`
 * with the PSP's words (its `type` and `correlationId` included).
 *
 * Built per PSP, so the failover of several (next step of issue 28) can hold
 * one per entry and pick among them.
 */
import { type Account, Money, type PayoutAnswer, type PixKey, PixProvider, PixProviderError, type PixRegistered, type PixRegistration } from "@billing/core"
import { Clock, Effect, Layer, Option, Result } from "effect"
import type { PixPsp } from "../config/ProvidersConfig.ts"
import { Providers } from "../Providers.ts"
import { cobBody, cobvBody } from "./ChargeBodies.ts"
import { efiSendPix } from "./EfiSendPix.ts"
import { makePixApiClient, type PixApiClient } from "./PixApiClient.ts"
import { PspProfiles } from "./PixProfiles.ts"
import { ChargeNotRegistrable, PixOperationUnsupported, PspAnswerInvalid, PspStillProcessing } from "./PspErrors.ts"
import type { PspHttpOptions } from "./PspHttp.ts"
import { pspReference, pspTxid } from "./PspIdentifiers.ts"
import { statementOf } from "./PspStatement.ts"

const toPort = (error: { readonly message: string }) => new PixProviderError({ message: error.message })

const registerCharge = (api: PixApiClient) =>
  Effect.fn("PixProviderPsp.createCharge")(function*(input: PixRegistration) {
    const psp = api.psp.name
    const txid = yield* Option.match(pspTxid(input.txid), {
      onNone: () => Effect.fail(new ChargeNotRegistrable({ psp, message: `${psp}: txid ${input.txid} cannot be made a PSP txid (26 to 35 letters and digits)` })),
      onSome: Effect.succeed
    })
    const answer = input.dueDate === null
      ? yield* api.createCob(txid, cobBody(api.psp, input, yield* Clock.currentTimeMillis))
      : yield* Result.match(cobvBody(api.psp, input, input.dueDate), {
        onFailure: (why) => Effect.fail(new ChargeNotRegistrable({ psp, message: `${psp}: ${why}` })),
        onSuccess: (body) => api.createCobv(txid, body)
      })
    if (answer.pixCopiaECola === undefined) return yield* new PspAnswerInvalid({ psp, message: `${psp}: the charge ${txid} came back without pixCopiaECola` })
    return { emv: answer.pixCopiaECola, psp } satisfies PixRegistered
  }, Effect.mapError(toPort))

const returnPix = (api: PixApiClient) =>
  Effect.fn("PixProviderPsp.returnPix")(function*(input: { readonly endToEndId: string; readonly amount: Money.Cents; readonly reference: string }) {
    const id = pspReference(input.reference)
    const devolucao = yield* api.requestDevolucao(input.endToEndId, id, Money.toDecimalString(input.amount))
    switch (devolucao.status) {
      case "DEVOLVIDO":
        return { _tag: "Paid", endToEndId: devolucao.rtrId } satisfies PayoutAnswer
      case "NAO_REALIZADO":
        return { _tag: "Refused", reason: devolucao.motivo ?? "Devolução não realizada" } satisfies PayoutAnswer
      case "EM_PROCESSAMENTO":
        // No answer yet: the refund stays in flight and the worker asks again by the same id (docs/decisions.md).
        return yield* new PspStillProcessing({ psp: api.psp.name, message: `${api.psp.name}: devolução ${id} of ${input.endToEndId} is EM_PROCESSAMENTO` })
    }
  }, Effect.mapError(toPort))

const payOut = (api: PixApiClient) =>
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
  }, Effect.mapError(toPort))

const unsupported = (psp: PixPsp, operation: string, why: string) => () =>
  Effect.fail(toPort(new PixOperationUnsupported({ psp: psp.name, profile: psp.profile, operation, message: `${psp.name}: ${operation} is not supported: ${why}` })))

/** The port on the PSP `psp`; its connections close with the scope. */
export const makePixProviderPsp = Effect.fn("PixProviderPsp.make")(function*(psp: PixPsp, options: PspHttpOptions = {}) {
  const api = yield* makePixApiClient(psp, options)
  return PixProvider.of({
    // The plain standard names no institution: the entry's PSP is unknown to the engine (docs/decisions.md).
    ispbOf: () => PspProfiles[psp.profile].ispb ?? "",
    createCharge: registerCharge(api),
    returnPix: returnPix(api),
    payOut: payOut(api),
    statement: (input: { readonly account: Account; readonly from: Date; readonly to: Date }) =>
      api.receivedPix(input.from, input.to).pipe(Effect.map((received) => statementOf(received, input.from, input.to)), Effect.mapError(toPort)),
    lookupKey: unsupported(psp, "lookupKey", "DICT look-ups are not part of the BCB API Pix"),
    createRecurrence: unsupported(psp, "createRecurrence", "Pix Automático (/rec, /cobr) is not implemented by the PSP adapter"),
    requestRecurrence: unsupported(psp, "requestRecurrence", "Pix Automático (/solicrec) is not implemented by the PSP adapter")
  })
})

/** `PixProvider` on `psp`. */
export const pixProviderLayer = (psp: PixPsp, options: PspHttpOptions = {}) => Layer.effect(PixProvider, makePixProviderPsp(psp, options))

/** `PixProvider` on the first PSP of the loaded providers file (failover across the list is the next step). */
export const PixProviderFirstPsp = Layer.effect(
  PixProvider,
  Effect.gen(function*() {
    const config = yield* Providers
    // The providers file requires at least one PSP.
    return yield* makePixProviderPsp(config.pix[0]!)
  })
)
