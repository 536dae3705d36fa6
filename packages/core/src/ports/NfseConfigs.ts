import { Context, type Effect, type Option } from "effect"
import type { NfseConfig } from "../domain/NfseConfig.ts"

/**
 * The issuer configurations of fiscal invoices. The storage seals the
 * certificate, its password and the city portal's password at rest; what
 * the port hands back is in clear, redacted.
 */
export class NfseConfigs extends Context.Service<NfseConfigs, {
  readonly insert: (config: NfseConfig) => Effect.Effect<void>
  /** Replaces the configuration's settings and secrets; `false` when it no longer exists. */
  readonly update: (config: NfseConfig) => Effect.Effect<boolean>
  readonly find: (accountId: string, id: string) => Effect.Effect<Option.Option<NfseConfig>>
  /** The account's configurations, oldest first. */
  readonly list: (accountId: string) => Effect.Effect<ReadonlyArray<NfseConfig>>
  /** `false` when there was none. */
  readonly remove: (accountId: string, id: string) => Effect.Effect<boolean>
}>()("@billing/core/ports/NfseConfigs") {}
