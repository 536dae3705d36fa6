/**
 * The sandbox KYC provider: no one is analysed, and the first three digits
 * of a document decide (like the card table): the proposal's own document
 * or any partner's.
 *
 * | Starts with | Reproved at |
 * |---|---|
 * | `111` | background check |
 * | `222` | documents copy |
 * | `333` | proposal analysis |
 *
 * Every other document is approved at every stage.
 */
import { Effect, Layer } from "effect"
import type { OnboardingStage, Proposal } from "../domain/Proposal.ts"
import { Kyc, type KycDecision } from "../ports/Kyc.ts"

/** The first digits of a document that reprove it at each stage. */
export const SANDBOX_KYC_REPROVING_PREFIX: Readonly<Record<OnboardingStage, string>> = {
  backgroundCheck: "111",
  documentsCopy: "222",
  proposal: "333"
}

const REASONS: Readonly<Record<OnboardingStage, string>> = {
  backgroundCheck: "Restrição encontrada na análise de antecedentes",
  documentsCopy: "Documentos de identificação não conferem",
  proposal: "Proposta reprovada na análise final"
}

/** Every document of the proposal: its own and its partners'. */
const documentsOf = (proposal: Proposal): ReadonlyArray<string> => [
  proposal.documentNumber,
  ...(proposal.form.owner ?? []).flatMap((owner) => (owner.documentNumber === undefined ? [] : [owner.documentNumber]))
]

const decideSandboxStage = (stage: OnboardingStage, proposal: Proposal): KycDecision =>
  documentsOf(proposal).some((document) => document.startsWith(SANDBOX_KYC_REPROVING_PREFIX[stage]))
    ? { _tag: "Reproved", reason: REASONS[stage] }
    : { _tag: "Approved" }

export const KycSandbox = Layer.succeed(Kyc, {
  decide: (stage, proposal) => Effect.succeed(decideSandboxStage(stage, proposal))
})
