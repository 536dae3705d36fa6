import { metered } from "../metrics/ProviderMetrics.ts"
import { Context, Effect, Option, Schema } from "effect"
import type { NfseConfig, NfseStandard, StoredCertificate } from "../domain/NfseConfig.ts"
import type { NotaError, NotaToIssue } from "../domain/Nota.ts"

/** The city could not be asked, or answered nothing the engine can read: the outcome is unknown. */
export class NfseProviderError extends Schema.TaggedError<NfseProviderError>()("NfseProviderError", { message: Schema.String }) {}

/** What became of a DPS at the city. */
export type NotaOutcome =
  /** The city issued the note: its number, its access key (national) and its XML. */
  | { readonly _tag: "Authorized"; readonly numero: string; readonly chaveAcesso: string | null; readonly xml: string; readonly authorizedAt: Date }
  /** The city refused the DPS; nothing was issued, and the number may not be reused. */
  | { readonly _tag: "Refused"; readonly errors: ReadonlyArray<NotaError> }
  /** The city took the DPS and will decide later; ask `outcome` again. */
  | { readonly _tag: "Processing" }
  /** The city has no such DPS (the engine stopped before sending it, or the request was lost): send it again, same number. */
  | { readonly _tag: "NotReceived" }

/** What the city answers a DPS sent to it. */
export type IssueOutcome = Exclude<NotaOutcome, { readonly _tag: "NotReceived" }>

/** What became of a cancellation request. */
export type CancelOutcome =
  | { readonly _tag: "Canceled"; readonly at: Date }
  | { readonly _tag: "Refused"; readonly errors: ReadonlyArray<NotaError> }

/** The documents of an authorized note. */
export interface NotaDocuments {
  readonly numero: string
  readonly chaveAcesso: string | null
}

/**
 * The city hall (prefeitura) that issues service invoices: the sandbox
 * city for sandbox accounts, the national system (Sefin Nacional) for
 * production ones. The engine numbers every DPS itself and hands each
 * attempt here once; after an `NfseProviderError` it asks `outcome` with the
 * same DPS, never a new number.
 */
export class NfseProvider extends Context.Service<NfseProvider, {
  /**
   * Sends the DPS; `dps` is the document the engine keeps as the note's XML
   * until the city's replaces it. Sending a DPS the city already has answers
   * what became of the first (the national system keys a DPS by its id).
   */
  readonly issue: (config: NfseConfig, nota: NotaToIssue) => Effect.Effect<{ readonly dps: string; readonly outcome: IssueOutcome }, NfseProviderError>
  /** What became of a DPS sent before (a `Processing` answer, or an attempt whose answer was lost). */
  readonly outcome: (config: NfseConfig, nota: NotaToIssue) => Effect.Effect<NotaOutcome, NfseProviderError>
  /** Cancels an authorized note at the city, with the merchant's reason. */
  readonly cancel: (config: NfseConfig, nota: NotaToIssue & NotaDocuments, reason: string) => Effect.Effect<CancelOutcome, NfseProviderError>
  /** The printable note (DANFSe) as a PDF. */
  readonly pdf: (config: NfseConfig, nota: NotaToIssue & NotaDocuments) => Effect.Effect<Uint8Array, NfseProviderError>
  /**
   * The standard the city of `codigoMunicipio` issues in, as this provider
   * knows it (the national system's municipal parameters); none when it
   * cannot tell (the configuration then follows the engine's own list).
   * `certificate` is the issuer's, for a service that asks for one.
   */
  readonly cityStandard: (request: {
    readonly sandbox: boolean
    readonly certificate: StoredCertificate
    readonly codigoMunicipio: string
  }) => Effect.Effect<Option.Option<NfseStandard>, NfseProviderError>
}>()("@billing/core/ports/NfseProvider") {
  /**
   * Sandbox accounts' notes to `sandbox`, production accounts' to
   * `production`: a sandbox city never issues a real account's note.
   */
  static readonly byEnvironment = (sandbox: NfseProvider["Service"], production: NfseProvider["Service"]): NfseProvider["Service"] => {
    const live = metered("nfse", production)
    const of = (isSandbox: boolean) => (isSandbox ? sandbox : live)
    return {
      issue: (config, nota) => of(nota.sandbox).issue(config, nota),
      outcome: (config, nota) => of(nota.sandbox).outcome(config, nota),
      cancel: (config, nota, reason) => of(nota.sandbox).cancel(config, nota, reason),
      pdf: (config, nota) => of(nota.sandbox).pdf(config, nota),
      cityStandard: (request) => of(request.sandbox).cityStandard(request)
    }
  }

  /** No city for production accounts (the `ProviderGate` refuses them before any call; this answers if one slips through). */
  static readonly none: NfseProvider["Service"] = {
    issue: () => Effect.fail(new NfseProviderError({ message: "no NFS-e provider is configured for production accounts" })),
    outcome: () => Effect.fail(new NfseProviderError({ message: "no NFS-e provider is configured for production accounts" })),
    cancel: () => Effect.fail(new NfseProviderError({ message: "no NFS-e provider is configured for production accounts" })),
    pdf: () => Effect.fail(new NfseProviderError({ message: "no NFS-e provider is configured for production accounts" })),
    cityStandard: () => Effect.succeed(Option.none())
  }
}
