import { Context, type Effect, type Option } from "effect"
import type { NfseConfig } from "../domain/NfseConfig.ts"
import type { AccountId, NfseConfigId } from "../domain/Ids.ts"

/**
 * The issuer configurations of fiscal invoices. The storage seals the
 * certificate, its password and the city portal's password at rest; what
 * the port hands back is in clear, redacted.
 */
export class NfseConfigs extends Context.Service<NfseConfigs, {
  readonly insert: (config: NfseConfig) => Effect.Effect<void>
  /** Replaces the configuration's settings and secrets; `false` when it no longer exists. */
  readonly update: (config: NfseConfig) => Effect.Effect<boolean>
  /** A configuration in use (not removed): what the routes and every new note see. */
  readonly find: (accountId: AccountId, id: NfseConfigId) => Effect.Effect<Option.Option<NfseConfig>>
  /** A configuration, removed ones too: what the notes issued under it still need (cancel, PDF, the city's answer). */
  readonly findForNotes: (accountId: AccountId, id: NfseConfigId) => Effect.Effect<Option.Option<NfseConfig>>
  /** The account's configurations, oldest first. */
  readonly list: (accountId: AccountId) => Effect.Effect<ReadonlyArray<NfseConfig>>
  /** Marks the configuration removed at `at` (its notes keep it); `false` when there was none in use. */
  readonly remove: (accountId: AccountId, id: NfseConfigId, at: Date) => Effect.Effect<boolean>
}>()("@billing/core/ports/NfseConfigs") {}
