import { metered } from "../metrics/ProviderMetrics.ts"
import { Context, type Effect, Schema } from "effect"
import type { Account } from "../domain/Account.ts"
import type { Cents } from "../money/Money.ts"

/** The issuer could not be asked, or gave no usable answer (an outage, a timeout, a drifted answer): try again later. */
export class BoletoIssuerError extends Schema.TaggedError<BoletoIssuerError>()("BoletoIssuerError", { message: Schema.String }) {}

/** The bank refused the request itself (a payer it rejects, an amount below its minimum): asking again changes nothing. */
export class BoletoRefused extends Schema.TaggedError<BoletoRefused>()("BoletoRefused", { message: Schema.String }) {}

/** The bank holds no boleto under that reference and "nosso número". */
export class BoletoNotFound extends Schema.TaggedError<BoletoNotFound>()("BoletoNotFound", {
  reference: Schema.String,
  message: Schema.String
}) {}

/** A registered boleto, as the bank returns it. */
export interface IssuedBoleto {
  readonly bankCode: string
  readonly ourNumber: string
  readonly barcode: string
  readonly digitableLine: string
  /** The bank's Pix on the boleto (a BR Code the payer may pay instead), when the bank offers one. */
  readonly pixCopiaECola?: string | undefined
}

/** Who pays: banks register a boleto with its payer (CPF or CNPJ, name, address) and print it. */
export interface BoletoPayer {
  readonly name: string
  /** CPF (11 digits) or CNPJ (14), digits only. */
  readonly document: string
  readonly email?: string | undefined
  readonly address: {
    readonly street: string
    readonly number: string
    readonly complement: string | null
    readonly neighborhood: string
    readonly city: string
    /** UF, two capital letters. */
    readonly state: string
    /** CEP, 8 digits. */
    readonly zipCode: string
  }
}

/** A boleto issued earlier, as its charge recorded it. */
export interface BoletoRef {
  readonly receiver: Account
  /** The `reference` it was issued with (the charge's id). */
  readonly reference: string
  /** `IssuedBoleto.ourNumber`. */
  readonly ourNumber: string
  /** `YYYY-MM-DD`, as issued. */
  readonly dueDate: string
}

/**
 * Where a boleto stands at the bank. `Paid` carries what the payer paid
 * (interest or a discount can make it differ from the boleto's amount) and
 * the São Paulo day the bank credited it. `WrittenOff`: it can no longer be
 * paid (baixa: written off on request, or by the bank after its last
 * payable day).
 */
export type BoletoStatus =
  | { readonly _tag: "Open" }
  | { readonly _tag: "Paid"; readonly amount: Cents; readonly paidOn: string }
  | { readonly _tag: "WrittenOff" }

/** A boleto the bank says was paid, by its "nosso número" (the charge's `txid`). */
export interface BoletoPayment {
  readonly ourNumber: string
  readonly amount: Cents
  /** `YYYY-MM-DD`. */
  readonly paidOn: string
}

/**
 * The boleto issuer (the bank that registers boletos for the account). The
 * sandbox layer builds valid FEBRABAN codes itself; a production one calls
 * the bank's registration API.
 */
export class BoletoIssuer extends Context.Service<BoletoIssuer, {
  /**
   * Registers a boleto. `reference` (the charge's id) is the idempotency
   * key: registered again (after a timeout, or by a caller that stopped
   * before recording the answer), the bank's existing boleto is answered
   * and no second one is made. `payer` is required by banks (the sandbox
   * ignores it); `daysPayableAfterDue` (0 to 60, default 0) is how long the
   * bank still takes it after `dueDate` before writing it off by itself.
   */
  readonly issue: (request: {
    readonly receiver: Account
    readonly reference: string
    readonly amount: Cents
    readonly dueDate: string
    readonly payer?: BoletoPayer | undefined
    readonly daysPayableAfterDue?: number | undefined
  }) => Effect.Effect<IssuedBoleto, BoletoIssuerError | BoletoRefused>
  /**
   * Writes the boleto off at the bank (baixa), so it can no longer be paid.
   * A boleto already paid or written off is answered as it is (`Paid` is
   * money the charge must record, not a failure); asked again, the same.
   */
  readonly writeOff: (boleto: BoletoRef) => Effect.Effect<Exclude<BoletoStatus, { readonly _tag: "Open" }>, BoletoIssuerError | BoletoRefused | BoletoNotFound>
  /** Where the boleto stands at the bank, for the job that polls open boletos. */
  readonly status: (boleto: BoletoRef) => Effect.Effect<BoletoStatus, BoletoIssuerError | BoletoNotFound>
  /**
   * The boletos paid from `from` to `to` (São Paulo days, both included):
   * one call for every boleto of the period, which serves a poll better than
   * a `status` per open charge.
   */
  readonly paymentsBetween: (request: {
    readonly receiver: Account
    readonly from: string
    readonly to: string
  }) => Effect.Effect<ReadonlyArray<BoletoPayment>, BoletoIssuerError>
}>()("@billing/core/ports/BoletoIssuer") {
  /**
   * Sandbox accounts' boletos on `sandbox`, production accounts' on
   * `production`: one engine serves both, and a sandbox layer never
   * registers a real account's boleto.
   */
  static readonly byEnvironment = (sandbox: BoletoIssuer["Service"], production: BoletoIssuer["Service"]): BoletoIssuer["Service"] => {
    const live = metered("boleto", production)
    const of = (receiver: Account) => (receiver.sandbox ? sandbox : live)
    return {
      issue: (request) => of(request.receiver).issue(request),
      writeOff: (boleto) => of(boleto.receiver).writeOff(boleto),
      status: (boleto) => of(boleto.receiver).status(boleto),
      paymentsBetween: (request) => of(request.receiver).paymentsBetween(request)
    }
  }
}
