/**
 * The `billing` command line itself: help that never runs anything,
 * `--version`, and failures said in one line.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createServer, type Server } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runBilling } from "./support/Cli.ts"

const root = mkdtempSync(join(tmpdir(), "billing-cli-help-"))
const dataDir = join(root, "data")
const version = JSON.parse(readFileSync("packages/cli/package.json", "utf8")).version as string

/** A port this test holds: a command that tried to listen there would fail instead of printing help. */
let taken: Server
let port: number
beforeAll(async () => {
  taken = createServer()
  await new Promise<void>((resolve) => taken.listen(0, "0.0.0.0", resolve))
  port = (taken.address() as { port: number }).port
})
afterAll(async () => {
  await new Promise((resolve) => taken.close(resolve))
  rmSync(root, { recursive: true, force: true })
})

const env = () => ({ DATABASE_URL: "", BILLING_DATA_DIR: dataDir, PORT: String(port) })

describe("billing --help", () => {
  const commands = [[], ["serve"], ["worker"], ["migrate"], ["accounts"], ["accounts", "create"], ["listen"], ["trigger"]]

  it.each(commands.map((path) => [path.join(" ") || "(root)", path] as const))(
    "billing %s --help prints its help and runs nothing",
    async (_, path) => {
      const result = await runBilling([...path, "--help"], env())
      expect(result.status, result.stderr).toBe(0)
      expect(result.stderr).toBe("")
      expect(result.stdout).toContain("USAGE")
      expect(result.stdout).toContain(["billing", ...path].join(" "))
      expect(existsSync(dataDir)).toBe(false)
    }
  )

  it("-h and --help after other flags still only print the help", async () => {
    for (const args of [["serve", "-h"], ["serve", "--port", String(port), "--help"], ["accounts", "create", "--name", "x", "--help"]]) {
      const result = await runBilling(args, env())
      expect(result.status, `${args.join(" ")}: ${result.stderr}`).toBe(0)
      expect(result.stdout).toContain("USAGE")
    }
    expect(existsSync(dataDir)).toBe(false)
  })

  it("lists every command and the flags of serve and accounts create", async () => {
    const root = await runBilling(["--help"])
    for (const command of ["serve", "worker", "migrate", "accounts", "listen", "trigger"]) expect(root.stdout).toMatch(new RegExp(`^\\s+${command}\\s`, "m"))
    for (const variable of ["DATABASE_URL", "BILLING_DATA_DIR", "PORT", "BILLING_SANDBOX_CLIENT_ID"]) expect(root.stdout).toContain(variable)
    const serve = await runBilling(["serve", "--help"])
    for (const flag of ["--no-worker", "--port N", "--processes N"]) expect(serve.stdout).toContain(flag)
    const create = await runBilling(["accounts", "create", "--help"])
    for (const flag of ["--name NAME", "--document CPF_OR_CNPJ", "--sandbox", "--scopes", "--parent ACCOUNT_ID", "--email EMAIL", "--internal"]) {
      expect(create.stdout).toContain(flag)
    }
  })
})

describe("billing --version and errors", () => {
  it("--version prints the package version", async () => {
    const result = await runBilling(["--version"])
    expect(result.status).toBe(0)
    expect(result.stdout.trim()).toBe(`billing ${version}`)
  })

  it("a port in use is one line naming it", async () => {
    const result = await runBilling(["serve", "--port", String(port), "--no-worker"], env())
    expect(result.status).toBe(1)
    const lines = result.stderr.trim().split("\n")
    expect(lines.at(-1)).toBe(`billing: port ${port} is in use; try --port`)
    // Before it, only the progress of the first start: no stack trace, no usage.
    expect(lines.filter((line) => /^\s+at |usage:/.test(line))).toEqual([])
    rmSync(dataDir, { recursive: true, force: true })
  }, 60_000)

  it("an unreachable database is one line saying why", async () => {
    const result = await runBilling(["migrate"], { DATABASE_URL: "postgres://postgres@127.0.0.1:1/nothing" })
    expect(result.status).toBe(1)
    expect(result.stderr.trim()).toBe("billing: database: connect ECONNREFUSED 127.0.0.1:1")
  })

  it("a wrong command line is one line and the usage, exit code 2", async () => {
    const unknown = await runBilling(["serve", "--prot", "3000"], env())
    expect(unknown.status).toBe(2)
    expect(unknown.stderr.trim().split("\n")).toEqual([
      "billing: unknown flag --prot (did you mean --port?)",
      "usage: billing serve [--no-worker] [--port N] [--processes N]  (more: billing serve --help)"
    ])
    const command = await runBilling(["sevre"], env())
    expect(command.status).toBe(2)
    expect(command.stderr).toContain("billing: unknown command sevre (did you mean serve?)")
    const value = await runBilling(["serve", "--port", "70000"], env())
    expect(value.status).toBe(2)
    expect(value.stderr.split("\n")[0]).toBe(`billing: invalid --port "70000": expected 0 to 65535`)
    expect(existsSync(dataDir)).toBe(false)
  })
})
