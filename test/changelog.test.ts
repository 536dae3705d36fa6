/**
 * `GET /v1/changelog` through real HTTP on PostgreSQL: the engine's release
 * notes from `CHANGELOG.json`, for any valid token, filtered by month and
 * kind, with every route a note names being a route of the API.
 */
import { readFile } from "node:fs/promises"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startEngine, type TestEngine } from "./support/Engine.ts"

describe("changelog on postgres", () => {
  let engine: TestEngine
  let token: string
  const read = async (query = "", as = token) => {
    const response = await fetch(`${engine.baseUrl}/v1/changelog${query}`, { headers: { authorization: `Bearer ${as}` } })
    return { status: response.status, body: await response.json() }
  }

  beforeAll(async () => {
    engine = await startEngine("postgres")
    const account = await engine.createAccount()
    // A token with one scope that has nothing to do with release notes: any valid token reads them.
    token = await engine.token(account, "pix.cob/read")
  })
  afterAll(() => engine?.dispose())

  it("serves the release notes of CHANGELOG.json, grouped by month, to any valid token and to no one else", async () => {
    const file = JSON.parse(await readFile(new URL("../CHANGELOG.json", import.meta.url), "utf8"))
    const all = await read()
    expect(all.status).toBe(200)
    expect(all.body).toEqual(file)
    const november = all.body.groups.find((g: { month: string }) => g.month === "2026.11")
    expect(november.notes).toContainEqual({
      kind: "new",
      date: "2026-11-27",
      title: expect.stringContaining("GET /v1/changelog"),
      routes: ["GET /v1/changelog"]
    })
    for (const n of november.notes) expect(Object.keys(n).sort()).toEqual(["date", "kind", "routes", "title"])

    const anonymous = await fetch(`${engine.baseUrl}/v1/changelog`)
    expect(anonymous.status).toBe(401)
    expect((await anonymous.json()).error.code).toBe("UNAUTHORIZED")
  })

  it("filters by kind and by month, from and to inclusive, leaving out months the filter empties", async () => {
    const fixes = (await read("?kind=fix")).body.groups as Array<{ month: string; notes: Array<{ kind: string; title: string }> }>
    expect(fixes.flatMap((g) => g.notes.map((n) => n.kind)).every((kind) => kind === "fix")).toBe(true)
    expect(fixes.find((g) => g.month === "2026.11")!.notes.some((n) => n.title.includes("data.account"))).toBe(true)
    // November 2026 alone: its group as the whole list has it; the engine had no release before it.
    const all = (await read()).body.groups as Array<{ month: string }>
    expect((await read("?from=2026.11&to=2026.11")).body).toEqual({ groups: all.filter((g) => g.month === "2026.11") })
    expect((await read("?from=2026.11")).body.groups.at(-1).month).toBe("2026.11")
    expect((await read("?to=2026.10")).body).toEqual({ groups: [] })
  })

  it("answers 400 INVALID_DATA naming the field for a month not written YYYY.MM, a window that ends before it starts, or an unknown kind", async () => {
    for (const [query, field] of [["?from=2026-11", "from"], ["?to=2026.13", "to"], ["?kind=feature", "kind"], ["?from=2026.12&to=2026.11", "from"]]) {
      const answer = await read(query)
      expect(answer.status, query).toBe(400)
      expect(answer.body.error.code, query).toBe("INVALID_DATA")
      expect(JSON.stringify(answer.body.error.details), query).toContain(field)
    }
  })

  it("names only routes the API has, as METHOD /path in the OpenAPI document", async () => {
    const doc = await (await fetch(`${engine.baseUrl}/v1/openapi.json`)).json()
    const operations = new Set(Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`)))
    const named = (await read()).body.groups.flatMap((g: { notes: Array<{ routes: Array<string> }> }) => g.notes.flatMap((n) => n.routes))
    expect(named.length).toBeGreaterThan(0)
    expect(named.filter((route: string) => !operations.has(route))).toEqual([])
  })
})
