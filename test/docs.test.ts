/**
 * The API reference at `/docs`, as a person sees it: Debian's Chromium,
 * driven by playwright-core, opens the page of a real engine with every
 * request that leaves the machine blocked (so the page must work offline),
 * and finds every operation of the OpenAPI document, its scope and its error
 * codes. A screenshot is kept in `test/artifacts/docs.png` for CI.
 *
 * Also: the page carries the very document `/v1/openapi.json` serves, and
 * the request examples written by hand in that document are accepted by the
 * server as they stand.
 */
import { existsSync } from "node:fs"
import { mkdir } from "node:fs/promises"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { type Browser, chromium } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startEngine, type TestEngine } from "./support/Engine.ts"

const CHROMIUM = "/usr/bin/chromium"
const SCREENSHOT = join(dirname(fileURLToPath(import.meta.url)), "artifacts", "docs.png")

type Json = { readonly [key: string]: any }

interface Operation {
  readonly method: string
  readonly path: string
  readonly summary: string
  readonly operationId: string
  readonly scopes: ReadonlyArray<string>
  /** No security at all (the token route, coupon validation, the boleto PDF); an empty `scopes` otherwise means any valid token. */
  readonly isPublic: boolean
  readonly codes: ReadonlyArray<string>
}

const isLocal = (url: string) => {
  const { protocol, hostname } = new URL(url)
  // data: and blob: URLs never leave the page.
  return protocol === "data:" || protocol === "blob:" || hostname === "127.0.0.1" || hostname === "localhost"
}

/** The operations of the document, with the scopes and the error codes a reader must find. */
const operationsOf = (doc: Json): Array<Operation> => {
  const resolve = (node: Json): Json =>
    typeof node.$ref === "string" ? resolve(node.$ref.slice(2).split("/").reduce((at: Json, part: string) => at[part], doc)) : node
  const codesOf = (schema: Json | undefined): Array<string> => {
    if (schema === undefined) return []
    const resolved = resolve(schema)
    if (resolved.anyOf) return resolved.anyOf.flatMap(codesOf)
    return resolved.properties?.error?.properties?.code?.enum ?? resolved.properties?.error?.enum ?? resolved.properties?.code?.enum ?? []
  }
  return Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      summary: op.summary,
      operationId: op.operationId,
      scopes: (op.security as Array<Json>).flatMap((r) => Object.values(r).flat() as Array<string>),
      isPublic: (op.security as Array<Json>).length === 0,
      codes: Object.entries(op.responses as Json)
        .filter(([status]) => !status.startsWith("2"))
        .flatMap(([, r]) => Object.values((r as Json).content ?? {}).flatMap((m) => codesOf((m as Json).schema)))
    }))
  )
}

/** The document embedded in the page (`HttpApiScalar` writes it as `content: <json>` in the boot script). */
const embeddedDocument = (html: string): Json => {
  const match = html.match(/content: (\{.*\})\s*\n\s*\}\)\s*\n\s*<\/script>/s)
  if (!match) throw new Error("no document in the page")
  return JSON.parse(match[1]!)
}

describe("API reference at /docs", () => {
  let engine: TestEngine
  let browser: Browser
  let doc: Json

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(`${CHROMIUM} is missing: install it with 'apt-get update && apt-get install -y chromium' (.ci/run does)`)
    }
    engine = await startEngine("postgres")
    doc = await (await fetch(`${engine.baseUrl}/v1/openapi.json`)).json()
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync"
      ]
    })
  })
  afterAll(async () => {
    await browser?.close()
    await engine?.dispose()
  })

  it("serves the document of /v1/openapi.json, after its transforms", async () => {
    const response = await fetch(`${engine.baseUrl}/docs`)
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toMatch(/^text\/html/)
    const html = await response.text()
    expect(embeddedDocument(html)).toEqual(doc)
    // The transforms are there: OAuth 2.0 scheme, examples.
    expect(doc.components.securitySchemes.oauth2.type).toBe("oauth2")
    expect(doc.paths["/v1/charges/pix"].post.requestBody.content["application/json"].example).toBeDefined()
    // Nothing is loaded from elsewhere.
    expect(html).not.toMatch(/<script[^>]+src=/)
    expect(html).not.toMatch(/<link[^>]+href="?https?:/)
  })

  // Drawing the whole page takes Chromium about 20 s alone, far more when the other test files share the two cores: a generous limit.
  it("renders offline in Chromium: every operation, its scope and its error codes", async () => {
    const operations = operationsOf(doc)
    expect(operations.length).toBeGreaterThan(40)
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } })
    // A step takes seconds alone, but CI once saw one stall past Playwright's default 30 s while the other test
    // files held both cores (Scalar redraws the long page): wait up to two minutes.
    page.setDefaultTimeout(120_000)
    const leaving: Array<string> = []
    await page.route("**/*", (route) => {
      const url = route.request().url()
      if (isLocal(url)) return route.continue()
      leaving.push(url)
      return route.abort("blockedbyclient")
    })
    const errors: Array<string> = []
    page.on("pageerror", (error) => errors.push(error.message))

    await page.goto(`${engine.baseUrl}/docs`, { waitUntil: "networkidle" })
    await expect(page.title()).resolves.toBe(doc.info.title)
    const sidebar = page.locator("aside[role=navigation]")
    await sidebar.getByText(operations[0]!.summary).first().waitFor()

    // The sidebar lists exactly the operations and the webhooks (events) of the document (Scalar writes DELETE as DEL).
    const entries = (await sidebar.locator("button:has-text('HTTP Method')").allInnerTexts()).map((text) => {
      const lines = text.split("\n").map((l) => l.trim()).filter((l) => l !== "")
      return `${lines.at(-1)} ${lines[0]}`
    })
    const expected = operations.map((o) => `${o.method === "DELETE" ? "DEL" : o.method} ${o.summary}`)
    const events = Object.values(doc.webhooks as Json).map((webhook) => `POST ${(webhook as Json).post.summary}`)
    expect(events.length).toBeGreaterThan(10)
    expect(entries.sort()).toEqual([...expected, ...events].sort())

    // The scheme: OAuth 2.0 client credentials with every scope of the document.
    const scopes = Object.keys(doc.components.securitySchemes.oauth2.flows.clientCredentials.scopes)
    await page.getByText(`0 / ${scopes.length}`).first().waitFor({ timeout: 60_000 })
    // The page is long: under the load of the other test files, drawing it can take longer than the default 30 s.
    await page.screenshot({ path: await screenshotPath(), timeout: 180_000 })

    // Each operation's section states its scope (or that it is public) and every error code. Scalar draws a
    // section once it nears the viewport: from the end of the page every one is drawn, and all are read at once.
    await page.evaluate(() => (globalThis as any).scrollTo(0, (globalThis as any).document.body.scrollHeight))
    // In the page: the text of the section of each operation's heading ("" while not drawn yet).
    const sectionsOf = (names: ReadonlyArray<string>) =>
      names.map((name) => {
        const headings: Array<any> = [...(globalThis as any).document.querySelectorAll("h1, h2, h3, h4, h5, h6")]
        return headings.find((h) => h.innerText.trim() === name)?.closest("section")?.innerText ?? ""
      })
    const summaries = operations.map((operation) => operation.summary)
    const readSections = () => page.evaluate(sectionsOf, summaries)
    await expect.poll(async () => (await readSections()).every((section) => section !== ""), { timeout: 120_000, interval: 500 }).toBe(true)
    const sections = await readSections()
    operations.forEach((operation, i) => {
      const section = sections[i]!
      const key = `${operation.method} ${operation.path}`
      if (operation.isPublic) expect(section, key).toContain("Access: public")
      else if (operation.scopes.length === 0) expect(section, key).toContain("Scope: any valid token")
      // The first scope as Scalar labels it; every alternative in the operation's description.
      if (operation.scopes.length > 0) expect(section, key).toContain(`Scope: ${operation.scopes[0]}`)
      for (const scope of operation.scopes) expect(section, key).toContain(scope)
      for (const code of operation.codes) expect(section, key).toContain(code)
    })

    // The sidebar takes a reader to an operation: the first, one in the middle and the last.
    for (const operation of [operations[0]!, operations[Math.floor(operations.length / 2)]!, operations.at(-1)!]) {
      await sidebar.locator("button", { hasText: operation.summary }).first().click()
      const heading = page.getByRole("heading", { name: operation.summary, exact: true }).first()
      const inView = () => heading.evaluate((h) => h.getBoundingClientRect().top >= 0 && h.getBoundingClientRect().top < (globalThis as any).innerHeight)
      await expect.poll(inView, { timeout: 60_000, interval: 250 }).toBe(true)
    }

    expect(errors).toEqual([])
    expect(leaving).toEqual([])
    await page.close()
  }, 900_000)

  it("the request examples written by hand are accepted as they stand", async () => {
    const account = await engine.createAccount()
    const example = (path: string, method: string, type = "application/json") =>
      doc.paths[path][method].requestBody.content[type].example as Json

    // The token request, with this account's credentials in place of the sandbox defaults.
    const tokenExample = example("/auth/token", "post", "application/x-www-form-urlencoded")
    const issued = await fetch(`${engine.baseUrl}/auth/token`, {
      method: "POST",
      body: new URLSearchParams({ ...tokenExample, client_id: account.clientId, client_secret: account.clientSecret })
    })
    expect(issued.status).toBe(200)

    const token = await engine.token(account)
    const send = (path: string, method = "post") =>
      fetch(`${engine.baseUrl}${path}`, {
        method: method.toUpperCase(),
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(example(path, method))
      }).then(async (r) => ({ path, status: r.status, body: await r.text() }))
    const results = [
      await send("/v1/charges/pix"),
      await send("/v1/charges"),
      await send("/v1/customers"),
      await send("/v1/products"),
      await send("/v1/users/webhooks")
    ]
    for (const result of results) expect(result.status, `${result.path}: ${result.body}`).toBeLessThan(300)
  })
})

const screenshotPath = async () => {
  await mkdir(dirname(SCREENSHOT), { recursive: true })
  return SCREENSHOT
}
