/**
 * The links the engine hands out (a checkout link's `url`, a boleto's
 * `pdfUrl`) carry the scheme and host of the request. Behind a trusted
 * reverse proxy they are those the proxy forwards; from anyone else
 * `X-Forwarded-Host` and `-Proto` are ignored, so a client cannot make us
 * publish a link to a host of its choosing.
 */
import { IpNetwork } from "effect/net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startEngine, type TestEngine } from "./support/Engine.ts"

const forged = { "x-forwarded-for": "198.51.100.7", "x-forwarded-host": "pagamentos.loja.example", "x-forwarded-proto": "https" }

const linkUrl = async (engine: TestEngine) => {
  const account = await engine.createAccount()
  const headers = { authorization: `Bearer ${await engine.token(account)}`, "content-type": "application/json" }
  const send = (path: string, body: unknown) =>
    fetch(`${engine.baseUrl}${path}`, { method: "POST", headers: { ...headers, ...forged }, body: JSON.stringify(body) })
  const product = await (await send("/v1/products", { name: "Curso", type: "ONE_TIME", prices: [{ amount: 97 }] })).json()
  const link = await (await send("/v1/checkouts", { priceId: product.prices[0].priceId, allowedPaymentMethods: ["pix"] })).json()
  return { id: link.id as string, url: link.url as string }
}

describe("forwarded origin", () => {
  const engines: Array<TestEngine> = []
  let direct: TestEngine
  let proxied: TestEngine
  beforeAll(async () => {
    direct = await startEngine("pglite")
    proxied = await startEngine("pglite", { trustedProxies: [IpNetwork.fromStringUnsafe("127.0.0.1/32")] })
    engines.push(direct, proxied)
  })
  afterAll(() => Promise.all(engines.map((engine) => engine.dispose())))

  it("ignores X-Forwarded-Host and -Proto from a client that is not a trusted proxy", async () => {
    const link = await linkUrl(direct)
    expect(link.url).toBe(`${direct.baseUrl}/pay/${link.id}`)
  })

  it("uses the scheme and host a trusted proxy forwards", async () => {
    const link = await linkUrl(proxied)
    expect(link.url).toBe(`https://pagamentos.loja.example/pay/${link.id}`)
  })
})
