import { Effect, Layer, Option, Result } from "effect"
import { documentKind } from "../brazil/Documents.ts"
import { makeEndToEndId } from "../brazil/EndToEndId.ts"
import { buildBrCode } from "../brazil/PixBrCode.ts"
import type { PixKey } from "../domain/Withdrawal.ts"
import type { Account } from "../domain/Account.ts"
import type { Cents } from "../money/Money.ts"
import { type PayoutAnswer, PixProvider, PixProviderError } from "../ports/PixProvider.ts"
import { SandboxPsp } from "../ports/SandboxPsp.ts"

/** ISPB of the fictional bank of the sandbox (its payers and its Pix Automático recurrences). */
export const SANDBOX_ISPB = "99999999"

/** An `idRec` in the BCB's layout: `RR`, the sandbox bank's ISPB, the date, 11 letters and digits of `reference`. */
const sandboxRecurrencyId = (at: Date, reference: string) =>
  `RR${SANDBOX_ISPB}${at.toISOString().slice(0, 10).replaceAll("-", "")}${reference.replace(/[^0-9a-z]/gi, "").slice(-11).toUpperCase().padStart(11, "0")}`

const codeOf = (recurrencyId: string, built: ReturnType<typeof buildBrCode>) =>
  Result.isSuccess(built)
    ? Effect.succeed({ emv: built.success, recurrencyId })
    : Effect.fail(new PixProviderError({ message: `${built.failure.field}: ${built.failure.message}` }))

/** E-mail keys on this domain are refused by the sandbox's payouts: the money comes back (`FAILED`). */
export const SANDBOX_FAILING_KEY_DOMAIN = "falha.sandbox"

/** A sandbox Pix refund of an amount whose centavos are 13 (1.13, 20.13) is refused by the payer's bank (`ERROR`). */
export const SANDBOX_REFUSED_REFUND_CENTS = 13

/** The SPI's id for a payment made at `at` for `reference`: `E` for a payment, `D` for a return. */
export const sandboxSpiId = (kind: "E" | "D", at: Date, reference: string) =>
  kind + makeEndToEndId(SANDBOX_ISPB, at.getTime(), reference.replace(/[^0-9a-z]/gi, "").slice(-11).padStart(11, "0"))!.slice(1)

/**
 * The sandbox DICT: a CPF or CNPJ key is held by that document; an e-mail
 * key whose local part is a CPF or CNPJ (`11444777000161@loja.com`) by that
 * document; every other key by no one the sandbox knows.
 */
const sandboxKeyHolder = (key: PixKey) => {
  const document = key.type === "CPF" || key.type === "CNPJ"
    ? key.value
    : key.type === "EMAIL" ? key.value.slice(0, key.value.indexOf("@")).toUpperCase() : ""
  return documentKind(document) === undefined
    ? Option.none()
    : Option.some({ name: `Titular ${document}`, document, bank: SANDBOX_ISPB })
}

/**
 * Pays out what `answer` says was paid, recording it on the sandbox PSP's
 * statement as money out of the account (a refusal moves nothing). Asked
 * again for the same `reference` (a worker retrying), it answers the first
 * payout, as the port promises, and pays nothing more.
 */
const recorded = (psp: SandboxPsp["Service"], account: Account, reference: string, amount: Cents, at: Date, answer: PayoutAnswer) =>
  answer._tag === "Paid"
    ? Effect.map(psp.recordOnce(account.id, reference, { endToEndId: answer.endToEndId, direction: "DEBIT", amount, at }), (first): PayoutAnswer => ({
      _tag: "Paid",
      endToEndId: first.endToEndId
    }))
    : Effect.succeed(answer)

/**
 * Sandbox Pix: a static BR Code with the account's Pix key, name and city,
 * the charge amount and its txid. Valid for any bank app's parser; it moves
 * no money (payment is simulated by `POST /v1/wallet/pay/{chargeId}`). The
 * Pix it pays out are on its own statement (`SandboxPsp`), as a PSP's.
 */
export const PixProviderSandbox = Layer.effect(PixProvider, Effect.gen(function*() {
  const psp = yield* SandboxPsp
  return PixProvider.of({
    ispbOf: () => SANDBOX_ISPB,
    /** Pix Automático with a first charge: a composite dynamic code whose payload and recurrence locations are on a sandbox host. */
    createRecurrence: (input) => {
      const recurrencyId = sandboxRecurrencyId(input.expiresAt, input.txid)
      return codeOf(recurrencyId, buildBrCode({
        kind: "dynamic",
        location: `pix.sandbox.billing.dev/cob/${input.txid}`,
        recurrenceLocation: `pix.sandbox.billing.dev/rec/${recurrencyId}`,
        merchantName: input.receiver.name,
        merchantCity: input.receiver.city
      }))
    },
    requestRecurrence: (input) => {
      const recurrencyId = sandboxRecurrencyId(input.at, input.reference)
      return codeOf(recurrencyId, buildBrCode({
        kind: "recurrence",
        recurrenceLocation: `pix.sandbox.billing.dev/rec/${recurrencyId}`,
        merchantName: input.receiver.name,
        merchantCity: input.receiver.city
      }))
    },
    lookupKey: (_account, key) => Effect.succeed(sandboxKeyHolder(key)),
    payOut: (input) =>
      recorded(psp, input.account, input.reference, input.amount, input.at, input.key.type === "EMAIL" && input.key.value.endsWith(`@${SANDBOX_FAILING_KEY_DOMAIN}`)
        ? { _tag: "Refused", reason: "Chave PIX recusada pela instituição de destino" }
        : { _tag: "Paid", endToEndId: sandboxSpiId("E", input.at, input.reference) }),
    returnPix: (input) =>
      recorded(psp, input.account, input.reference, input.amount, input.at, input.amount % 100 === SANDBOX_REFUSED_REFUND_CENTS
        ? { _tag: "Refused", reason: "Devolução recusada pela instituição do pagador" }
        : { _tag: "Paid", endToEndId: sandboxSpiId("D", input.at, input.reference) }),
    statement: (input) => psp.statement(input.account.id, input.from, input.to),
    // A sandbox code is paid only through the engine itself (`requestSandboxPayment`): nothing waits at a PSP.
    closeCharge: () => Effect.succeed({ _tag: "Closed" }),
    createCharge: (input) => {
      const built = buildBrCode({
        kind: "static",
        key: input.receiver.pixKey ?? input.receiver.document,
        amountCents: input.amount,
        merchantName: input.receiver.name,
        merchantCity: input.receiver.city,
        txid: input.txid
      })
      return Result.isSuccess(built)
        ? Effect.succeed({ emv: built.success, psp: null })
        : Effect.fail(new PixProviderError({ message: `${built.failure.field}: ${built.failure.message}` }))
    }
  })
}))
