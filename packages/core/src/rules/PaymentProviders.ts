/**
 * Which provider each payment method's money moves through: the Pix PSP
 * (Pix, and a Pix Automático recurrence), the card acquirer, the boleto bank;
 * and the city (`nfse`) and the e-mail provider (`mail`), which move no
 * money but must be as real as they are for a production account: a sandbox
 * city's note is no note, a sandbox mailbox's e-mail reaches no one.
 */
import { Schema } from "effect"
import type { PaymentMethodInput } from "../domain/Charge.ts"

/** The outside services a production account needs configured. */
export const ProviderKind = Schema.Literals(["pix", "card", "boleto", "nfse", "mail"])
export type ProviderKind = typeof ProviderKind.Type

/** The provider a payment method's charges go through. */
export const providerOf = (method: PaymentMethodInput): ProviderKind =>
  method === "creditcard" ? "card" : method === "boleto" ? "boleto" : "pix"

const PaymentMethodsInOrder: ReadonlyArray<PaymentMethodInput> = ["pix", "pix_automatico", "creditcard", "boleto"]

/** The payment methods whose charges go through `provider`. */
export const methodsOf = (provider: ProviderKind): ReadonlyArray<PaymentMethodInput> =>
  PaymentMethodsInOrder.filter((method) => providerOf(method) === provider)
