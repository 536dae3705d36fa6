import { Context, type Effect } from "effect"

/** One thing the engine needs before it can serve: ready, or what is wrong. */
export interface ReadinessCheck {
  readonly name: string
  readonly ready: boolean
  /** Why it is not ready; null when it is. Never a secret: the route is public. */
  readonly problem: string | null
}

/**
 * What `GET /readyz` asks before a load balancer sends traffic: the storage
 * answers within a short deadline and its schema is the one this code
 * expects (a process started before a migration another process ran, or
 * after one it cannot run, is not ready).
 */
export class Readiness extends Context.Service<Readiness, {
  readonly checks: Effect.Effect<ReadonlyArray<ReadinessCheck>>
}>()("@billing/core/ports/Readiness") {}
