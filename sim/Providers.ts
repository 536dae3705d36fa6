/**
 * The sandbox provider layers with the faults their ports can express today:
 * a Pix provider whose `createCharge` times out (its `PixProviderError`)
 * before or after it registered the charge, and an acquirer that answers
 * `AcquirerUnavailable` to an authorization. Everything else is the
 * sandbox's own behaviour, untouched.
 */
import { Acquirer, AcquirerSandbox, AcquirerUnavailable, PixProvider, PixProviderError, PixProviderSandbox } from "@billing/core"
import { Context, Effect, Layer } from "effect"
import { Faults } from "./Faults.ts"

const timedOut = () => new PixProviderError({ message: "simulated: the PSP did not answer in time" })

/** The sandbox PSP, whose charge creation sometimes times out; when it does after registering, the charge exists at the PSP all the same. */
export const PixProviderSim = Layer.effect(
  PixProvider,
  Effect.gen(function*() {
    const inner = Context.get(yield* Layer.build(PixProviderSandbox), PixProvider)
    const faults = yield* Faults
    return PixProvider.of({
      ...inner,
      createCharge: Effect.fn("PixProviderSim.createCharge")(function*(input) {
        if (yield* faults.roll("pixLostBefore")) return yield* timedOut()
        const registered = yield* inner.createCharge(input)
        if (yield* faults.roll("pixLostAfter")) return yield* timedOut()
        return registered
      })
    })
  })
)

/** The sandbox acquirer (the spec's card table), out of reach now and then. */
export const AcquirerSim = Layer.effect(
  Acquirer,
  Effect.gen(function*() {
    const inner = Context.get(yield* Layer.build(AcquirerSandbox), Acquirer)
    const faults = yield* Faults
    return Acquirer.of({
      ...inner,
      authorize: (request) =>
        Effect.flatMap(faults.roll("acquirerDown"), (down) =>
          down ? Effect.fail(new AcquirerUnavailable({ message: "simulated: the acquirer is unreachable" })) : inner.authorize(request))
    })
  })
)
