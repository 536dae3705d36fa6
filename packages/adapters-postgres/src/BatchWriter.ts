/**
 * Group commit for single-row writes that are each their own transaction.
 * Callers queue their row; `writers` fibers each take everything queued (up
 * to `maxBatch`) and write it with one statement, so under load N rows cost
 * one round trip and one commit (one WAL flush) instead of N, and when the
 * load is light a row goes out alone at once. A caller resumes only when its
 * own row is committed.
 *
 * A batch that fails is written again row by row, so one bad row fails only
 * its own caller. No row can stop a writer: a write that throws while its
 * statement is built (say `JSON.stringify` overflowing the stack on a value
 * nested thousands deep) fails like any other, and a write that takes longer
 * than `deadline` is abandoned and fails its callers, so the writer goes on
 * with the next batch. Rows written inside a transaction must not come here:
 * the batch commits on its own connection, not with the caller's transaction.
 */
import { Cause, Deferred, Duration, Effect, Exit, Queue } from "effect"

interface Pending<A> {
  readonly row: A
  readonly done: Deferred.Deferred<void>
}

export const makeBatchWriter = Effect.fnUntraced(function*<A>(options: {
  /** Writes one or more rows with one statement. */
  readonly writeMany: (rows: ReadonlyArray<A>) => Effect.Effect<void>
  readonly writeOne: (row: A) => Effect.Effect<void>
  readonly writers: number
  readonly maxBatch: number
  /** How long one statement may take before its callers are failed (default 10 s). */
  readonly deadline?: Duration.Input
}) {
  const deadline = options.deadline ?? Duration.seconds(10)
  const overdue = () => new Error(`write took longer than ${Duration.format(Duration.fromInputUnsafe(deadline))}`)
  // Built inside the effect, so a throw while building the statement is a
  // failure of this write, not of the writer; bounded by the deadline.
  const attempt = (write: Effect.Effect<void>) =>
    Effect.exit(Effect.suspend(() => write).pipe(Effect.timeoutOrElse({ duration: deadline, orElse: () => Effect.die(overdue()) })))
  const queue = yield* Queue.unbounded<Pending<A>>()
  const complete = (batch: ReadonlyArray<Pending<A>>, exit: Exit.Exit<void>) =>
    Effect.sync(() => batch.forEach((p) => Deferred.doneUnsafe(p.done, exit)))
  const writeBatch = (batch: ReadonlyArray<Pending<A>>) =>
    attempt(Effect.suspend(() => options.writeMany(batch.map((p) => p.row)))).pipe(
      Effect.flatMap((exit) =>
        Exit.isSuccess(exit) || batch.length === 1
          ? complete(batch, exit)
          : Effect.forEach(batch, (p) => Effect.flatMap(attempt(Effect.suspend(() => options.writeOne(p.row))), (one) => complete([p], one)), {
            discard: true
          })
      )
    )
  const shuttingDown = Exit.failCause(Cause.die(new Error("storage is shutting down")))
  // A batch taken off the queue is failed if its writer is interrupted (the
  // layer closing), so that its callers do not wait forever.
  const writer = Effect.forever(Effect.uninterruptibleMask((restore) =>
    Effect.flatMap(
      restore(Queue.takeBetween(queue, 1, options.maxBatch)),
      (batch) => Effect.onInterrupt(restore(writeBatch(batch)), () => complete(batch, shuttingDown))
    )
  ))
  // The writers live as long as the layer; rows still queued at shutdown are failed, not lost silently.
  yield* Effect.addFinalizer(() => Effect.flatMap(Queue.clear(queue), (left) => complete(left, shuttingDown)))
  for (let i = 0; i < options.writers; i++) yield* Effect.forkScoped(writer)

  return (row: A): Effect.Effect<void> =>
    Effect.suspend(() => {
      const done = Deferred.makeUnsafe<void>()
      Queue.offerUnsafe(queue, { row, done })
      return Deferred.await(done)
    })
})
