/**
 * The production accounts' city: the sandbox city's rules decide each note
 * (`sandboxCity`: authorized under its DPS number, refused by `[recusar]` or
 * a DPS the national layout refuses), and the city keeps its own books of
 * every DPS it took, by issuer, series and number, outside the engine, as
 * the national system keys a DPS by its id: sent again, a DPS is answered
 * what became of the first; asked about one it never got, the city says
 * `NotReceived`.
 *
 * The seed's faults: an answer lost before the city took the DPS (it has
 * nothing) or after (it has it; the engine learns it by asking), and a city
 * that takes a DPS and decides hours later (`Processing` until then). A
 * DPS number the city gets twice for two different notes is recorded as a
 * violation: the engine promised never to reuse one.
 */
import { type NfseConfig, NfseProvider, NfseProviderError, type NotaOutcome, type NotaToIssue, sandboxCity } from "@billing/core"
import { Clock, Context, Effect, Layer, Option } from "effect"
import { Crash } from "./Crash.ts"
import { Faults } from "./Faults.ts"
import * as Random from "./Random.ts"

const HOUR = 3_600_000

/** One DPS the city took. */
export interface CityDps {
  readonly key: string
  readonly notaId: string
  readonly amount: number
  readonly descricao: string
  decideAt: number
  decided: Exclude<NotaOutcome, { readonly _tag: "Processing" | "NotReceived" }> | undefined
  canceledAt: number | undefined
}

/** A DPS's id at the city: its issuer, series and number. */
export const dpsKey = (config: NfseConfig, nota: Pick<NotaToIssue, "serie" | "dpsNumber">) =>
  `${config.settings.prestador.cnpj ?? config.certificate.cnpj}/${nota.serie}/${nota.dpsNumber}`

const lost = (when: string) => new NfseProviderError({ message: `simulated: the city's answer was lost ${when} it took the DPS` })

export class CityBook extends Context.Service<CityBook, {
  readonly dps: ReadonlyMap<string, CityDps>
  /** DPS numbers the city got for two different notes. */
  readonly violations: ReadonlyArray<string>
  /** The city of production accounts over these books. */
  readonly city: NfseProvider["Service"]
  /** Ends every wait: the city decides what it holds as soon as it is asked (the end of a run). */
  readonly heal: Effect.Effect<void>
}>()("sim/CityBook") {
  static readonly layer = Layer.effect(
    CityBook,
    Effect.gen(function*() {
      const [faults, crash] = [yield* Faults, yield* Crash]
      const dps = new Map<string, CityDps>()
      const violations: Array<string> = []
      const take = Effect.fnUntraced(function*(config: NfseConfig, nota: NotaToIssue) {
        const key = dpsKey(config, nota)
        const held = dps.get(key)
        if (held !== undefined && (held.notaId !== nota.notaId || held.amount !== nota.amount || held.descricao !== nota.descricao)) {
          violations.push(`DPS ${key} sent for note ${nota.notaId} (${nota.amount}, ${nota.descricao}) was note ${held.notaId}'s (${held.amount}, ${held.descricao})`)
        }
        if (held !== undefined) return
        const late = yield* faults.roll("cityLate")
        const decideAt = (yield* Clock.currentTimeMillis) + (late ? Random.int(faults.random, 1, 48) * HOUR : 0)
        dps.set(key, { key, notaId: nota.notaId, amount: nota.amount, descricao: nota.descricao, decideAt, decided: undefined, canceledAt: undefined })
      })
      const outcome: NfseProvider["Service"]["outcome"] = (config, nota) =>
        Effect.gen(function*() {
          yield* crash.point("city outcome")
          const held = dps.get(dpsKey(config, nota))
          if (held === undefined) return { _tag: "NotReceived" } satisfies NotaOutcome
          if ((yield* Clock.currentTimeMillis) < held.decideAt) return { _tag: "Processing" } satisfies NotaOutcome
          if (held.decided === undefined) {
            const decided = yield* sandboxCity.outcome(config, nota)
            if (decided._tag === "Authorized" || decided._tag === "Refused") held.decided = decided
          }
          return held.decided ?? { _tag: "Processing" }
        })
      const city: NfseProvider["Service"] = {
        issue: (config, nota) =>
          Effect.gen(function*() {
            yield* crash.point("city issue")
            const fault = (yield* faults.roll("cityLost")) ? Random.pick(faults.random, ["before", "after"] as const) : undefined
            if (fault === "before") return yield* lost("before")
            yield* take(config, nota)
            yield* crash.point("city took")
            if (fault === "after") return yield* lost("after")
            return { dps: (yield* sandboxCity.issue(config, nota)).dps, outcome: { _tag: "Processing" } }
          }),
        outcome,
        cancel: (config, nota) =>
          Effect.gen(function*() {
            yield* crash.point("city cancel")
            const held = dps.get(dpsKey(config, nota))
            if (held?.decided?._tag !== "Authorized") return { _tag: "Refused", errors: [{ code: "E1235", message: "simulated: no authorized note under this DPS" }] } as const
            const at = yield* Clock.currentTimeMillis
            held.canceledAt ??= at
            return { _tag: "Canceled", at: new Date(held.canceledAt) } as const
          }),
        pdf: sandboxCity.pdf,
        cityStandard: () => Effect.succeed(Option.none())
      }
      return CityBook.of({
        dps,
        violations,
        city,
        heal: Effect.sync(() => {
          for (const held of dps.values()) if (held.decided === undefined) held.decideAt = 0
        })
      })
    })
  )
}

/** Sandbox accounts on the sandbox city, production accounts on the simulated one. */
export const cityProvider = (book: CityBook["Service"]) => NfseProvider.byEnvironment(sandboxCity, book.city)
