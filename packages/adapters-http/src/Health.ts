/**
 * Probes for load balancers and orchestrators, public and without secrets:
 *
 * - `GET /healthz` (liveness): the process answers; nothing else is asked,
 *   so a slow database never gets a live process restarted.
 * - `GET /readyz` (readiness): every `Readiness` check passes (the database
 *   answers within its deadline, the schema is this code's); 503 with the
 *   list of what is not ready otherwise, so traffic goes elsewhere until it is.
 *
 * The providers file needs no check here: a process whose file is wrong
 * does not start.
 */
import { Readiness } from "@billing/core"
import { Effect } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"

const noStore = { "cache-control": "no-store" }

export const HealthLive = HttpRouter.use(Effect.fn("Health.routes")(function*(router) {
  const readiness = yield* Readiness
  yield* router.add("GET", "/healthz", Effect.succeed(HttpServerResponse.jsonUnsafe({ status: "ok" }, { headers: noStore })))
  yield* router.add("GET", "/readyz", Effect.gen(function*() {
    const checks = yield* readiness.checks
    const notReady = checks.filter((check) => !check.ready).map(({ name, problem }) => ({ name, problem }))
    return notReady.length === 0
      ? HttpServerResponse.jsonUnsafe({ status: "ready", checks: checks.map(({ name }) => name) }, { headers: noStore })
      : HttpServerResponse.jsonUnsafe({ status: "not ready", notReady }, { status: 503, headers: noStore })
  }))
}))
