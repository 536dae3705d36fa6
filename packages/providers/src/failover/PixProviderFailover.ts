/**
 * The production `PixProvider` over every PSP of the providers file, each
 * behind its circuit. New charges fail over (`FailoverCharge.ts`); what
 * follows a charge goes to the PSP that holds it, whatever its circuit says
 * (a refund can only go where the Pix was paid); payouts go to the first PSP
 * that can send Pix and is not skipped, and stay there for the call (moving a
 * payout whose outcome is unknown would risk paying it twice); the statement
 * is every PSP's. The rest (ISPB, DICT, Pix Automático) is the first PSP's,
 * as on one PSP.
 */
import { type PayoutAnswer, PixProvider, PixProviderError } from "@billing/core"
import { Effect, FiberSet, Layer, Result } from "effect"
import type { PixApiClient } from "../pix/PixApiClient.ts"
import { PspProfiles } from "../pix/PixProfiles.ts"
import { payOutAt, pixProviderOn, toPort } from "../pix/PixProviderPsp.ts"
import { PspClients } from "../pix/PspClients.ts"
import { createChargeFailover } from "./FailoverCharge.ts"
import { type GuardedPsp, guardPsp, throughCircuit } from "./GuardedPsp.ts"
import { DEFAULT_ORPHAN_WATCH, type OrphanWatch } from "./OrphanCharges.ts"

export interface FailoverOptions {
  /** How long a PSP is skipped once its circuit opens (default the recorded thirty seconds). */
  readonly coolDownMillis?: number
  /** How a PSP left behind after a timeout is watched for the charge (default every 15 s, 8 times). */
  readonly orphanWatch?: OrphanWatch
}

type ReturnPix = PixProvider["Service"]["returnPix"]
type PayOut = PixProvider["Service"]["payOut"]

/** To the PSP the charge names; a charge without one, or naming a PSP no longer in the file, has nowhere to go. */
const returnPixAtItsPsp = (providers: ReadonlyMap<string, PixProvider["Service"]>): ReturnPix => (input) => {
  const provider = input.psp === null ? undefined : providers.get(input.psp)
  if (provider !== undefined) return provider.returnPix(input)
  const why = input.psp === null ? "its charge records no PSP" : `its charge's PSP ${input.psp} is not in the providers file`
  return Effect.fail(new PixProviderError({ message: `the Pix ${input.endToEndId} cannot be returned: ${why}, and a refund can only go where the Pix was paid` }))
}

/**
 * At the PSP the charge names, where its payer's Pix went. A charge naming
 * none, or a PSP no longer in the file, has no PSP left that could take a
 * Pix for it through the engine: it is closed.
 */
const closeChargeAtItsPsp = (providers: ReadonlyMap<string, PixProvider["Service"]>): PixProvider["Service"]["closeCharge"] => (input) => {
  const provider = input.psp === null ? undefined : providers.get(input.psp)
  if (provider !== undefined) return provider.closeCharge(input)
  return Effect.as(Effect.logWarning(`Pix charge ${input.txid}: its PSP ${input.psp ?? "(none)"} is not in the providers file; closed without asking`), { _tag: "Closed" } as const)
}

/** The first PSP that can send Pix and whose circuit admits the call; skipped PSPs are named in the error when none does. */
const payOutFromFirst = (psps: ReadonlyArray<GuardedPsp>): PayOut =>
  Effect.fn("Failover.payOut")(function*(input: Parameters<PayOut>[0]) {
    const reasons: Array<string> = []
    for (const guarded of psps) {
      const { name, profile } = guarded.api.psp
      if (PspProfiles[profile].sendPix === undefined) {
        reasons.push(`${name}: the ${profile} profile has no route for sending Pix`)
        continue
      }
      const sent = yield* Effect.result(throughCircuit(guarded, payOutAt(guarded.api)(input)))
      if (Result.isFailure(sent) && sent.failure._tag === "CircuitOpen") {
        reasons.push(sent.failure.message)
        continue
      }
      return yield* Effect.fromResult(sent).pipe(Effect.mapError(toPort)) satisfies Effect.Effect<PayoutAnswer, PixProviderError>
    }
    return yield* new PixProviderError({ message: `no PSP can send the payout ${input.reference}: ${reasons.join("; ")}` })
  })

/** Every PSP's statement, one list ordered by time. */
const statementOfAll = (providers: ReadonlyArray<PixProvider["Service"]>): PixProvider["Service"]["statement"] => (input) =>
  Effect.forEach(providers, (provider) => provider.statement(input), { concurrency: "unbounded" }).pipe(
    Effect.map((lists) => lists.flat().sort((a, b) => a.at.getTime() - b.at.getTime()))
  )

/** The port over `clients`, in order (the providers file has at least one); background watches end with the scope. */
export const makePixProviderFailover = Effect.fn("PixProviderFailover.make")(function*(clients: ReadonlyArray<PixApiClient>, options: FailoverOptions = {}) {
  const psps = yield* Effect.forEach(clients, (api) => guardPsp(api, options.coolDownMillis))
  const watches = yield* FiberSet.make<void, never>()
  const providers = clients.map(pixProviderOn)
  const first = providers[0]!
  const byName = new Map(clients.map((api, i) => [api.psp.name, providers[i]!]))
  return PixProvider.of({
    createCharge: createChargeFailover({ psps, watches, orphanWatch: options.orphanWatch ?? DEFAULT_ORPHAN_WATCH }),
    returnPix: returnPixAtItsPsp(byName),
    closeCharge: closeChargeAtItsPsp(byName),
    payOut: payOutFromFirst(psps),
    statement: statementOfAll(providers),
    ispbOf: first.ispbOf,
    lookupKey: first.lookupKey,
    createRecurrence: first.createRecurrence,
    requestRecurrence: first.requestRecurrence
  })
})

/**
 * `PixProvider` over the loaded providers file's `pix` list, with the
 * `PspClients` it runs on, for the reconciliation poll to share.
 */
export const PixProviderFromProviders = Layer.effect(
  PixProvider,
  Effect.gen(function*() {
    return yield* makePixProviderFailover(yield* PspClients)
  })
).pipe(Layer.provideMerge(PspClients.layer))
