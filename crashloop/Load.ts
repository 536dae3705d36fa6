/**
 * A production merchant's integration and its buyers, through real HTTP
 * while the engine's processes are being killed: Pix charges paid at the
 * PSP (its callback delivered once, twice, or lost, for the poll to find),
 * card charges approved or refused at Mercado Pago, partial refunds of
 * either, withdrawals to the merchant's own key, and fiscal notes at the
 * national system: standalone, and those of Pix charges that name the
 * merchant's configuration (emitted by the workers once paid).
 *
 * A request refused at connect (the server is down) was never sent and is
 * tried again; one cut after it was sent (the server died under it) is left
 * as it is, as a merchant who lost the answer would, and counted: whatever
 * it did or did not do, the books must hold. Every answer is either
 * success or a documented refusal; a 500 is recorded as a defect.
 */
import { setTimeout as pause } from "node:timers/promises"
import { cardExpiration } from "../test/support/Cards.ts"
import * as Random from "../sim/Random.ts"
import type { Outside } from "./Outside.ts"

/** The test cards page's Visa; the holder's name decides Mercado Pago's outcome (APRO approves, FUND lacks funds). */
const card = (holder: "APRO" | "FUND") => ({ number: "4235647728025682", cvv: "739", name: holder, expiration: cardExpiration() })
const address = { street: "Rua das Flores", number: "123", neighborhood: "Centro", city: "Florianópolis", state: "SC", zipCode: "88010000" }
const buyer = { name: "Ana Souza", email: "ana@example.com", documentNumber: "52998224725", phone: "+5511987654321", address }

/** Statuses a merchant's integration expects: success, and the documented refusals (402: a card declined; 502/503: a provider out). */
const EXPECTED = new Set([200, 201, 202, 400, 402, 404, 409, 422, 502, 503])

/** Longer than any answer the engine gives (a provider's call is 8 s, once retried): no answer by then is a defect. */
const ANSWER_WITHIN_MILLIS = 30_000

export type OperationKind = "pix" | "card" | "refund" | "withdraw" | "nota"

const WEIGHTS: ReadonlyArray<readonly [OperationKind, number]> = [["pix", 4], ["card", 3], ["refund", 1], ["withdraw", 1], ["nota", 1]]

export interface LoadReport {
  readonly operations: Record<OperationKind, number>
  /** Requests the server died under, their outcome unknown to the merchant. */
  readonly cut: number
  /** Requests refused at connect and sent again once the server was back. */
  readonly resent: number
  /** Pix callbacks the PSP sent (some twice) and those it lost. */
  readonly callbacks: { readonly sent: number; readonly lost: number }
  /** Answers no merchant should get: a 500, an undocumented status. */
  readonly defects: ReadonlyArray<string>
}

/** The report as the lanes fill it in. */
interface Tally {
  operations: Record<OperationKind, number>
  cut: number
  resent: number
  callbacks: { sent: number; lost: number }
  defects: Array<string>
}

interface Merchant {
  readonly baseUrl: string
  readonly token: string
  /** Its own CNPJ, the key its withdrawals go to. */
  readonly document: string
  /** Its note configuration, on the national system. */
  readonly nfConfigId: string
}

const isRefusedAtConnect = (error: unknown) => (error as { cause?: { code?: string } }).cause?.code === "ECONNREFUSED"
/** One load lane's state; several run side by side, each on its own stream of the seed. */
const lane = (merchant: Merchant, outside: Outside, random: Random.Random, report: Tally) => {
  const paid: Array<{ readonly kind: "pix"; readonly endToEndId: string; readonly cents: number } | { readonly kind: "card"; readonly chargeId: string; readonly cents: number }> = []

  /** The request, sent again while the server refuses connections; undefined when it was cut after being sent. */
  const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: any } | undefined> => {
    for (;;) {
      const sentAt = new Date().toISOString().slice(11, 23)
      try {
        const response = await fetch(`${merchant.baseUrl}${path}`, {
          method,
          signal: AbortSignal.timeout(ANSWER_WITHIN_MILLIS),
          headers: { authorization: `Bearer ${merchant.token}`, "content-type": "application/json" },
          ...(body === undefined ? {} : { body: JSON.stringify(body) })
        })
        const text = await response.text()
        if (!EXPECTED.has(response.status)) report.defects.push(`${method} ${path}: HTTP ${response.status} ${text.slice(0, 300)}`)
        return { status: response.status, body: text === "" ? undefined : JSON.parse(text) }
      } catch (error) {
        if ((error as Error).name === "TimeoutError") report.defects.push(`${method} ${path}: no answer in ${ANSWER_WITHIN_MILLIS / 1000} s (sent ${sentAt})`)
        if (!isRefusedAtConnect(error)) {
          report.cut++
          return undefined
        }
        report.resent++
        await pause(100)
      }
    }
  }

  const cents = () => Random.int(random, 100, 50_000)

  /** The PSP posts its callback to the URL `serve` registered with it; it may send it twice, or lose it. */
  const callback = async (endToEndId: string) => {
    const registered = outside.psp.book.webhooks.values().next().value
    const pix = outside.psp.book.pix.find((p) => p.endToEndId === endToEndId)!
    const copies = registered === undefined || Random.chance(random, 0.15) ? 0 : Random.chance(random, 0.15) ? 2 : 1
    if (copies === 0) report.callbacks.lost++
    for (let n = 0; n < copies; n++) {
      report.callbacks.sent++
      await fetch(`${registered}/pix`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ pix: [pix] }) })
        .catch(() => undefined)
    }
  }

  /** A Pix charge; one in four names the note configuration, and its buyer, address and all. */
  const pix = async () => {
    const amount = cents()
    const created = Random.chance(random, 0.25)
      ? await call("POST", "/v1/charges", { paymentMethod: "pix", amount: amount / 100, customer: buyer, nfConfigId: merchant.nfConfigId })
      : await call("POST", "/v1/charges/pix", { amount: amount / 100 })
    if (created?.status !== 200) return
    const detail = await call("GET", `/v1/charges/${created.body.chargeId}?view=detail`)
    const txid: string | undefined = detail?.body?.pix?.txid
    if (txid === undefined || !Random.chance(random, 0.8)) return
    const cob = [...outside.psp.book.cobs.values()].find((c) => c.txid.endsWith(txid))
    if (cob === undefined || cob.status !== "ATIVA") return
    const endToEndId = outside.psp.pay(cob.txid)
    paid.push({ kind: "pix", endToEndId, cents: amount })
    await callback(endToEndId)
  }

  const cardCharge = async () => {
    const amount = cents()
    const answer = await call("POST", "/v1/charges", { paymentMethod: "creditcard", customer: buyer, amount: amount / 100, card: card(Random.chance(random, 0.9) ? "APRO" : "FUND") })
    if (answer?.status === 200) paid.push({ kind: "card", chargeId: answer.body.chargeId, cents: amount })
  }

  const refund = async () => {
    if (paid.length === 0) return
    const charge = Random.pick(random, paid)
    const amount = Random.int(random, 1, Math.max(1, Math.floor(charge.cents / 3))) / 100
    const target = charge.kind === "pix" ? { endToEndId: charge.endToEndId, reason: "CUSTOMER_REQUEST" } : { chargeId: charge.chargeId }
    await call("POST", "/v1/wallet/refunds", { ...target, amount })
  }

  /** Half the PSP's sends are paid out at once, the rest answered "in processing" until it settles them (`Outside.settleSends`). */
  const withdraw = () => {
    if (Random.chance(random, 0.5)) outside.psp.outcomes.sends.push("REALIZADO")
    return call("POST", "/v1/wallet/withdraw", { amount: Random.int(random, 100, 2_000) / 100, pixKey: merchant.document, pixKeyType: "CNPJ" })
  }

  /** A standalone note, issued at once (or, its answer lost to a kill, settled by the workers under the same DPS). */
  const nota = () =>
    call("POST", "/v1/invoices/notas", { customer: { document: buyer.documentNumber, name: buyer.name }, amount: cents() / 100, descricao: "Consultoria", configId: merchant.nfConfigId })

  const run: Record<OperationKind, () => Promise<unknown>> = { pix, card: cardCharge, refund, withdraw, nota }
  return async (until: number) => {
    while (Date.now() < until) {
      const kind = Random.weighted(random, WEIGHTS)
      report.operations[kind]++
      await run[kind]()
    }
  }
}

/** `lanes` merchants' integrations side by side until `until` (epoch millis); what they did and saw. */
export const runLoad = async (options: { readonly merchant: Merchant; readonly outside: Outside; readonly seed: number; readonly lanes: number; readonly until: number }): Promise<LoadReport> => {
  const report: Tally = { operations: { pix: 0, card: 0, refund: 0, withdraw: 0, nota: 0 }, cut: 0, resent: 0, callbacks: { sent: 0, lost: 0 }, defects: [] }
  const lanes = Array.from({ length: options.lanes }, (_, n) => lane(options.merchant, options.outside, Random.stream(options.seed, `load-${n}`), report))
  await Promise.all(lanes.map((run) => run(options.until)))
  return report
}
