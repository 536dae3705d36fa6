/**
 * The KYC provider that analyses a sub-account proposal, stage by stage:
 * the background check of the people and company, the documents the owner
 * sent, and the final analysis. The sandbox decides by document
 * (`sandbox/KycSandbox.ts`); production plugs in a real provider's adapter.
 */
import { Context, type Effect, Schema } from "effect"
import type { OnboardingStage, Proposal } from "../domain/Proposal.ts"

export type KycDecision =
  | { readonly _tag: "Approved" }
  | { readonly _tag: "Reproved"; readonly reason: string }

/** The provider could not be reached: the stage stays pending and is asked again. */
export class KycUnavailable extends Schema.TaggedError<KycUnavailable>()("KycUnavailable", { message: Schema.String }) {}

export class Kyc extends Context.Service<Kyc, {
  readonly decide: (stage: OnboardingStage, proposal: Proposal) => Effect.Effect<KycDecision, KycUnavailable>
}>()("@billing/core/ports/Kyc") {}
