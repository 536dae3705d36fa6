/**
 * An engine charge at one PSP, in the steps a failover needs apart: the
 * request as that PSP is to get it, its creation, looking for it after an
 * unknown outcome, and its removal. The one-PSP layer chains the first two
 * (`registerCharge`); the failover also looks before it moves on and removes
 * what turns up at a PSP it left.
 */
import type { PixChargeClosing, PixRegistered, PixRegistration } from "@billing/core"
import { Clock, Effect, Option, Result } from "effect"
import { receivedPixOf } from "../callback/ReceivedPix.ts"
import type { PixPsp } from "../config/ProvidersConfig.ts"
import { cobBody, cobvBody } from "./ChargeBodies.ts"
import { type CobBody, type CobvBody, type PixApiClient, type PixApiError, sameCharge } from "./PixApiClient.ts"
import type { CobAnswer } from "./PixApiSchemas.ts"
import { ChargeNotRegistrable, PspAnswerInvalid } from "./PspErrors.ts"
import { pspTxid } from "./PspIdentifiers.ts"

/** A charge as one PSP is asked for it: immediate (`cob`) or with a due date (`cobv`), under the PSP txid derived from ours. */
export type PspCharge =
  | { readonly kind: "cob"; readonly txid: string; readonly body: CobBody }
  | { readonly kind: "cobv"; readonly txid: string; readonly body: CobvBody }

/** The request for `input` at `psp` (its receiving key, its deadline counted from `nowMs`), or why none can be made. */
export const pspChargeOf = (psp: PixPsp, input: PixRegistration, nowMs: number): Result.Result<PspCharge, ChargeNotRegistrable> => {
  const refuse = (why: string) => new ChargeNotRegistrable({ psp: psp.name, message: `${psp.name}: ${why}` })
  const txid = pspTxid(input.txid)
  if (Option.isNone(txid)) return Result.fail(refuse(`txid ${input.txid} cannot be made a PSP txid (26 to 35 letters and digits)`))
  if (input.dueDate === null) return Result.succeed({ kind: "cob", txid: txid.value, body: cobBody(psp, input, nowMs) })
  return Result.match(cobvBody(psp, input, input.dueDate), {
    onFailure: (why) => Result.fail(refuse(why)),
    onSuccess: (body) => Result.succeed({ kind: "cobv" as const, txid: txid.value, body })
  })
}

/** The port's answer from the PSP's charge: its BR Code (`pixCopiaECola`) and the PSP's name. */
const registeredOf = (psp: string, answer: CobAnswer): Effect.Effect<PixRegistered, PspAnswerInvalid> =>
  answer.pixCopiaECola === undefined
    ? Effect.fail(new PspAnswerInvalid({ psp, message: `${psp}: the charge ${answer.txid} came back without pixCopiaECola` }))
    : Effect.succeed({ emv: answer.pixCopiaECola, psp })

/** Creates `charge` (repeated with the same txid when the outcome was unknown, as the client does). */
export const createPspCharge = (api: PixApiClient, charge: PspCharge): Effect.Effect<PixRegistered, PixApiError> =>
  (charge.kind === "cob" ? api.createCob(charge.txid, charge.body) : api.createCobv(charge.txid, charge.body)).pipe(
    Effect.flatMap((answer) => registeredOf(api.psp.name, answer))
  )

/** Which charge at the PSP: its kind and the PSP's txid. */
type PspChargeRef = Pick<PspCharge, "kind" | "txid">

/** The PSP's charge `ref`, whatever it holds; none when the PSP answers 404. */
const readPspCharge = (api: PixApiClient, ref: PspChargeRef): Effect.Effect<Option.Option<CobAnswer>, PixApiError> =>
  (ref.kind === "cob" ? api.getCob(ref.txid) : api.getCobv(ref.txid)).pipe(
    Effect.map(Option.some),
    Effect.catchIf((error) => error._tag === "PspProblem" && error.status === 404, () => Effect.succeedNone)
  )

/** The PSP's copy of `charge` when it holds it as asked; none when it answers 404 or holds something else under the txid. */
export const findPspCharge = (api: PixApiClient, charge: PspCharge): Effect.Effect<Option.Option<CobAnswer>, PixApiError> =>
  readPspCharge(api, charge).pipe(Effect.map(Option.filter(sameCharge(charge.body))))

/** The PSP's copy of `charge` as the port's answer, when it holds it. */
export const foundPspCharge = (api: PixApiClient, charge: PspCharge): Effect.Effect<Option.Option<PixRegistered>, PixApiError> =>
  findPspCharge(api, charge).pipe(
    Effect.flatMap(Option.match({ onNone: () => Effect.succeedNone, onSome: (found) => Effect.asSome(registeredOf(api.psp.name, found)) }))
  )

/** Takes `charge` off sale (`REMOVIDA_PELO_USUARIO_RECEBEDOR`). */
export const removePspCharge = (api: PixApiClient, charge: PspChargeRef): Effect.Effect<CobAnswer, PixApiError> =>
  charge.kind === "cob" ? api.removeCob(charge.txid) : api.removeCobv(charge.txid)

/** Builds the request for `input` at the client's PSP and creates it: the one-PSP layer's `createCharge`. */
export const registerCharge = (api: PixApiClient) =>
  Effect.fn("PspCharges.register")(function*(input: PixRegistration) {
    const charge = yield* Effect.fromResult(pspChargeOf(api.psp, input, yield* Clock.currentTimeMillis))
    return yield* createPspCharge(api, charge)
  })

const CLOSED: PixChargeClosing = { _tag: "Closed" }

/** What a charge's state at its PSP means for its expiry: paid (`CONCLUIDA`, with the Pix it lists), else closed. */
const closingOf = (psp: string, answer: CobAnswer): PixChargeClosing =>
  answer.status === "CONCLUIDA"
    ? { _tag: "Paid", pix: (answer.pix ?? []).flatMap((pix) => Option.toArray(receivedPixOf(pix, psp))) }
    : CLOSED

/**
 * The engine's charge `txid` at the client's PSP once its deadline passed:
 * read (`GET`), and taken off sale (`PATCH`, `REMOVIDA_PELO_USUARIO_RECEBEDOR`)
 * while still `ATIVA`, so that no Pix pays it once the engine expires it. A
 * charge the PSP does not hold (404) is closed; a removal refused because a
 * Pix concluded it meanwhile fails, and the next attempt reads it paid.
 */
export const closePspCharge = (api: PixApiClient) =>
  Effect.fn("PspCharges.close")(function*(input: { readonly txid: string; readonly dueDate: string | null }) {
    const txid = pspTxid(input.txid)
    if (Option.isNone(txid)) return CLOSED
    const ref: PspChargeRef = { kind: input.dueDate === null ? "cob" : "cobv", txid: txid.value }
    const found = yield* readPspCharge(api, ref)
    if (Option.isNone(found)) return CLOSED
    if (found.value.status !== "ATIVA") return closingOf(api.psp.name, found.value)
    return closingOf(api.psp.name, yield* removePspCharge(api, ref))
  })
