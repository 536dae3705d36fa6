/**
 * The transaction that wraps a command (DESIGN: one transaction per command).
 * Storage failures are defects: the use cases cannot recover from a lost
 * database, and the HTTP edge answers them with 500.
 */
import { Context, type Effect } from "effect"
/** Runs an effect in one database transaction; nested calls join the outer one. */
export class Transactor extends Context.Service<Transactor, {
  readonly withTransaction: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}>()("@billing/core/ports/Transactor") {}
