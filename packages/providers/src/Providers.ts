/**
 * The loaded providers configuration as a service, for the production
 * provider layers to read. Built from the providers file
 * (`BILLING_PROVIDERS_FILE`) or from the same contract given as a value.
 */
import { Context, Layer } from "effect"
import { loadProvidersFile, resolveProviders } from "./config/LoadProviders.ts"
import type { ProvidersConfig } from "./config/ProvidersConfig.ts"
import type { ProvidersFileInput } from "./config/ProvidersFile.ts"

export class Providers extends Context.Service<Providers, ProvidersConfig>()("@billing/providers/Providers") {
  /**
   * From a value in the providers file's shape; relative paths start at
   * `baseDir` (default: the working directory). Fails with
   * `ProvidersFileInvalid` naming the first problem.
   */
  static readonly layer = (input: ProvidersFileInput, options: { readonly baseDir?: string | undefined } = {}) =>
    Layer.effect(Providers, resolveProviders(input, options))

  /** From the providers file at `file`; relative paths start at its folder. */
  static readonly layerFile = (file: string) => Layer.effect(Providers, loadProvidersFile(file))

  /** No providers file: the sandbox alone (no PSP to call, none whose callbacks to take). */
  static readonly none = Layer.succeed(Providers, { publicUrl: "", pix: [] })
}
