import { Context, Effect, Layer, Ref, Schema } from "effect"
import type { Account } from "../domain/Account.ts"
import type { PaymentMethodInput } from "../domain/Charge.ts"
import { methodsOf, ProviderKind } from "../rules/PaymentProviders.ts"
import { ErrorFields } from "../domain/Errors.ts"

/**
 * 503: a production account asked to move money through a provider this
 * installation has not configured. Nothing was done; `details.provider` names
 * it (`pix`, `card`, `boleto`). Sandbox accounts never see it.
 */
export class ProviderNotConfigured extends Schema.TaggedError<ProviderNotConfigured>()("PROVIDER_NOT_CONFIGURED", ErrorFields, {
  httpApiStatus: 503
}) {}

/**
 * Which providers production accounts may use. Sandbox accounts always run on
 * the sandbox layers; a production account runs only on a provider the
 * installation configured, and is refused (`PROVIDER_NOT_CONFIGURED`) before
 * anything is written otherwise: a sandbox layer must never decide a real
 * payment (a production card approved by the spec's test-card table, a Pix
 * code no PSP will ever settle).
 *
 * Use cases ask `require` before they create or move money; the billing run
 * leaves the cycles of the `unservedMethods` of production accounts `SCHEDULED`
 * (`RunScope.heldMethods`), so they are billed once when the provider appears.
 */
export class ProviderGate extends Context.Service<ProviderGate, {
  /** Succeeds for a sandbox account, or a production one whose `provider` is configured. */
  readonly require: (account: Account, provider: ProviderKind) => Effect.Effect<void, ProviderNotConfigured>
  /** The payment methods production accounts cannot be charged by here. */
  readonly unservedMethods: ReadonlyArray<PaymentMethodInput>
  /**
   * Logs the warning `message` makes of `what`, once per process: once one
   * was logged, later calls neither log nor run `message`; `message`
   * answering undefined (nothing to warn of yet) logs nothing.
   */
  readonly warnOnce: <R>(what: string, message: Effect.Effect<string | undefined, never, R>) => Effect.Effect<void, never, R>
}>()("@billing/core/ports/ProviderGate") {
  /** The gate of an installation whose production accounts have exactly the `configured` providers. */
  static readonly layer = (configured: ReadonlyArray<ProviderKind>) =>
    Layer.effect(
      ProviderGate,
      Effect.gen(function*() {
        const warned = yield* Ref.make<ReadonlySet<string>>(new Set())
        const warnOnce = <R>(what: string, message: Effect.Effect<string | undefined, never, R>) =>
          Effect.gen(function*() {
            if ((yield* Ref.get(warned)).has(what)) return
            const text = yield* message
            if (text === undefined) return
            // Two fibers may have made the message at once: only the first to mark it logs.
            const first = yield* Ref.modify(warned, (seen) => [!seen.has(what), new Set([...seen, what])])
            if (first) yield* Effect.logWarning(text)
          })
        const missing = ProviderKind.literals.filter((kind) => !configured.includes(kind))
        return ProviderGate.of({
          unservedMethods: missing.flatMap(methodsOf),
          warnOnce,
          require: (account, provider) =>
            account.sandbox || configured.includes(provider)
              ? Effect.void
              : warnOnce(
                `refused:${provider}`,
                Effect.succeed(
                  `provider ${provider} is not configured: production accounts are refused with PROVIDER_NOT_CONFIGURED (first: account ${account.id}; logged once per process)`
                )
              ).pipe(Effect.andThen(Effect.fail(new ProviderNotConfigured({
                message: `Nenhum provedor ${provider} configurado para contas de produção`,
                details: { provider }
              }))))
        })
      })
    )

  /** No production provider: production accounts move no money (the state until the providers file names them). */
  static readonly sandboxOnly = ProviderGate.layer([])
}

/** `ProviderGate.require` as an effect of its own. */
export const requireProvider = (account: Account, provider: ProviderKind) =>
  Effect.flatMap(ProviderGate, (gate) => gate.require(account, provider))
