/**
 * The embedded database as a developer uses it: `billing serve` on a PGlite
 * data folder, and the other commands run next to it on the same folder.
 * Real processes; the folder's indexes are checked with `amcheck` at the end.
 */
import { PGlite } from "@electric-sql/pglite"
import { amcheck } from "@electric-sql/pglite/contrib/amcheck"
import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { type Running, runBilling, startBilling } from "./support/Cli.ts"

const root = mkdtempSync(join(tmpdir(), "billing-cli-pglite-"))
const dataDir = join(root, "data")
const env = {
  DATABASE_URL: "",
  BILLING_DATA_DIR: dataDir,
  BILLING_SANDBOX_CLIENT_ID: "sandbox-pglite-cli",
  BILLING_SANDBOX_CLIENT_SECRET: "sandbox-pglite-secret"
}
const running: Array<Running> = []

const serve = async () => {
  const server = startBilling(["serve", "--port", "0"], env)
  running.push(server)
  const [, base] = await server.waitFor(/billing engine listening on (\S+)/, 60_000)
  return { server, base: base! }
}

const token = (base: string, clientId: string, clientSecret: string) =>
  fetch(`${base}/auth/token`, {
    method: "POST",
    body: new URLSearchParams({ grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret })
  })

/** A pid no process has any more. */
const deadPid = () => spawnSync(process.execPath, ["-e", ""]).pid!

describe("billing CLI on an embedded PGlite data folder", () => {
  afterAll(async () => {
    await Promise.all(running.map((server) => server.stop()))
    rmSync(root, { recursive: true, force: true })
  })

  it("serve holds the folder; accounts create, migrate and worker go through it; a second serve refuses; the data survives a restart intact", async () => {
    // First start: progress lines, and the sandbox credentials work on the very first request.
    const first = await serve()
    const sandbox = await token(first.base, env.BILLING_SANDBOX_CLIENT_ID, env.BILLING_SANDBOX_CLIENT_SECRET)
    expect(sandbox.status).toBe(200)
    expect(first.server.stderr()).toContain(`creating the embedded database in ${dataDir} (first start)`)
    expect(first.server.stderr()).toContain("applying migration 1_foundation")
    const lock = JSON.parse(readFileSync(join(dataDir, "billing.lock"), "utf8"))
    expect(lock).toMatchObject({ pid: first.server.child.pid, holder: "billing serve" })
    expect(lock.socket).toBe(join(dataDir, ".s.PGSQL.5432"))

    // Another command on the same folder works through the running server.
    const created = await runBilling(["accounts", "create", "--name", "Loja PGlite", "--document", "11444777000161", "--sandbox"], env)
    expect(created.status, created.stderr).toBe(0)
    expect(created.stderr).toContain(`using the database of billing serve (pid ${first.server.child.pid})`)
    const account = JSON.parse(created.stdout)
    const issued = await token(first.base, account.clientId, account.clientSecret)
    expect(issued.status).toBe(200)
    const { access_token } = await issued.json()
    const charge = await fetch(`${first.base}/v1/charges/pix`, {
      method: "POST",
      headers: { authorization: `Bearer ${access_token}`, "content-type": "application/json" },
      body: JSON.stringify({ amount: 12.34 })
    })
    expect(charge.status).toBe(200)
    const { chargeId } = await charge.json()

    const migrated = await runBilling(["migrate"], env)
    expect(migrated.status, migrated.stderr).toBe(0)
    expect(migrated.stdout).toContain("no pending migrations")

    const worker = startBilling(["worker"], env)
    running.push(worker)
    await worker.waitFor(/billing worker running/)
    await expect.poll(() => worker.stderr(), { timeout: 20_000 }).toContain(`using the database of billing serve (pid ${first.server.child.pid})`)
    await worker.stop()

    const second = await runBilling(["serve", "--port", "0"], env)
    expect(second.status).toBe(1)
    expect(second.stderr.trim().split("\n")).toEqual([
      `billing: the data folder ${dataDir} is in use by billing serve (pid ${first.server.child.pid}); stop it first, or set BILLING_DATA_DIR to another folder`
    ])

    // Stopped, the folder is free; restarted, everything is there.
    await first.server.stop()
    expect(existsSync(join(dataDir, "billing.lock"))).toBe(false)
    const again = await serve()
    expect(again.server.stderr()).not.toContain("applying migration")
    const reissued = await token(again.base, account.clientId, account.clientSecret)
    expect(reissued.status).toBe(200)
    const read = await fetch(`${again.base}/v1/charges/${chargeId}`, { headers: { authorization: `Bearer ${(await reissued.json()).access_token}` } })
    expect(read.status).toBe(200)
    expect((await read.json()).amount).toBe(12.34)
    await again.server.stop()

    // A lock left by a process that died does not keep the folder closed.
    const dead = deadPid()
    writeFileSync(join(dataDir, "billing.lock"), JSON.stringify({ pid: dead, holder: "billing serve", shared: true, socket: join(dataDir, ".s.PGSQL.5432") }))
    const recovered = await runBilling(["migrate"], env)
    expect(recovered.status, recovered.stderr).toBe(0)
    expect(recovered.stdout).toContain("no pending migrations")
    expect(existsSync(join(dataDir, "billing.lock"))).toBe(false)

    // No index of the folder is corrupted.
    const db = await PGlite.create(dataDir, { extensions: { amcheck } })
    try {
      await db.exec("CREATE EXTENSION IF NOT EXISTS amcheck")
      const checked = await db.query<{ checked: number }>(
        `SELECT count(bt_index_check(c.oid, true))::int AS checked
           FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam
          WHERE am.amname = 'btree' AND c.relnamespace = 'public'::regnamespace`
      )
      expect(checked.rows[0]!.checked).toBeGreaterThan(10)
    } finally {
      await db.close()
    }
  }, 180_000)
})
