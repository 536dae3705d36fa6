/**
 * Every file of `examples/` runs with the command written at its top, as a
 * reader would paste it: through `bash`, from the repository root, with the
 * machine's own Node first on PATH (scripts/node.sh brings Node 26 when
 * that one is older or unsound).
 */
import { signWebhook } from "@billing/core"
import { decodeProvidersFile } from "@billing/providers"
import { Effect } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import { delimiter } from "node:path"
import { afterAll, describe, expect, it } from "vitest"

const examples = readdirSync("examples").filter((file) => file.endsWith(".ts")).sort()

/** The indented command line of the file's opening comment that runs it. */
const commandOf = (file: string) => {
  const match = readFileSync(`examples/${file}`, "utf8").match(new RegExp(`^ \\*   (.*examples/${file.replace(".", "\\.")}.*)$`, "m"))
  return match?.[1]
}

/** PATH without the Node that `npm test` put first. */
const machinePath = (process.env.PATH ?? "").split(delimiter).filter((dir) => !dir.includes(".tools")).join(delimiter)

const children: Array<ChildProcess> = []
afterAll(() => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGTERM")
  }
})

const start = (command: string, env: Record<string, string> = {}) => {
  const child = spawn("bash", ["-c", command], { env: { ...process.env, PATH: machinePath, ...env }, detached: true })
  children.push(child)
  let stdout = ""
  let stderr = ""
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
  return { child, exited, stdout: () => stdout, stderr: () => stderr }
}

describe("examples", () => {
  it.each(examples)("%s says at its top how to run it", (file) => {
    expect(commandOf(file)).toMatch(/bash scripts\/node\.sh node examples\//)
  })

  it("providers.example.json is a providers file as serve reads it (its secrets from the environment)", async () => {
    const file = JSON.parse(readFileSync("examples/providers.example.json", "utf8"))
    const decoded = await Effect.runPromise(decodeProvidersFile(file))
    expect(decoded.pix.map((psp) => [psp.name, psp.profile])).toEqual([["efi", "efi"]])
    expect(decoded.pix[0]!.clientSecret).toEqual({ env: "EFI_CLIENT_SECRET" })
    expect(decoded.nfse).toEqual({ provider: "nacional", ambiente: "producao" })
  })

  it("embed.ts opens an account and creates and reads a Pix charge", async () => {
    const run = start(commandOf("embed.ts")!)
    expect(await run.exited, run.stderr()).toBe(0)
    expect(run.stdout()).toMatch(/^account \d+: charge SANDBOX_cha_\w+ of R\$ 19\.90 is PENDING$/m)
    expect(run.stdout()).toMatch(/^pix copy-and-paste: 000201.+$/m)
  }, 120_000)

  it("webhook-receiver.ts accepts a signed delivery and refuses a forged one", async () => {
    const secret = "whsec_example_test"
    const run = start(commandOf("webhook-receiver.ts")!.replace("whsec_...", secret), { PORT: "0" })
    await expect.poll(() => run.stdout(), { timeout: 60_000, interval: 100 }).toMatch(/webhook receiver on (\S+)/)
    const url = run.stdout().match(/webhook receiver on (\S+)/)![1]!
    const body = JSON.stringify({ event: "payment.success", timestamp: "2026-01-01T12:00:00Z", data: { chargeId: "cha_1" } })
    const deliver = async (signature: string) =>
      (await fetch(url, { method: "POST", headers: { "x-webhook-signature": signature, "x-webhook-event-id": "evt_1" }, body })).status
    expect(await deliver(await signWebhook(secret, body, Date.now()))).toBe(204)
    expect(await deliver(await signWebhook("whsec_someone_else", body, Date.now()))).toBe(401)
    await expect.poll(() => run.stderr(), { timeout: 5_000 }).toContain("refused delivery: bad_signature")
    expect(run.stdout()).toContain("evt_1 payment.success")
    process.kill(-run.child.pid!, "SIGTERM")
    await run.exited
  }, 120_000)
})
