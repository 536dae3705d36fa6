/**
 * The engine's client of a simulated PSP: the `PixApiClient` the failover,
 * the refunds and the reconciliation poll use, answering from the PSP's
 * books in memory instead of over mutual TLS. The faults of the seed are
 * the PSP's: down for its outage's hour (a refused connection: the
 * failover moves on), a new charge's answer lost before or after the PSP
 * registered it (a timeout: the failover looks before it moves), the look
 * after it failing too, and a payer so quick that the PSP calls back before
 * its answer to the creation has reached the engine. Repeated creations
 * go through the engine's own `createOrFind`, as over HTTP.
 */
import type { CobAnswer, CobBody, CobvBody, PixApiClient, PixPsp } from "@billing/providers"
import { PspProblem, PspUnreachable } from "@billing/providers"
import { createOrFind, sameCharge } from "@billing/providers/pix/PixApiClient"
import { Clock, Effect, Redacted } from "effect"
import { Crash } from "./Crash.ts"
import { Faults } from "./Faults.ts"
import type { SimPix, SimPsp } from "./Psp.ts"
import { Psps } from "./Psps.ts"

/** What the PSP does with a Pix it received before its answer to the charge's creation left: calls the engine back. */
export type EarlyCallback = (pix: SimPix) => Effect.Effect<void>

/** The payer's bank of a Pix paid at once (any ISPB but the PSPs'). */
export const QUICK_PAYER_BANK = "60701190"

const answered = <A>(answer: A | PspProblem): Effect.Effect<A, PspProblem> =>
  answer instanceof PspProblem ? Effect.fail(answer) : Effect.succeed(answer)

const refused = (psp: string) => new PspUnreachable({ psp, outcomeUnknown: false, message: `${psp}: connection refused (simulated outage)` })
const timedOut = (psp: string) => new PspUnreachable({ psp, outcomeUnknown: true, message: `${psp} did not answer in time (simulated)` })

/** The client of `book`, whose providers file entry is `entry`. */
export const makePspClient = Effect.fn("PspClient.make")(function*(book: SimPsp, entry: PixPsp, early: EarlyCallback) {
  const [faults, crash, psps] = [yield* Faults, yield* Crash, yield* Psps]
  const name = book.name
  /** Txids whose next look fails: a timeout on the creation, and no answer to the look either. */
  const blind = new Set<string>()
  const call = <A, E>(route: string, op: (now: number) => Effect.Effect<A, E>) =>
    Effect.gen(function*() {
      yield* crash.point(`${name} ${route}`)
      const now = yield* Clock.currentTimeMillis
      if (psps.isDown(name, now)) return yield* refused(name)
      return yield* op(now)
    })

  /** A new charge at the PSP, with the seed's faults around it. */
  const create = (kind: "cob" | "cobv", txid: string, body: CobBody | CobvBody) =>
    call(`PUT /${kind}`, (now) =>
      Effect.gen(function*() {
        if (yield* faults.roll("pspLostBefore")) {
          if (yield* faults.roll("pspLookupFails")) blind.add(txid)
          return yield* timedOut(name)
        }
        const registered = yield* answered(book.createCob(kind, txid, body, now))
        yield* crash.point(`${name} registered ${txid}`)
        if (yield* faults.roll("callbackEarly")) {
          // One buyer pays once: not a second copy the failover made at another PSP after this one's answer was lost.
          const paidElsewhere = psps.books.some((other) => other.pix.some((pix) => pix.txid === txid))
          const paid = paidElsewhere ? undefined : book.pay(txid, QUICK_PAYER_BANK, now)
          if (paid !== undefined) yield* early(paid)
        }
        if (yield* faults.roll("pspLostAfter")) {
          if (yield* faults.roll("pspLookupFails")) blind.add(txid)
          return yield* timedOut(name)
        }
        return registered
      }))
  const get = (kind: "cob" | "cobv", txid: string) =>
    call(`GET /${kind}`, (): Effect.Effect<CobAnswer, PspProblem | PspUnreachable> => (blind.delete(txid) ? Effect.fail(timedOut(name)) : answered(book.getCob(kind, txid))))
  const getDevolucao = (endToEndId: string, id: string) => call("GET devolucao", () => answered(book.getDevolucao(endToEndId, id)))

  return {
    psp: entry,
    http: {
      psp: entry,
      tokens: {
        token: Effect.succeed({ value: Redacted.make("sim"), expiresInSeconds: 3600, expiresAtMs: Number.MAX_SAFE_INTEGER }),
        withToken: (use) => use(Redacted.make("sim"))
      },
      // Efí's payout route and anything else off the standard's charges: not simulated, nothing in the workload sends Pix out.
      send: (request) => Effect.fail(new PspProblem({ psp: name, status: 501, type: "about:blank", title: "Not simulated", detail: null, correlationId: null, violacoes: [], message: `${name}: ${request.method} /${request.path.join("/")} is not simulated` }))
    },
    createCob: (txid, body) => createOrFind(create("cob", txid, body), get("cob", txid), sameCharge(body)),
    createCobv: (txid, body) => createOrFind(create("cobv", txid, body), get("cobv", txid), sameCharge(body)),
    getCob: (txid) => get("cob", txid),
    getCobv: (txid) => get("cobv", txid),
    removeCob: (txid) => call("PATCH /cob", () => answered(book.removeCob("cob", txid))),
    removeCobv: (txid) => call("PATCH /cobv", () => answered(book.removeCob("cobv", txid))),
    requestDevolucao: (endToEndId, id, valor) =>
      createOrFind(
        call("PUT devolucao", (now) => Effect.tap(answered(book.requestDevolucao(endToEndId, id, valor, now)), () => crash.point(`${name} returned ${id}`))),
        getDevolucao(endToEndId, id),
        (found) => found.valor === valor
      ),
    getDevolucao,
    receivedPix: (inicio, fim) => call("GET /pix", () => Effect.succeed(book.listPix(inicio.getTime(), fim.getTime()))),
    registerWebhook: () => Effect.void
  } satisfies PixApiClient
})
