/**
 * The provider ports of one engine process, as the composition root wires
 * them for an installation with production providers: sandbox accounts on
 * the sandbox layers (their Pix provider timing out before or after it
 * registered a charge, their acquirer out of reach now and then), production
 * accounts on the simulated world's PSPs behind the engine's own failover
 * (`makePixProviderFailover`, with `PspClients` shared by the reconciliation
 * poll), on the simulated acquirer and on the simulated city. Each process
 * builds its own (circuits, orphan watches and caches die with it); the
 * books they talk to are the world's (`Psps`, `CardBook`, `CityBook`).
 */
import {
  Acquirer,
  AcquirerSandbox,
  AcquirerUnavailable,
  BoletoIssuerSandbox,
  KycSandbox,
  MailerSandbox,
  NfseProvider,
  PixProvider,
  PixProviderError,
  PixProviderSandbox,
  ProviderGate
} from "@billing/core"
import { makePixProviderFailover, PspClients } from "@billing/providers"
import { Context, Effect, Layer } from "effect"
import { CardBook } from "./CardAcquirer.ts"
import { cityProvider, CityBook } from "./City.ts"
import { Crash } from "./Crash.ts"
import { Faults } from "./Faults.ts"
import { type EarlyCallback, makePspClient } from "./PspClient.ts"
import { Psps } from "./Psps.ts"
import { Receiver } from "./Receiver.ts"

const timedOut = () => new PixProviderError({ message: "simulated: the PSP did not answer in time" })

/** The sandbox PSP, whose charge creation sometimes times out; when it does after registering, the charge exists at the PSP all the same. */
const sandboxPix = Effect.gen(function*() {
  const inner = Context.get(yield* Layer.build(PixProviderSandbox), PixProvider)
  const [faults, crash] = [yield* Faults, yield* Crash]
  return PixProvider.of({
    ...inner,
    createCharge: Effect.fn("PixProviderSim.createCharge")(function*(input) {
      yield* crash.point("sandbox PSP")
      if (yield* faults.roll("pixLostBefore")) return yield* timedOut()
      const registered = yield* inner.createCharge(input)
      if (yield* faults.roll("pixLostAfter")) return yield* timedOut()
      return registered
    })
  })
})

/** The simulated PSPs' clients, one per entry, in order. */
const pspClients = (early: EarlyCallback) =>
  Layer.effect(
    PspClients,
    Effect.gen(function*() {
      const psps = yield* Psps
      return yield* Effect.forEach(psps.books, (book, i) => makePspClient(book, psps.entries[i]!, early))
    })
  )

/** Sandbox accounts on the sandbox PSP, production accounts on the PSPs in order, failing over. */
const pixProvider = Layer.effect(
  PixProvider,
  Effect.gen(function*() {
    return PixProvider.byEnvironment(yield* sandboxPix, yield* makePixProviderFailover(yield* PspClients))
  })
)

/** The spec's card table for sandbox accounts (out of reach now and then), the simulated acquirer for production ones. */
const acquirer = Layer.effect(
  Acquirer,
  Effect.gen(function*() {
    const inner = Context.get(yield* Layer.build(AcquirerSandbox), Acquirer)
    const [faults, crash, book] = [yield* Faults, yield* Crash, yield* CardBook]
    const sandbox = Acquirer.of({
      ...inner,
      authorize: (request) =>
        Effect.andThen(crash.point("sandbox acquirer"), faults.roll("acquirerDown")).pipe(Effect.flatMap((down) =>
          down ? Effect.fail(new AcquirerUnavailable({ message: "simulated: the acquirer is unreachable" })) : inner.authorize(request)
        ))
    })
    return Acquirer.byEnvironment(sandbox, book.acquirer)
  })
)

const city = Layer.effect(
  NfseProvider,
  Effect.gen(function*() {
    return cityProvider(yield* CityBook)
  })
)

/** Every provider port of one process; `early` is how a PSP calls this process back before its answer reached it. */
export const ProvidersSim = (early: EarlyCallback) =>
  Layer.mergeAll(
    pixProvider.pipe(Layer.provideMerge(pspClients(early))),
    acquirer,
    city,
    Receiver.transport,
    BoletoIssuerSandbox,
    MailerSandbox,
    KycSandbox,
    // Production accounts take Pix, cards and notes; boletos have no simulated bank yet, and are refused.
    ProviderGate.layer(["pix", "card", "nfse"])
  )
