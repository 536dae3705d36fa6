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
    for (const child of children) child.kill("SIGTERM")
    await new Promise((r) => setTimeout(r, 300))
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
})
