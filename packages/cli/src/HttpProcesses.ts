/**
 * `billing serve --processes N`: N processes serving HTTP on one port
 * (`node:cluster`, connections dealt round robin by the primary), so the
 * server uses more than one core. A Node process runs its JavaScript on one
 * core; charge creation is CPU-bound in the server (JSON, QR PNG, the Effect
 * runtime), so one process leaves the other cores to the database only.
 *
 * The primary does what must happen once (migrations, the sandbox account,
 * the scheduler loops) and forks the HTTP processes; a process that dies is
 * replaced. Only with a PostgreSQL server: embedded PGlite lives inside one
 * process.
 */
import { Effect } from "effect"
import cluster, { type Worker } from "node:cluster"

/** Set in the environment of the forked HTTP processes. */
export const HTTP_PROCESS_ENV = "BILLING_HTTP_PROCESS"

export const isHttpProcess = () => cluster.isWorker && process.env[HTTP_PROCESS_ENV] === "1"

/**
 * Forks `count` HTTP processes running this same command, and waits until all
 * listen; returns their port. They are stopped when the scope closes.
 */
export const forkHttpProcesses = (count: number) =>
  Effect.acquireRelease(
    Effect.callback<{ readonly port: number; readonly workers: Set<Worker>; readonly stop: () => void }>((resume) => {
      const workers = new Set<Worker>()
      let listening = 0
      let stopping = false
      // Ctrl-C signals the whole process group: the HTTP processes then exit
      // on their own, and must not be replaced while this one stops too.
      const stop = () => {
        stopping = true
      }
      process.once("SIGINT", stop)
      process.once("SIGTERM", stop)
      const fork = () => {
        const worker = cluster.fork({ [HTTP_PROCESS_ENV]: "1" })
        workers.add(worker)
        worker.on("exit", (code, signal) => {
          workers.delete(worker)
          if (stopping) return
          process.stderr.write(`billing: HTTP process ${worker.process.pid} exited (${signal ?? code}); starting another\n`)
          fork()
        })
      }
      const onListening = (_worker: Worker, address: { port: number }) => {
        if (++listening < count) return
        cluster.off("listening", onListening)
        resume(Effect.succeed({ port: address.port, workers, stop }))
      }
      cluster.on("listening", onListening)
      for (let i = 0; i < count; i++) fork()
      return Effect.sync(() => {
        stop()
        cluster.off("listening", onListening)
        for (const worker of workers) worker.kill()
      })
    }),
    ({ stop, workers }) =>
      Effect.promise(() => {
        stop()
        return Promise.all([...workers].map((worker) =>
          new Promise<void>((resolve) => {
            if (worker.isDead()) return resolve()
            worker.removeAllListeners("exit")
            worker.once("exit", () => resolve())
            worker.kill("SIGTERM")
          })
        ))
      })
  )
