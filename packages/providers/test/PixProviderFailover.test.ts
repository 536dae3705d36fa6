/**
 * The failover over two fake PSPs, `fake-a` (plain standard) before `fake-b`
 * (Efí, the one that can send Pix): where new charges go when the first is
 * down, slow or refusing, when its circuit skips it and lets a probe through,
 * and that what follows a charge goes to the PSP that holds it. Expected
 * values come from the fakes' books and the calls they received.
 */
import { assert, it } from "@effect/vitest"
import { cents, PixProvider } from "@billing/core"
import { PrometheusMetrics } from "effect/observability"
import { Effect, Layer, Schedule } from "effect"
import { afterAll, afterEach, beforeAll, describe, expect } from "vitest"
import { FAILURES_TO_OPEN } from "../src/failover/Circuit.ts"
import { makePixProviderFailover, PixProviderFromProviders } from "../src/failover/PixProviderFailover.ts"
import { makePixApiClient } from "../src/pix/PixApiClient.ts"
import { PspClients } from "../src/pix/PspClients.ts"
import { Providers } from "../src/Providers.ts"
import { problem } from "./support/FakePspBook.ts"
import { type FakePsp, type Forced, startFakePsp } from "./support/FakePsp.ts"
import { fakePspEntry } from "./support/FakePspEntry.ts"
import { receiver, registration } from "./support/PixRegistrations.ts"
import { makeTestPki, MERCHANT_CNPJ } from "./support/TestCertificates.ts"

const pki = makeTestPki()
/** One retry, so "after the client's retries" is two calls; a second for a timeout, long enough for the fake on a busy machine. */
const CLIENT = { requestTimeout: "1 second", retries: 1, retryBackoff: "5 millis" } as const
/** Long enough to see the first PSP skipped while the second answers on a busy machine; short enough to wait out. */
const COOL_DOWN_MILLIS = 1_500
const ORPHAN_WATCH = { interval: "50 millis", times: 100 } as const

let a: FakePsp
let b: FakePsp
beforeAll(async () => {
  a = await startFakePsp(pki, { profile: "bcb", pixKey: MERCHANT_CNPJ })
  b = await startFakePsp(pki, { profile: "efi", pixKey: MERCHANT_CNPJ })
})
afterAll(async () => {
  await a.close()
  await b.close()
})
afterEach(() => {
  expect([...a.violations.splice(0), ...b.violations.splice(0)]).toEqual([])
  a.takeCalls()
  b.takeCalls()
})

/** A failover with fresh circuits over both fakes, the calls they had before cleared. */
const withFailover = <A, E>(use: (provider: PixProvider["Service"]) => Effect.Effect<A, E>) =>
  Effect.scoped(Effect.gen(function*() {
    const first = yield* makePixApiClient(fakePspEntry(pki, a, { name: "fake-a", profile: "bcb" }), CLIENT)
    const second = yield* makePixApiClient(fakePspEntry(pki, b, { name: "fake-b", profile: "efi" }), CLIENT)
    const provider = yield* makePixProviderFailover([first, second], { coolDownMillis: COOL_DOWN_MILLIS, orphanWatch: ORPHAN_WATCH })
    a.takeCalls()
    b.takeCalls()
    return yield* use(provider)
  }))

const callsAt = (fake: FakePsp) => fake.takeCalls().map((call) => `${call.method} ${call.path}`)
const twice = (forced: Forced) => [forced, forced]
const unavailable: Forced = { kind: "status", status: 503 }
/** Status of every copy of `txid` across both fakes. */
const copies = (txid: string) => [a, b].flatMap((fake) => [...fake.book.cobs.values()].filter((cob) => cob.txid === txid).map((cob) => cob.status))

/** Opens fake-a's circuit: FAILURES_TO_OPEN charges, each answered 503 there after the retry, each taken by fake-b. */
const openFirstCircuit = (provider: PixProvider["Service"]) =>
  Effect.gen(function*() {
    for (let i = 0; i < FAILURES_TO_OPEN; i++) {
      a.force(...twice(unavailable))
      const charge = registration()
      const taken = yield* provider.createCharge(charge)
      assert.deepStrictEqual([taken.psp, callsAt(a), callsAt(b)], ["fake-b", Array(2).fill(`PUT /cob/BLNG${charge.txid}`), [`PUT /cob/BLNG${charge.txid}`]])
      assert.strictEqual(taken.emv, b.book.cobs.get(`BLNG${charge.txid}`)!.pixCopiaECola)
    }
  })

describe("the failover across PSPs", () => {
  it.live("sends charges to the second PSP while the first answers 503, skips the first once its circuit opens, and probes it after the cool-down", () =>
    withFailover((provider) =>
      Effect.gen(function*() {
        yield* openFirstCircuit(provider)
        // The operator sees it: the first PSP's circuit open, the second's closed.
        const opened = yield* PrometheusMetrics.format()
        assert.include(opened, 'billing_psp_circuit_open{psp="fake-a"} 1')
        assert.include(opened, 'billing_psp_circuit_open{psp="fake-b"} 0')

        const skipped = registration()
        assert.strictEqual((yield* provider.createCharge(skipped)).psp, "fake-b")
        assert.deepStrictEqual([callsAt(a), callsAt(b)], [[], [`PUT /cob/BLNG${skipped.txid}`]])

        // The cool-down is a span of time: nothing but waiting it out shows what happens after it.
        yield* Effect.sleep(COOL_DOWN_MILLIS)
        const probe = registration()
        const probed = yield* provider.createCharge(probe)
        assert.deepStrictEqual([probed.psp, callsAt(a), callsAt(b)], ["fake-a", [`PUT /cob/BLNG${probe.txid}`], []])
        assert.strictEqual(probed.emv, a.book.cobs.get(`BLNG${probe.txid}`)!.pixCopiaECola)

        assert.include(yield* PrometheusMetrics.format(), 'billing_psp_circuit_open{psp="fake-a"} 0')
        // Closed again: the next charge goes to the first PSP without a wait.
        const next = registration()
        assert.strictEqual((yield* provider.createCharge(next)).psp, "fake-a")
        assert.deepStrictEqual([callsAt(a), callsAt(b)], [[`PUT /cob/BLNG${next.txid}`], []])
      })
    ), 20_000)

  it.live("keeps a charge at the first PSP when its creation timed out there but the GET finds it", () =>
    withFailover((provider) =>
      Effect.gen(function*() {
        const charge = registration()
        const txid = `BLNG${charge.txid}`
        // Both attempts get no answer; the first one created the cob.
        a.force(...twice({ kind: "timeout" }))
        const taken = yield* provider.createCharge(charge)
        assert.deepStrictEqual([taken.psp, taken.emv], ["fake-a", a.book.cobs.get(txid)!.pixCopiaECola])
        assert.deepStrictEqual([callsAt(a), callsAt(b)], [[`PUT /cob/${txid}`, `PUT /cob/${txid}`, `GET /cob/${txid}`], []])
        assert.deepStrictEqual(copies(txid), ["ATIVA"])
      })
    ))

  it.live("moves a charge whose creation timed out and whose GET failed, and removes the copy the first PSP turns out to hold", () =>
    withFailover((provider) =>
      Effect.gen(function*() {
        const charge = registration()
        const txid = `BLNG${charge.txid}`
        // The first attempt created the cob without answering; the GET that would have found it fails twice.
        a.force(...twice({ kind: "timeout" }), ...twice(unavailable))
        const taken = yield* provider.createCharge(charge)
        assert.deepStrictEqual([taken.psp, taken.emv], ["fake-b", b.book.cobs.get(txid)!.pixCopiaECola])

        yield* untilRemovedAtA(txid)
        assert.deepStrictEqual([a.book.cobs.get(txid)!.status, b.book.cobs.get(txid)!.status], ["REMOVIDA_PELO_USUARIO_RECEBEDOR", "ATIVA"])
        expectWatched(callsAt(a), [`PUT /cob/${txid}`, `PUT /cob/${txid}`, `GET /cob/${txid}`, `GET /cob/${txid}`], txid)
      })
    ))

  it.live("moves a charge the first PSP never got, and removes the copy should the lost request land later", () =>
    withFailover((provider) =>
      Effect.gen(function*() {
        const charge = registration()
        const txid = `BLNG${charge.txid}`
        a.force(...twice({ kind: "drop" }))
        const taken = yield* provider.createCharge(charge)
        assert.deepStrictEqual([taken.psp, copies(txid)], ["fake-b", ["ATIVA"]])

        // The request held up somewhere reaches the first PSP now.
        a.book.createCob("cob", txid, { calendario: { expiracao: 3600 }, valor: { original: "12.34" }, chave: MERCHANT_CNPJ })
        yield* untilRemovedAtA(txid)
        assert.deepStrictEqual([a.book.cobs.get(txid)!.status, b.book.cobs.get(txid)!.status], ["REMOVIDA_PELO_USUARIO_RECEBEDOR", "ATIVA"])
        expectWatched(callsAt(a), [`PUT /cob/${txid}`, `PUT /cob/${txid}`, `GET /cob/${txid}`], txid)
      })
    ))

  it.live("does not move a charge the first PSP refused with a 4xx", () =>
    withFailover((provider) =>
      Effect.gen(function*() {
        const charge = registration()
        a.force({ kind: "problem", answer: problem(400, "CobOperacaoInvalida", "Cobrança inválida.", "A chave não pertence a este usuário recebedor.") })
        const error = yield* Effect.flip(provider.createCharge(charge))
        assert.include(error.message, "fake-a answered 400")
        assert.include(error.message, "CobOperacaoInvalida")
        // The client asks whether a 400 meant "txid already used" (it did not: 404), and nothing goes to the second PSP.
        assert.deepStrictEqual([callsAt(a), callsAt(b)], [[`PUT /cob/BLNG${charge.txid}`, `GET /cob/BLNG${charge.txid}`], []])
      })
    ))

  it.live("names each PSP and why when none takes the charge", () =>
    withFailover((provider) =>
      Effect.gen(function*() {
        a.force(...twice(unavailable))
        b.force(...twice(unavailable))
        const error = yield* Effect.flip(provider.createCharge(registration()))
        assert.include(error.message, "no PSP took the Pix charge")
        assert.include(error.message, "fake-a answered 503")
        assert.include(error.message, "fake-b answered 503")
      })
    ))

  it.live("returns a Pix through the PSP its charge names, even while that PSP's circuit is open; refuses one naming no PSP it knows", () =>
    withFailover((provider) =>
      Effect.gen(function*() {
        yield* openFirstCircuit(provider)
        const endToEndId = a.receive("12.34", new Date(Date.now() - 60_000), "BLNGB0123456789ABCDEF0123456")
        const refund = (psp: string | null) => provider.returnPix({ account: receiver, psp, endToEndId, amount: cents(500), reference: "ref_0001", at: new Date() })

        const paid = yield* refund("fake-a")
        const devolucao = a.book.pix.find((pix) => pix.endToEndId === endToEndId)!.devolucoes[0]!
        assert.deepStrictEqual(paid, { _tag: "Paid", endToEndId: devolucao.rtrId, settledAt: new Date(devolucao.liquidacao!) })
        assert.deepStrictEqual([devolucao.valor, callsAt(a), callsAt(b)], ["5.00", [`PUT /pix/${endToEndId}/devolucao/ref0001`], []])

        assert.include((yield* Effect.flip(refund(null))).message, "its charge records no PSP")
        assert.include((yield* Effect.flip(refund("fake-gone"))).message, "fake-gone is not in the providers file")
        assert.deepStrictEqual([callsAt(a), callsAt(b)], [[], []])
      })
    ))

  it.live("closes a charge past its deadline at the PSP its charge names, even while that PSP's circuit is open; one naming no PSP it knows is closed unasked", () =>
    withFailover((provider) =>
      Effect.gen(function*() {
        const charge = registration()
        assert.strictEqual((yield* provider.createCharge(charge)).psp, "fake-a")
        a.takeCalls()
        yield* openFirstCircuit(provider)
        const close = (psp: string | null) => provider.closeCharge({ receiver, psp, txid: charge.txid, dueDate: null })

        assert.deepStrictEqual(yield* close("fake-a"), { _tag: "Closed" })
        assert.deepStrictEqual([copies(`BLNG${charge.txid}`), callsAt(a), callsAt(b)], [
          ["REMOVIDA_PELO_USUARIO_RECEBEDOR"],
          [`GET /cob/BLNG${charge.txid}`, `PATCH /cob/BLNG${charge.txid}`],
          []
        ])
        assert.deepStrictEqual([yield* close(null), yield* close("fake-gone")], [{ _tag: "Closed" }, { _tag: "Closed" }])
        assert.deepStrictEqual([callsAt(a), callsAt(b)], [[], []])
      })
    ))

  it.live("pays out from the first PSP that can send Pix", () =>
    withFailover((provider) =>
      Effect.gen(function*() {
        b.outcomes.sends.push("REALIZADO")
        const paid = yield* provider.payOut({ account: receiver, reference: "wdr_0001", amount: cents(2500), key: { type: "EMAIL", value: "fornecedor@example.com" }, at: new Date() })
        const sent = b.book.sent.get("wdr0001")!
        assert.deepStrictEqual([paid, sent.valor, sent.chave], [{ _tag: "Paid", endToEndId: sent.e2eId }, "25.00", "fornecedor@example.com"])
        assert.deepStrictEqual(callsAt(a), [])
      })
    ))

  it.live("is the layer over the providers file's list, sharing its clients with the poll", () =>
    Effect.gen(function*() {
      const provider = yield* PixProvider
      const clients = yield* PspClients
      assert.deepStrictEqual(clients.map((api) => api.psp.name), ["fake-a", "fake-b"])
      const charge = registration()
      assert.strictEqual((yield* provider.createCharge(charge)).psp, "fake-a")
      assert.deepStrictEqual([callsAt(a), callsAt(b)], [[`PUT /cob/BLNG${charge.txid}`], []])
    }).pipe(
      Effect.provide(PixProviderFromProviders.pipe(Layer.provide(Layer.succeed(Providers, {
        publicUrl: "https://billing.example.com",
        pix: [fakePspEntry(pki, a, { name: "fake-a", profile: "bcb" }), fakePspEntry(pki, b, { name: "fake-b", profile: "efi" })]
      }))))
    ))

  it.live("lists every PSP's statement as one, ordered by time", () =>
    withFailover((provider) =>
      Effect.gen(function*() {
        const at = (minutes: number) => new Date(Date.UTC(2026, 0, 20, 12, minutes))
        const first = a.receive("1.00", at(10))
        const second = b.receive("2.00", at(5))
        const third = a.receive("3.00", at(1))
        const entries = yield* provider.statement({ account: receiver, from: at(0), to: at(30) })
        assert.deepStrictEqual(entries.map((entry) => [entry.endToEndId, entry.amount, entry.at.getTime()]), [
          [third, 300, at(1).getTime()],
          [second, 200, at(5).getTime()],
          [first, 100, at(10).getTime()]
        ])
      })
    ))
})

/** `calls` began with `before` (the call's own), then the watch's looks (`GET`), the last one followed by the removal. */
const expectWatched = (calls: ReadonlyArray<string>, before: ReadonlyArray<string>, txid: string) => {
  const looks = calls.length - before.length - 1
  assert.isAtLeast(looks, 1)
  assert.deepStrictEqual(calls, [...before, ...Array(looks).fill(`GET /cob/${txid}`), `PATCH /cob/${txid}`])
}

/** Waits, a look every 20 ms for up to 10 s, until fake-a holds `txid` removed. */
const untilRemovedAtA = (txid: string) =>
  Effect.sync(() => a.book.cobs.get(txid)?.status).pipe(
    Effect.repeat({ schedule: Schedule.spaced("20 millis"), until: (status) => status === "REMOVIDA_PELO_USUARIO_RECEBEDOR", times: 500 }),
    Effect.filterOrFail((status) => status === "REMOVIDA_PELO_USUARIO_RECEBEDOR", () => new Error(`fake-a never removed ${txid}`))
  )
