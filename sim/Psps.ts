/**
 * The production PSPs of a run, outside the engine: two simulated PSPs in
 * the providers file's order (`psp-a` on the plain standard, `psp-b` on
 * Efí's profile), their books (`Psp.ts`), the hours each is down, and how
 * far their Pix were seen by a poll that reached them all. The engine talks
 * to them through `PspClient.ts`; the buyers pay at them directly.
 */
import { Certificates, type PixKey } from "@billing/core"
import type { PixPsp, PspProfileName } from "@billing/providers"
import { Context, Effect, Layer, Redacted, Result } from "effect"
import type { IssuerCertificate } from "./Certificates.ts"
import { Faults } from "./Faults.ts"
import { makePsp, type SimPsp } from "./Psp.ts"
import * as Random from "./Random.ts"

const HOUR = 3_600_000

/** An hour in which a PSP answers no call. */
export interface PspOutage {
  readonly psp: string
  readonly from: number
  readonly until: number
}

/** The providers file's entry of a simulated PSP (its URLs name nothing real: no request ever leaves the process). */
const entryOf = (name: string, profile: PspProfileName, key: PixKey, certificate: IssuerCertificate): PixPsp => ({
  name,
  profile,
  baseUrl: `https://${name}.sim.test/v2`,
  tokenUrl: `https://${name}.sim.test/oauth/token`,
  clientId: `${name}-client`,
  clientSecret: Redacted.make(`${name}-secret`),
  pixKey: key,
  certificate: Result.getOrThrow(Certificates.fromPem(certificate.certPem, certificate.keyPem)),
  ca: undefined,
  scopes: [],
  appKey: undefined
})

export class Psps extends Context.Service<Psps, {
  readonly books: ReadonlyArray<SimPsp>
  /** The providers file's entries, in the same order as `books`. */
  readonly entries: ReadonlyArray<PixPsp>
  /** Draws whether one of the PSPs is down for an hour of the day starting at `dayStart`. */
  readonly planDay: (dayStart: number) => Effect.Effect<PspOutage | undefined>
  readonly isDown: (psp: string, at: number) => boolean
  /** Ends every outage planned. */
  readonly heal: Effect.Effect<void>
  /** The instant up to which a poll that reached every PSP has seen their Pix (the run's start before any). */
  readonly polledUntil: () => number
  readonly setPolledUntil: (at: number) => void
}>()("sim/Psps") {
  /** Two PSPs receiving on the operator's CNPJ key, with `certificate` for their mutual TLS. */
  static readonly layer = (certificate: IssuerCertificate, start: number) =>
    Layer.effect(
      Psps,
      Effect.gen(function*() {
        const faults = yield* Faults
        const key: PixKey = { type: "CNPJ", value: certificate.cnpj }
        const books = [makePsp("psp-a", "A", "11111111"), makePsp("psp-b", "B", "09089356")]
        const entries = [entryOf("psp-a", "bcb", key, certificate), entryOf("psp-b", "efi", key, certificate)]
        let outages: Array<PspOutage> = []
        let polledUntil = start
        return Psps.of({
          books,
          entries,
          planDay: Effect.fn("Psps.planDay")(function*(dayStart: number) {
            if (!(yield* faults.roll("pspDown"))) return undefined
            const from = dayStart + Random.int(faults.random, 6, 22) * HOUR
            const outage: PspOutage = { psp: Random.pick(faults.random, books).name, from, until: from + HOUR }
            outages.push(outage)
            return outage
          }),
          isDown: (psp, at) => outages.some((o) => o.psp === psp && o.from <= at && at < o.until),
          heal: Effect.sync(() => void (outages = [])),
          polledUntil: () => polledUntil,
          setPolledUntil: (at) => void (polledUntil = at)
        })
      })
    )
}
