/**
 * The contract the fake PSP holds both sides to: the BCB file's own examples
 * pass it where they are faithful to the file's schemas, and messages that
 * drift from it fail, on either side. (Several examples are not faithful:
 * `cobResponse1`'s `loc` lacks the `txid` and `criacao` that `CobGerada`
 * requires, `cobBody1` writes `modalidade` as a string; the schemas are the
 * contract, so those examples are left out rather than the schemas loosened.)
 */
import { describe, expect, it } from "vitest"
import { load } from "js-yaml"
import { readFileSync } from "node:fs"
import { BCB_OPENAPI, loadPixApiContract } from "./support/PixApiContract.ts"

const examples = (load(readFileSync(BCB_OPENAPI, "utf8")) as { components: { examples: Record<string, { value: unknown }> } }).components.examples
const example = (name: string) => examples[name]!.value
const contract = loadPixApiContract()
const TXID = "BLNGB0123456789ABCDEF01234567"
const json = "application/json"
/** `cobResponse1` with the `loc` fields `CobGerada` requires. */
const cob: Record<string, unknown> = { ...(example("cobResponse1") as Record<string, unknown>), txid: TXID, loc: { id: 789, location: "pix.example.com/qr/9d36", tipoCob: "cob", criacao: "2020-09-09T20:15:00.358Z", txid: TXID } }
const request = (method: string, path: string, body?: unknown, query = "") => ({ method, path, query: new URLSearchParams(query), contentType: body === undefined ? undefined : json, body })

describe("the BCB API Pix contract under our overlay", () => {
  it.each([
    ["PUT", `/cob/${TXID}`, "cobBody2"],
    ["PUT", "/pix/E12345678202009091221abcdef12345/devolucao/D1", "devolucaoSolicitada1"],
    ["PUT", "/webhook/11444777000161", "webhookBody1"]
  ])("accepts the file's example request %s %s (%s)", (method, path, name) => {
    expect(contract.checkRequest(request(method, path, example(name)))).toEqual([])
  })

  it.each([
    ["GET", "/pix/E12345678202009091221abcdef12345/devolucao/D1", 200, "devolucaoResponse2"],
    ["PUT", "/pix/E12345678202009091221abcdef12345/devolucao/D1", 201, "devolucaoResponse1"],
    ["GET", "/pix/E12345678202009091221abcdef12345", 200, "pixResponse1"]
  ])("accepts the file's example answer to %s %s (%s, %s)", (method, path, status, name) => {
    expect(contract.checkResponse({ method, path }, { status, contentType: json, body: example(name) })).toEqual([])
  })

  it("refuses a request that drifts: a txid too long, an amount as a number, a query parameter of its own", () => {
    expect(contract.checkRequest(request("PUT", `/cob/${TXID}ABCDEFGHIJ`, example("cobBody2")))).toContainEqual(expect.stringContaining("path txid"))
    expect(contract.checkRequest(request("PUT", `/cob/${TXID}`, { calendario: { expiracao: 60 }, valor: { original: 1.5 }, chave: "k" }))).toContainEqual(
      expect.stringContaining("body/valor/original")
    )
    expect(contract.checkRequest(request("GET", "/pix", undefined, "inicio=2026-01-01T00:00:00Z&fim=2026-01-02T00:00:00Z&pagina=1"))).toEqual([
      "GET /pix: query parameter pagina is not in the API"
    ])
    expect(contract.checkRequest(request("GET", "/pix", undefined, "inicio=ontem&fim=2026-01-02T00:00:00Z"))).toContainEqual(expect.stringContaining("query inicio"))
  })

  it("accepts a cob answer with the loc the schema requires", () => {
    expect(contract.checkResponse({ method: "PUT", path: `/cob/${TXID}` }, { status: 201, contentType: json, body: cob })).toEqual([])
  })

  it("refuses an answer that drifts: a status the operation does not have, a cob without its status, a problem as text", () => {
    expect(contract.checkResponse({ method: "PUT", path: `/cob/${TXID}` }, { status: 200, contentType: json, body: cob })).toEqual([
      `PUT /cob/{txid} → 200: status not in the API`
    ])
    const { status: _, ...withoutStatus } = cob
    expect(contract.checkResponse({ method: "PUT", path: `/cob/${TXID}` }, { status: 201, contentType: json, body: withoutStatus })).toContainEqual(
      expect.stringContaining("must have required property 'status'")
    )
    expect(contract.checkResponse({ method: "GET", path: `/cob/${TXID}` }, { status: 503, contentType: "text/plain", body: "down" })).toContainEqual(
      expect.stringContaining("content-type text/plain")
    )
  })
})
