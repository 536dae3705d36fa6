/**
 * The `billing` command as an operator runs it: a real process, a real
 * PostgreSQL database.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freshPostgresDatabase } from "./support/Engine.ts"

const main = "packages/cli/src/main.ts"

describe("billing CLI on postgres", () => {
  let db: Awaited<ReturnType<typeof freshPostgresDatabase>>
  const children: Array<ChildProcess> = []
  beforeAll(async () => {
    db = await freshPostgresDatabase()
  })
  afterAll(async () => {
    // Each child gone (its exit seen) before its database is dropped.
    const exited = children.map((child) =>
      child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once("exit", resolve)))
    for (const child of children) child.kill("SIGTERM")
    await Promise.all(exited)
    await db?.drop()
  })

  const billing = (args: Array<string>, env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [main, ...args], { env: { ...process.env, DATABASE_URL: db.url, ...env }, encoding: "utf8" })

  it("migrate applies the migrations once", () => {
    const first = billing(["migrate"])
    expect(first.status).toBe(0)
    expect(first.stdout).toContain("applied 1_foundation")
    const second = billing(["migrate"])
    expect(second.stdout).toContain("no pending migrations")
  })

  it("accounts create prints the credentials as JSON, and --parent opens a sub-account", () => {
    const master = billing(["accounts", "create", "--name", "Loja", "--document", "11.444.777/0001-61", "--sandbox"])
    expect(master.status, master.stderr).toBe(0)
    const created = JSON.parse(master.stdout)
    expect(Object.keys(created).sort()).toEqual(["accountId", "accountNumber", "clientId", "clientSecret"])
    expect(created.accountId).toMatch(/^SANDBOX_acc_/)

    const sub = billing(["accounts", "create", "--name", "Vendedor", "--document", "52998224725", "--parent", created.accountId])
    expect(sub.status, sub.stderr).toBe(0)
    const seller = JSON.parse(sub.stdout)
    expect(seller.accountNumber).not.toBe(created.accountNumber)
  })

  it("accounts create refuses missing or invalid arguments with exit code 2 and the usage", () => {
    const missing = billing(["accounts", "create", "--name", "x"])
    expect(missing.status).toBe(2)
    expect(missing.stderr).toContain("usage: billing")
    const badScope = billing(["accounts", "create", "--name", "x", "--document", "11444777000161", "--scopes", "pix.cob/read,root"])
    expect(badScope.status).toBe(2)
    expect(badScope.stderr).toContain("root")
    const unknownFlag = billing(["accounts", "create", "--nme", "x"])
    expect(unknownFlag.status).toBe(2)
  })

  it("serve starts, prints the URLs and makes sure the sandbox credentials work", async () => {
    const child = spawn(process.execPath, [main, "serve", "--port", "0"], {
      env: {
        ...process.env,
        DATABASE_URL: db.url,
        BILLING_SANDBOX_CLIENT_ID: "sandbox-cli-test",
        BILLING_SANDBOX_CLIENT_SECRET: "sandbox-cli-secret"
      }
    })
    children.push(child)
    let out = ""
    const tokenUrl = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}`)), 20_000)
      child.stdout!.on("data", (chunk: Buffer) => {
        out += chunk.toString()
        const match = out.match(/token URL:\s+(\S+)/)
        if (match && out.includes("sandbox:")) {
          clearTimeout(timer)
          resolve(match[1]!)
        }
      })
    })
    expect(out).toMatch(/base URL:\s+http:\/\/localhost:\d+\/v1/)
    expect(out).toContain("client_id=sandbox-cli-test")
    const response = await fetch(tokenUrl, {
      method: "POST",
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: "sandbox-cli-test", client_secret: "sandbox-cli-secret" })
    })
    expect(response.status).toBe(200)
    expect((await response.json()).token_type).toBe("Bearer")
  }, 30_000)

  it("serve --processes 2 shares one port between two HTTP processes, replaces one that dies, and stops them all", async () => {
    const child = spawn(process.execPath, [main, "serve", "--port", "0", "--processes", "2", "--no-worker"], {
      env: { ...process.env, DATABASE_URL: db.url, BILLING_SANDBOX_CLIENT_ID: "cluster-cli-test", BILLING_SANDBOX_CLIENT_SECRET: "cluster-secret" }
    })
    children.push(child)
    let out = ""
    let err = ""
    child.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()))
    const base = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}`)), 30_000)
      child.stdout!.on("data", (chunk: Buffer) => {
        out += chunk.toString()
        const match = out.match(/base URL:\s+(\S+)\/v1/)
        if (match && out.includes("sandbox:")) {
          clearTimeout(timer)
          resolve(match[1]!)
        }
      })
    })
    expect(out).toMatch(/HTTP:\s+2 processes/)
    const httpProcesses = () =>
      spawnSync("pgrep", ["-P", String(child.pid)], { encoding: "utf8" }).stdout.split("\n").filter((l) => l.trim() !== "").map(Number)
    expect(httpProcesses()).toHaveLength(2)

    const token = await fetch(`${base}/auth/token`, {
      method: "POST",
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: "cluster-cli-test", client_secret: "cluster-secret", scope: "pix.cob/write" })
    }).then((r) => r.json())
    // Separate connections, so that both processes take some.
    const create = () =>
      fetch(`${base}/v1/charges/pix`, {
        method: "POST",
        headers: { authorization: `Bearer ${token.access_token}`, "content-type": "application/json", connection: "close" },
        body: JSON.stringify({ amount: 12.34 })
      }).then((r) => r.status)
    expect(await Promise.all(Array.from({ length: 8 }, create))).toEqual(Array(8).fill(200))

    const [victim] = httpProcesses()
    process.kill(victim!, "SIGKILL")
    await expect.poll(() => httpProcesses().filter((pid) => pid !== victim), { timeout: 15_000, interval: 200 }).toHaveLength(2)
    // A connection the dying process had accepted is reset; the next ones reach a live process.
    await expect.poll(() => create().catch(() => "reset"), { timeout: 15_000, interval: 200 }).toBe(200)
    expect(err).toContain("starting another")

    const survivors = httpProcesses()
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
    child.kill("SIGTERM")
    await exited
    await expect.poll(() => survivors.filter((pid) => spawnSync("kill", ["-0", String(pid)]).status === 0), { timeout: 10_000 }).toEqual([])
  }, 60_000)

  it("serve --processes 2 stops on Ctrl-C (SIGINT to the whole process group) without replacing any HTTP process", async () => {
    // A process group of its own, as a terminal gives a command: Ctrl-C signals every process in it.
    const child = spawn(process.execPath, [main, "serve", "--port", "0", "--processes", "2", "--no-worker"], {
      env: { ...process.env, DATABASE_URL: db.url, BILLING_SANDBOX_CLIENT_ID: "ctrl-c-cli-test", BILLING_SANDBOX_CLIENT_SECRET: "ctrl-c-secret" },
      detached: true
    })
    children.push(child)
    let out = ""
    let err = ""
    child.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()))
    const base = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}${err}`)), 30_000)
      child.stdout!.on("data", (chunk: Buffer) => {
        out += chunk.toString()
        const match = out.match(/base URL:\s+(\S+)\/v1/)
        if (match && out.includes("sandbox:")) {
          clearTimeout(timer)
          resolve(match[1]!)
        }
      })
    })
    const token = await fetch(`${base}/auth/token`, {
      method: "POST",
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: "ctrl-c-cli-test", client_secret: "ctrl-c-secret", scope: "pix.cob/write pix.cob/read" })
    })
    expect(token.status).toBe(200)
    const { access_token } = await token.json()
    const created = await Promise.all(Array.from({ length: 6 }, () =>
      fetch(`${base}/v1/charges/pix`, {
        method: "POST",
        headers: { authorization: `Bearer ${access_token}`, "content-type": "application/json", connection: "close" },
        body: JSON.stringify({ amount: 5 })
      }).then(async (r) => ({ status: r.status, body: await r.json() }))
    ))
    expect(created.map((c) => c.status)).toEqual(Array(6).fill(200))
    // Six distinct charges, each readable afterwards (whichever process takes the read).
    const ids = created.map((c) => c.body.chargeId as string)
    expect(new Set(ids).size).toBe(6)
    const reads = await Promise.all(ids.map((id) =>
      fetch(`${base}/v1/charges/${id}`, { headers: { authorization: `Bearer ${access_token}`, connection: "close" } }).then(async (r) => ({
        status: r.status,
        amount: (await r.json()).amount
      }))
    ))
    expect(reads).toEqual(Array(6).fill({ status: 200, amount: 5 }))

    const httpProcesses = spawnSync("pgrep", ["-P", String(child.pid)], { encoding: "utf8" }).stdout.split("\n").filter((l) => l.trim() !== "")
    expect(httpProcesses).toHaveLength(2)
    // Every process of the group, by the group id (the primary's pid); none may outlive the stop.
    const group = () => spawnSync("pgrep", ["-g", String(child.pid)], { encoding: "utf8" }).stdout.split("\n").filter((l) => l.trim() !== "")
    expect(group()).toHaveLength(3)

    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
    process.kill(-child.pid!, "SIGINT")
    await exited
    await expect.poll(group, { timeout: 10_000, interval: 200 }).toEqual([])
    expect(err).not.toContain("starting another")
  }, 60_000)

  it("serve --processes needs a PostgreSQL server", () => {
    const result = spawnSync(process.execPath, [main, "serve", "--processes", "2"], {
      env: { ...process.env, DATABASE_URL: "" },
      encoding: "utf8"
    })
    expect(result.status).toBe(2)
    expect(result.stderr).toContain("--processes needs a PostgreSQL server")
  })
})
