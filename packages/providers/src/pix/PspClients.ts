/**
 * One BCB API Pix client per PSP of the providers file, in the file's order,
 * as a service: the failover and the reconciliation poll share them, so one
 * process keeps one mutual TLS agent and one cached token per PSP.
 */
import { Context, Effect, Layer } from "effect"
import { Providers } from "../Providers.ts"
import { makePixApiClient, type PixApiClient } from "./PixApiClient.ts"
import type { PspHttpOptions } from "./PspHttp.ts"

export class PspClients extends Context.Service<PspClients, ReadonlyArray<PixApiClient>>()("@billing/providers/PspClients") {
  /** A client per entry of the loaded `pix` list; their connections close with the layer. */
  static readonly layerWith = (options: PspHttpOptions = {}) =>
    Layer.effect(
      PspClients,
      Effect.gen(function*() {
        const config = yield* Providers
        return yield* Effect.forEach(config.pix, (psp) => makePixApiClient(psp, options))
      })
    )

  static readonly layer = PspClients.layerWith()
}
