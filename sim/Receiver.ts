/**
 * The merchants' webhook endpoint, in process: the engine's
 * `WebhookTransport` posts to it. It checks each signature with the
 * engine's own `verifyWebhookSignature` (as a merchant's endpoint would),
 * keeps every request it got, and answers 200, except during the outages
 * the seed gives it (HTTP 500, or no answer at all).
 */
import { createHash } from "node:crypto"
import { verifyWebhookSignature, WebhookTransport, type WebhookResponse } from "@billing/core"
import { Clock, Context, Effect, Layer } from "effect"
import { Crash } from "./Crash.ts"
import { Faults } from "./Faults.ts"
import { Receipts } from "./InvariantKit.ts"
import * as Random from "./Random.ts"

/** One request the receiver got. */
export interface Receipt {
  readonly url: string
  /** `x-webhook-event-id`: the same for every copy of one delivery. */
  readonly id: string
  readonly event: string
  /** The MD5 of the body, in hex (`bodyDigest`): a year's million copies kept whole filled the process's heap. */
  readonly bodyMd5: string
  readonly signatureValid: boolean
  /** What the receiver answered: a status, or nothing (the sender's timeout). */
  readonly answer: number | "timeout"
  readonly at: number
}

/** The MD5 of a request's body in hex, as PostgreSQL's `md5(body)` writes it, which the invariants compare it with. */
export const bodyDigest = (body: string) => createHash("md5").update(body, "utf8").digest("hex")

/** Hours of a day in which the receiver fails every request. */
export interface Outage {
  readonly from: number
  readonly until: number
  readonly mode: 500 | "timeout"
}

const HOUR = 3_600_000

export class Receiver extends Context.Service<Receiver, {
  /** Takes the requests to `url`, signed with `secret` (a registration's). */
  readonly listen: (url: string, secret: string) => Effect.Effect<void>
  /** Draws whether the day starting at `dayStart` has an outage, and when. */
  readonly planDay: (dayStart: number) => Effect.Effect<Outage | undefined>
  /** Ends every outage planned: from now on every request is answered 200. */
  readonly heal: Effect.Effect<void>
  readonly post: WebhookTransport["Service"]["post"]
  readonly receipts: () => ReadonlyArray<Receipt>
}>()("sim/Receiver") {
  static readonly layer = Layer.effect(
    Receiver,
    Effect.gen(function*() {
      const [faults, crash] = [yield* Faults, yield* Crash]
      const secrets = new Map<string, string>()
      const receipts: Array<Receipt> = []
      let outages: Array<Outage> = []
      const outageAt = (at: number) => outages.find((o) => o.from <= at && at < o.until)
      const answerOf = (at: number): Receipt["answer"] => outageAt(at)?.mode ?? 200
      return Receiver.of({
        listen: (url, secret) => Effect.sync(() => void secrets.set(url, secret)),
        planDay: Effect.fn("Receiver.planDay")(function*(dayStart: number) {
          if (!(yield* faults.roll("receiverOutage"))) return undefined
          const from = dayStart + Random.int(faults.random, 0, 20) * HOUR
          const outage: Outage = { from, until: from + Random.int(faults.random, 1, 6) * HOUR, mode: Random.chance(faults.random, 0.5) ? 500 : "timeout" }
          outages.push(outage)
          return outage
        }),
        heal: Effect.sync(() => void (outages = [])),
        post: Effect.fn("Receiver.post")(function*(request) {
          yield* crash.point("webhook post")
          const at = yield* Clock.currentTimeMillis
          const secret = secrets.get(request.url)
          const verified = secret === undefined ? undefined : yield* Effect.promise(() =>
            verifyWebhookSignature({ header: request.headers["x-webhook-signature"], body: request.body, secret, nowMillis: at })
          )
          const answer = answerOf(at)
          receipts.push({
            url: request.url,
            id: request.headers["x-webhook-event-id"] ?? "",
            event: request.headers["x-webhook-event"] ?? "",
            bodyMd5: bodyDigest(request.body),
            signatureValid: verified?.valid === true,
            answer,
            at
          })
          // Delivered, and the process dies before it records so: the next attempt sends the same delivery again.
          yield* crash.point("webhook posted")
          return answer === "timeout"
            ? { _tag: "NoAnswer", reason: "simulated: the receiver did not answer in time" } satisfies WebhookResponse
            : { _tag: "Answered", status: answer, body: answer === 200 ? "ok" : "simulated outage" } satisfies WebhookResponse
        }),
        receipts: () => receipts
      })
    })
  )

  /** What it got, as the invariants read it. */
  static readonly receipts = Layer.effect(Receipts, Receiver.useSync((receiver) => Receipts.of({ all: receiver.receipts })))

  /** The engine's webhook transport, posting to this receiver. */
  static readonly transport = Layer.effect(WebhookTransport, Receiver.useSync((receiver) => WebhookTransport.of({ post: receiver.post })))
}
