/**
 * The hosted checkout page at the URLs the API hands out (`/pay/{id}` of a
 * link, a session, a subscription's `checkoutUrl`), as a buyer uses it:
 * Debian's Chromium driven by playwright-core on a real engine with
 * PostgreSQL, every request that leaves the machine blocked and counted.
 * Each state of the page passes axe-core without a serious or critical
 * violation and is photographed at 360 px and 1280 px into
 * `test/artifacts/checkout-page/`.
 */
import { Brazil } from "@billing/core"
import { chargesPass } from "@billing/worker"
import { Result } from "effect"
import jsQRModule from "jsqr"
import { existsSync, readFileSync } from "node:fs"
import { mkdir } from "node:fs/promises"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { PNG } from "pngjs"
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startEngine, type TestEngine } from "./support/Engine.ts"

const CHROMIUM = "/usr/bin/chromium"
const HERE = dirname(fileURLToPath(import.meta.url))
const ARTIFACTS = join(HERE, "artifacts", "checkout-page")
const AXE = readFileSync(join(HERE, "..", "node_modules", "axe-core", "axe.min.js"), "utf8")
const jsQR = jsQRModule as unknown as (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null

const isLocal = (url: string) => {
  const { protocol, hostname } = new URL(url)
  return protocol === "data:" || protocol === "blob:" || hostname === "127.0.0.1" || hostname === "localhost"
}

const decodeQr = (dataUrl: string) => {
  const png = PNG.sync.read(Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ""), "base64"))
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data
}

// Amounts as the page prints them: a no-break space after R$, as Intl does.
const brl = (text: string) => text.replaceAll("R$ ", "R$\u00a0")

/** WCAG 2 contrast ratio of two `#RRGGBB` colors, worked out here from the definition. */
const contrastRatio = (a: string, b: string) => {
  const luminance = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
  }
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (light! + 0.05) / (dark! + 0.05)
}

const rgbOf = (hex: string) => `rgb(${[1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)).join(", ")})`

/** A date and time as the confirmation prints it, in São Paulo. */
const saoPaulo = (iso: string) =>
  new Intl.DateTimeFormat("pt-BR", { timeZone: "America/Sao_Paulo", dateStyle: "short", timeStyle: "short" }).format(new Date(iso))

const buyer = { name: "Ana Souza", email: "ana@example.com", document: "52998224725" }
const address = { zip: "88010000", street: "Rua das Flores", number: "123", neighborhood: "Centro", city: "Florianópolis", state: "SC" }
const expiry = `12/${String(new Date().getUTCFullYear() + 5).slice(2)}`

describe("hosted checkout page in Chromium", () => {
  let engine: TestEngine
  let browser: Browser
  let context: BrowserContext
  let headers: Record<string, string>
  const prices: Record<string, string> = {}
  const leaving: Array<string> = []
  const cspViolations: Array<string> = []

  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${engine.baseUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
    return { status: response.status, body: await response.json() }
  }
  const link = async (body: Record<string, unknown>) => (await api("POST", "/v1/checkouts", body)).body as { id: string; url: string }

  const newPage = async (target: BrowserContext = context): Promise<Page> => {
    const page = await target.newPage()
    await page.setViewportSize({ width: 360, height: 800 })
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text())
    })
    page.on("pageerror", (error) => cspViolations.push(`page error: ${error.message}`))
    return page
  }

  /** axe-core on the page as it stands, then a picture at 360 px and at 1280 px. */
  const checkState = async (page: Page, name: string) => {
    // Evaluated through the DevTools protocol, which the page's CSP does not govern: the page keeps its own policy.
    if (!(await page.evaluate(() => "axe" in globalThis))) await page.evaluate(AXE)
    const violations = await page.evaluate(async () => {
      const result = await (globalThis as any).axe.run((globalThis as any).document, { resultTypes: ["violations"] })
      return result.violations.map((v: any) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n: any) => n.target.join(" ")) }))
    }) as Array<{ id: string; impact: string; nodes: Array<string> }>
    expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical"), name).toEqual([])
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: 800 })
      await page.screenshot({ path: join(ARTIFACTS, `${name}-${width}.png`), fullPage: true })
    }
    await page.setViewportSize({ width: 360, height: 800 })
  }

  const fillBuyer = async (page: Page) => {
    await page.getByLabel("Nome completo").fill(buyer.name)
    await page.getByLabel("E-mail").fill(buyer.email)
    await page.getByLabel("CPF ou CNPJ").fill(buyer.document)
  }

  const fillCard = async (page: Page, number: string) => {
    await page.getByLabel("Número do cartão").fill(number)
    await page.getByLabel("Nome impresso no cartão").fill("ANA SOUZA")
    await page.getByLabel("Validade (MM/AA)").fill(expiry)
    await page.getByLabel("CVV").fill("123")
    await page.getByLabel("Parcelas").selectOption("3")
  }

  /** The sandbox payment of a charge, confirmed as the worker confirms it. */
  const payInSandbox = async (chargeId: string) => {
    expect((await api("POST", `/v1/wallet/pay/${chargeId}`)).status).toBe(200)
    await engine.run(chargesPass())
  }

  const chargeIdOf = (page: Page) => new URL(page.url()).pathname.split("/").at(-1)!

  /** The subscription a buyer's payment on a link created, checked to be the one its first charge (`checkoutUrl`, until paid) bills. */
  const subscriptionOf = async (checkoutId: string, document: string, chargeId: string) => {
    const { data } = (await api("GET", `/v1/subscriptions?checkoutId=${checkoutId}&document=${document}`)).body as { data: Array<{ subscriptionId: string }> }
    expect(data).toHaveLength(1)
    const subscription = (await api("GET", `/v1/subscriptions/${data[0]!.subscriptionId}`)).body
    expect(subscription.checkoutUrl).toBe(`${engine.baseUrl}/pay/${chargeId}`)
    return subscription as { subscriptionId: string; pixRecurrencyId: string }
  }

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install it with 'apt-get update && apt-get install -y chromium' (.ci/run does)`)
    await mkdir(ARTIFACTS, { recursive: true })
    engine = await startEngine("postgres")
    const account = await engine.createAccount({ name: "Estúdio Luz" })
    headers = { authorization: `Bearer ${await engine.token(account)}`, "content-type": "application/json" }
    const course = await api("POST", "/v1/products", { name: "Curso de fotografia", type: "ONE_TIME", prices: [{ title: "Turma de março", amount: 1234.56 }] })
    prices.course = course.body.prices[0].priceId
    const ebook = await api("POST", "/v1/products", { name: "E-book de edição", type: "ONE_TIME", prices: [{ amount: 19.9 }] })
    prices.ebook = ebook.body.prices[0].priceId
    const workshop = await api("POST", "/v1/products", { name: "Oficina de luz", type: "ONE_TIME", prices: [{ amount: 100 }] })
    prices.workshop = workshop.body.prices[0].priceId
    const plan = await api("POST", "/v1/products", { name: "Clube da foto", type: "RECURRING", prices: [{ title: "Mensal", amount: 49.9, recurrenceType: "MONTHLY", recurrenceInterval: 1 }] })
    prices.monthly = plan.body.prices[0].priceId
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"]
    })
    context = await browser.newContext()
    await context.route("**/*", (route) => {
      const url = route.request().url()
      if (isLocal(url)) return route.continue()
      leaving.push(url)
      return route.abort("blockedbyclient")
    })
  }, 60_000)

  afterAll(async () => {
    // Asserted once every page has been opened: nothing left the machine, and the CSP never had to refuse anything.
    expect(leaving).toEqual([])
    expect(cspViolations).toEqual([])
    await browser?.close()
    await engine?.dispose()
  })

  it("a link's page: merchant, items and total in reais; paid by Pix while open, it turns to 'Pagamento confirmado' by itself", async () => {
    const pl = await link({ priceId: prices.course, allowedPaymentMethods: ["pix", "boleto", "creditcard"], maxInstallments: 6 })
    const page = await newPage()
    const response = await page.goto(pl.url)
    expect(response!.status()).toBe(200)
    const csp = response!.headers()["content-security-policy"]!
    expect(csp).toContain("default-src 'self'")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).not.toContain("unsafe-inline")
    // For the record (issue 31): how soon the page is interactive here, and what it weighs on the wire.
    const cost = await page.evaluate(() => {
      type Entry = { readonly domInteractive: number; readonly transferSize: number }
      const entries = (type: string) => (globalThis as any).performance.getEntriesByType(type) as Array<Entry>
      const [navigation] = entries("navigation")
      return { interactiveMs: Math.round(navigation!.domInteractive), bytes: navigation!.transferSize + entries("resource").reduce((sum, r) => sum + r.transferSize, 0) }
    })
    console.log(`checkout page: interactive after ${cost.interactiveMs} ms, ${cost.bytes} bytes transferred`)
    expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe("Estúdio Luz")
    await expect(page.locator(".summary").innerText()).resolves.toContain("Curso de fotografia")
    expect(await page.locator(".total strong").innerText()).toBe(brl("R$ 1.234,56"))
    for (const name of ["Pix", "Boleto", "Cartão de crédito"]) expect(await page.getByRole("radio", { name, exact: true }).count(), name).toBe(1)
    expect(await page.getByRole("radio", { name: "Pix Automático" }).count()).toBe(0)
    // Only the chosen method's fields show; the link allows 6 installments.
    expect(await page.getByLabel("Número do cartão").isVisible()).toBe(false)
    await page.getByRole("radio", { name: "Cartão de crédito" }).check()
    expect(await page.getByLabel("Parcelas").locator("option").count()).toBe(6)
    await page.getByRole("radio", { name: "Pix", exact: true }).check()
    await checkState(page, "link")

    await fillBuyer(page)
    await page.getByRole("button", { name: "Pagar" }).click()
    await page.waitForURL(/\/pay\/SANDBOX_cha_/)
    const qr = page.getByRole("img", { name: "QR Code Pix" })
    const code = await page.getByLabel("Pix copia e cola").inputValue()
    expect(code).toMatch(/^000201/)
    expect(decodeQr((await qr.getAttribute("src"))!)).toBe(code)
    expect(await page.getByLabel("Pix copia e cola").getAttribute("readonly")).not.toBeNull()
    expect(await page.getByRole("button", { name: "Copiar" }).isVisible()).toBe(true)
    expect(await page.locator(".deadline").innerText()).toMatch(/^Pague até \d{2}\/\d{2}\/\d{4},? \d{2}:\d{2}\.$/)
    await checkState(page, "pix-waiting")

    // A mark in the window survives only if the page is never reloaded.
    await page.evaluate(() => { (globalThis as any).stillThisPage = true })
    await payInSandbox(chargeIdOf(page))
    const status = page.getByRole("status")
    await status.getByText("Pagamento confirmado").waitFor({ timeout: 15_000 })
    expect(await status.getAttribute("aria-live")).toBe("polite")
    expect(await page.evaluate(() => (globalThis as any).stillThisPage)).toBe(true)
    expect(await qr.isVisible()).toBe(false)
    await checkState(page, "pix-paid")
    await page.close()
  })

  it("a card: refused first, the refusal shown plainly, then paid in 3 installments; the number goes only to the tokenization", async () => {
    const pl = await link({ priceId: prices.course, allowedPaymentMethods: ["creditcard"], maxInstallments: 6 })
    const page = await newPage()
    const posted: Array<{ url: string; body: string }> = []
    page.on("request", (request) => posted.push({ url: request.url(), body: request.postData() ?? "" }))
    await page.goto(pl.url)
    await fillBuyer(page)
    await fillCard(page, "4000000000000002")
    await page.getByRole("button", { name: "Pagar" }).click()
    const alert = page.getByRole("alert")
    await alert.getByText("Pagamento recusado").waitFor()
    expect(await alert.innerText()).toContain("recusado pelo emissor")
    // The buyer's data stays; the card must be typed again.
    expect(await page.getByLabel("Nome completo").inputValue()).toBe(buyer.name)
    expect(await page.getByLabel("Número do cartão").inputValue()).toBe("")
    await checkState(page, "card-refused")

    await fillCard(page, "4111111111111111")
    await page.getByRole("button", { name: "Pagar" }).click()
    await page.waitForURL(/\/pay\/SANDBOX_cha_/)
    await page.getByRole("status").getByText("Pagamento confirmado").waitFor()
    const charge = (await api("GET", `/v1/charges/${chargeIdOf(page)}?view=detail`)).body
    expect(charge).toMatchObject({ status: "PAID", amount: 1234.56 })
    expect(JSON.stringify(charge)).toContain("\"installments\":3")
    await checkState(page, "card-paid")

    const withNumber = posted.filter((r) => /4111111111111111|4000000000000002/.test(r.body))
    expect(withNumber.length).toBe(2)
    for (const request of withNumber) expect(new URL(request.url).pathname).toBe(`/pay/${pl.id}/tokenize`)
    await page.close()
  })

  it("a boleto without JavaScript: a plain form post shows its line, and the PDF link answers a PDF", async () => {
    const pl = await link({ priceId: prices.course, allowedPaymentMethods: ["boleto"] })
    const plain = await browser.newContext({ javaScriptEnabled: false })
    await plain.route("**/*", (route) => (isLocal(route.request().url()) ? route.continue() : (leaving.push(route.request().url()), route.abort("blockedbyclient"))))
    const page = await newPage(plain)
    await page.goto(pl.url)
    await fillBuyer(page)
    await page.getByLabel("CEP").fill(address.zip)
    await page.getByLabel("Rua").fill(address.street)
    await page.getByLabel("Número", { exact: true }).fill(address.number)
    await page.getByLabel("Bairro").fill(address.neighborhood)
    await page.getByLabel("Cidade").fill(address.city)
    await page.getByLabel("UF").fill(address.state)
    await page.getByRole("button", { name: "Pagar" }).click()
    await page.waitForURL(/\/pay\/SANDBOX_cha_/)
    const line = await page.getByLabel("Linha digitável").inputValue()
    expect(line.replace(/\D/g, "")).toHaveLength(47)
    const pdf = await fetch(new URL((await page.getByRole("link", { name: "Baixar o boleto (PDF)" }).getAttribute("href"))!, engine.baseUrl))
    expect(pdf.status).toBe(200)
    expect(pdf.headers.get("content-type")).toMatch(/^application\/pdf/)
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).toBe("%PDF-")
    // axe needs JavaScript: the same page, opened where it runs, with its copy button.
    const chargeUrl = page.url()
    await plain.close()
    const seen = await newPage()
    await seen.goto(chargeUrl)
    expect(await seen.getByRole("button", { name: "Copiar" }).isVisible()).toBe(true)
    await checkState(seen, "boleto")
    await seen.close()
  })

  it("a Pix code without JavaScript, and the API's message next to the field it names", async () => {
    const pl = await link({ priceId: prices.course, allowedPaymentMethods: ["pix"] })
    const post = (form: Record<string, string>) =>
      fetch(pl.url, { method: "POST", redirect: "manual", body: new URLSearchParams(form) })
    const refused = await post({ paymentMethod: "pix", "customer.name": buyer.name, "customer.email": buyer.email, "customer.documentNumber": "12345678900" })
    expect(refused.status).toBe(400)
    const html = await refused.text()
    // The invalid CPF's message sits in the error slot of its field, and the field is marked invalid.
    expect(html).toMatch(/id="f-customer-documentNumber"[^>]*aria-invalid="true"/)
    expect(html).toMatch(/<p class="field-error" id="e-customer-documentNumber">[^<]+<\/p>/)
    const paid = await post({ paymentMethod: "pix", "customer.name": buyer.name, "customer.email": buyer.email, "customer.documentNumber": buyer.document })
    expect(paid.status).toBe(303)
    const page = await (await fetch(new URL(paid.headers.get("location")!, engine.baseUrl))).text()
    expect(page).toContain("Pix copia e cola")
    expect(page).toMatch(/<textarea id="pix-code" readonly rows="3">000201/)
  })

  it("a session: its customer pre-filled and read-only; once paid, its page says so (410)", async () => {
    const session = (await api("POST", "/v1/checkout-sessions", {
      priceId: prices.course,
      allowedPaymentMethods: ["pix"],
      customer: { name: "Bruno Lima", email: "bruno@example.com", documentNumber: "39053344705" }
    })).body as { id: string; url: string }
    const page = await newPage()
    await page.goto(session.url)
    const name = page.getByLabel("Nome completo")
    expect(await name.inputValue()).toBe("Bruno Lima")
    expect(await name.isEditable()).toBe(false)
    expect(await page.getByLabel("CPF ou CNPJ").inputValue()).toBe("39053344705")
    await checkState(page, "session")
    // By keyboard alone: Tab reaches the button through every control, each showing where the focus is.
    await page.reload()
    let reached = false
    for (let i = 0; i < 20 && !reached; i++) {
      await page.keyboard.press("Tab")
      const focus = await page.evaluate(() => {
        const element = (globalThis as any).document.activeElement
        const style = (globalThis as any).getComputedStyle(element)
        return { text: element.textContent as string, tag: element.tagName as string, outline: `${style.outlineStyle} ${style.outlineWidth}` }
      })
      expect(focus.outline, focus.tag).not.toMatch(/^none|0px$/)
      reached = focus.tag === "BUTTON" && focus.text === "Pagar"
    }
    expect(reached).toBe(true)
    await page.keyboard.press("Enter")
    await page.waitForURL(/\/pay\/SANDBOX_cha_/)
    const detail = (await api("GET", `/v1/charges/${chargeIdOf(page)}?view=detail`)).body
    expect(detail.customer).toMatchObject({ name: "Bruno Lima", documentNumber: "39053344705" })
    const again = await page.goto(session.url)
    expect(again!.status()).toBe(410)
    await page.getByRole("heading", { name: "Este pagamento já foi feito" }).waitFor()
    await checkState(page, "session-paid")
    await page.close()
  })

  it("a subscription's checkoutUrl paid by Pix: the subscription turns ACTIVE and the URL shows it paid", async () => {
    const created = await api("POST", "/v1/charges", {
      paymentMethod: "pix",
      customer: { name: buyer.name, email: buyer.email, documentNumber: buyer.document },
      items: [{ priceId: prices.monthly }]
    })
    expect(created.status).toBe(200)
    const { subscriptionId, chargeId } = created.body
    const { checkoutUrl } = (await api("GET", `/v1/subscriptions/${subscriptionId}`)).body
    expect(checkoutUrl).toBe(`${engine.baseUrl}/pay/${chargeId}`)
    const page = await newPage()
    await page.goto(checkoutUrl)
    const summary = await page.locator(".summary").innerText()
    expect(summary).toContain("Clube da foto")
    expect(summary).toContain("por mês")
    expect(await page.locator(".total strong").innerText()).toBe(brl("R$ 49,90"))
    await page.getByRole("img", { name: "QR Code Pix" }).waitFor()
    await checkState(page, "subscription")
    await payInSandbox(chargeId)
    await page.getByRole("status").getByText("Pagamento confirmado").waitFor({ timeout: 15_000 })
    expect((await api("GET", `/v1/subscriptions/${subscriptionId}`)).body.status).toBe("ACTIVE")
    await page.goto(checkoutUrl)
    await page.getByRole("status").getByText("Pagamento confirmado").waitFor()
    expect(await page.getByRole("img", { name: "QR Code Pix" }).count()).toBe(0)
    await checkState(page, "subscription-paid")
    await page.close()
  })

  it("an unknown link is a 404 page and a deactivated one a 410 page, never JSON", async () => {
    const page = await newPage()
    for (const path of ["/pay/SANDBOX_pl_nope", "/pay/SANDBOX_cha_nope", "/pay/anything"]) {
      const response = await page.goto(`${engine.baseUrl}${path}`)
      expect([path, response!.status(), response!.headers()["content-type"]]).toEqual([path, 404, "text/html; charset=utf-8"])
      await page.getByRole("heading", { name: "Página não encontrada" }).waitFor()
    }
    await checkState(page, "unknown")
    const pl = await link({ priceId: prices.course, allowedPaymentMethods: ["pix"] })
    expect((await api("PUT", `/v1/checkouts/${pl.id}`, { status: "INACTIVE" })).status).toBe(200)
    const gone = await page.goto(pl.url)
    expect(gone!.status()).toBe(410)
    await page.getByRole("heading", { name: "Link indisponível" }).waitFor()
    await checkState(page, "inactive")
    await page.close()
  })

  it("a card token is good only on the link it was made for, and only a link that takes cards tokenizes", async () => {
    const card = { number: "4111111111111111", name: "ANA SOUZA", expiration: `12/${new Date().getUTCFullYear() + 5}`, cvv: "123" }
    const tokenize = (id: string) =>
      fetch(`${engine.baseUrl}/pay/${id}/tokenize`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ card }) })
    const mine = await link({ priceId: prices.course, allowedPaymentMethods: ["creditcard"] })
    const other = await link({ priceId: prices.course, allowedPaymentMethods: ["creditcard"] })
    const pixOnly = await link({ priceId: prices.course, allowedPaymentMethods: ["pix"] })
    const issued = await tokenize(mine.id)
    expect(issued.status).toBe(200)
    const { cardToken, lastFour } = await issued.json()
    expect(lastFour).toBe("1111")
    expect(cardToken).not.toContain(card.number)
    expect((await tokenize(pixOnly.id)).status).toBe(400)
    expect((await tokenize("SANDBOX_pl_nope")).status).toBe(404)
    const form = { paymentMethod: "creditcard", "customer.name": buyer.name, "customer.email": buyer.email, "customer.documentNumber": buyer.document, installments: "1", cardToken }
    const elsewhere = await fetch(other.url, { method: "POST", redirect: "manual", body: new URLSearchParams(form) })
    expect(elsewhere.status).toBe(400)
    expect(await elsewhere.text()).toContain("the card was not tokenized for this checkout")
    const here = await fetch(mine.url, { method: "POST", redirect: "manual", body: new URLSearchParams(form) })
    expect(here.status).toBe(303)
  })

  it("a link in the merchant's colors (one too light, adjusted to AA), an order bump in the total and the charge, the success message, the confirmation and the redirect after Pix", async () => {
    const redirect = `${engine.baseUrl}/loja/obrigado`
    const pl = await link({
      priceId: prices.course,
      allowedPaymentMethods: ["pix", "creditcard"],
      checkoutName: "Turma de março",
      primaryColor: "#F5D90A",
      secondaryColor: "#fdf6e3",
      fontColor: "#1a1a1a",
      successMessage: "Obrigado! O acesso ao curso chega no seu e-mail.",
      redirectAfterPaymentUrl: redirect,
      orderBumps: [{ priceId: prices.ebook, label: "Leve também o e-book", displayMode: "checkbox" }]
    })
    const page = await newPage()
    await page.goto(pl.url)
    // Yellow on white is 1.4:1: the page darkens it, says so, and its buttons use the darker color.
    const body = page.locator("body")
    expect(await body.getAttribute("data-color-primary-adjusted-from")).toBe("#F5D90A")
    const used = (await body.getAttribute("data-color-primary"))!
    expect(used).toMatch(/^#[0-9a-f]{6}$/)
    expect(contrastRatio("#F5D90A", "#ffffff")).toBeLessThan(4.5)
    expect(contrastRatio(used, "#ffffff")).toBeGreaterThanOrEqual(4.5)
    expect(await page.getByRole("button", { name: "Pagar" }).evaluate((b) => (globalThis as any).getComputedStyle(b).backgroundColor)).toBe(rgbOf(used))
    // The colors that pass are used as given, and recorded as such.
    expect(await body.getAttribute("data-color-secondary")).toBe("#fdf6e3")
    expect(await body.getAttribute("data-color-secondary-adjusted-from")).toBeNull()
    expect(await body.evaluate((b) => (globalThis as any).getComputedStyle(b).backgroundColor)).toBe(rgbOf("#fdf6e3"))
    expect(await page.getByRole("heading", { name: "Turma de março" }).count()).toBe(1)

    expect(await page.locator(".total strong").innerText()).toBe(brl("R$ 1.234,56"))
    const bump = page.getByRole("checkbox", { name: /Leve também o e-book/ })
    expect(await page.locator(".bump").innerText()).toContain(brl("+ R$ 19,90"))
    await bump.check()
    // 1.234,56 + 19,90
    await page.locator(".total strong").getByText(brl("R$ 1.254,46")).waitFor()
    await checkState(page, "link-colors-bump")
    // The README's picture (docs/images/checkout-page.png): the first screen at 1280 px.
    await page.setViewportSize({ width: 1280, height: 720 })
    await page.screenshot({ path: join(ARTIFACTS, "readme-1280.png") })
    await page.setViewportSize({ width: 360, height: 800 })

    await fillBuyer(page)
    await page.getByRole("button", { name: "Pagar" }).click()
    await page.waitForURL(/\/pay\/SANDBOX_cha_/)
    const chargeId = chargeIdOf(page)
    expect((await api("GET", `/v1/charges/${chargeId}`)).body.amount).toBe(1254.46)
    await payInSandbox(chargeId)
    const status = page.getByRole("status")
    await status.getByText("Pagamento confirmado").waitFor({ timeout: 15_000 })
    const paidAt = (await api("GET", `/v1/charges/${chargeId}`)).body.paidAt as string
    const receipt = await page.locator(".receipt").innerText()
    expect(receipt).toContain(brl("R$ 1.254,46"))
    expect(receipt).toMatch(/Forma de pagamento\s+Pix/)
    expect(receipt).toContain(saoPaulo(paidAt))
    expect(await status.innerText()).toContain("Obrigado! O acesso ao curso chega no seu e-mail.")
    expect(await page.getByRole("link", { name: "Voltar para a loja" }).getAttribute("href")).toBe(redirect)
    await checkState(page, "pix-confirmation")
    // Then the page takes the buyer back to the shop by itself.
    await page.waitForURL(redirect, { timeout: 20_000 })
    await page.close()
  })

  it("installments with the fees passed to the buyer, a coupon applied live, and a card's confirmation", async () => {
    expect((await api("POST", "/v1/coupons", { code: "LUZ10", name: "Dez por cento", discountType: "PERCENTAGE", discountValue: 10 })).status).toBe(201)
    const pl = await link({ priceId: prices.workshop, allowedPaymentMethods: ["creditcard"], maxInstallments: 4, freeInstallments: 1, passFeesToCustomer: true })
    const page = await newPage()
    await page.goto(pl.url)
    await page.getByRole("radio", { name: "Cartão de crédito" }).check()
    const options = () => page.getByLabel("Parcelas").locator("option").allInnerTexts()
    // R$ 100,00 with 1.99% per installment beyond the first, borne by the buyer.
    expect(await options()).toEqual([
      brl("À vista · R$ 100,00"),
      `2x · total ${brl("R$ 101,99")} (inclui ${brl("R$ 1,99")} de juros)`,
      `3x · total ${brl("R$ 103,98")} (inclui ${brl("R$ 3,98")} de juros)`,
      `4x · total ${brl("R$ 105,97")} (inclui ${brl("R$ 5,97")} de juros)`
    ])
    const coupon = page.getByLabel("Cupom de desconto (opcional)")
    await coupon.fill("NAOEXISTE")
    await page.getByRole("button", { name: "Aplicar cupom" }).click()
    await page.locator("#coupon-result").getByText("Cupom não encontrado.").waitFor()
    expect(await page.locator(".total strong").innerText()).toBe(brl("R$ 100,00"))
    await coupon.fill("LUZ10")
    await page.getByRole("button", { name: "Aplicar cupom" }).click()
    await page.locator("#coupon-result").getByText(`Cupom aplicado: desconto de ${brl("R$ 10,00")}.`).waitFor()
    expect(await page.locator(".total strong").innerText()).toBe(brl("R$ 90,00"))
    expect(await page.locator("#discount-amount").innerText()).toBe(`-${brl("R$ 10,00")}`)
    // 3.98% of R$ 90,00 is R$ 3,582, rounded to R$ 3,58.
    expect((await options())[2]).toBe(`3x · total ${brl("R$ 93,58")} (inclui ${brl("R$ 3,58")} de juros)`)
    await checkState(page, "coupon-installments")

    await fillBuyer(page)
    await fillCard(page, "4111111111111111")
    await page.getByRole("button", { name: "Pagar" }).click()
    await page.waitForURL(/\/pay\/SANDBOX_cha_/)
    await page.getByRole("status").getByText("Pagamento confirmado").waitFor()
    const charge = (await api("GET", `/v1/charges/${chargeIdOf(page)}`)).body
    expect(charge).toMatchObject({ status: "PAID", amount: 93.58 })
    const receipt = await page.locator(".receipt").innerText()
    expect(receipt).toContain(brl("R$ 93,58"))
    expect(receipt).toContain("Cartão de crédito em 3x")
    expect(receipt).toContain(saoPaulo(charge.paidAt))
    await checkState(page, "card-confirmation")
    await page.close()
  })

  it("refuses a link's settings out of bounds with 400 naming the field, on create and update, storing nothing", async () => {
    const settings = { primaryColor: "#112233", successUrl: "https://loja.example.com/ok", maxInstallments: 6 }
    const pl = await link({ priceId: prices.course, allowedPaymentMethods: ["pix"], ...settings })
    const cases: Array<[string, Record<string, unknown>]> = [
      ["primaryColor", { primaryColor: "red" }],
      ["secondaryColor", { secondaryColor: "#12345" }],
      ["fontColor", { fontColor: "#GGGGGG" }],
      ["successUrl", { successUrl: "http://loja.example.com/ok" }],
      ["cancelUrl", { cancelUrl: "/carrinho" }],
      ["redirectAfterPaymentUrl", { redirectAfterPaymentUrl: "javascript:alert(1)" }],
      ["checkoutName", { checkoutName: "x".repeat(201) }],
      ["successMessage", { successMessage: "x".repeat(501) }],
      ["maxInstallments", { maxInstallments: 13 }],
      ["maxInstallments", { maxInstallments: 0 }],
      ["freeInstallments", { maxInstallments: 6, freeInstallments: 7 }],
      ["passFeesToCustomer", { passFeesToCustomer: "sim" }],
      ["showProductImage", { showProductImage: "yes" }],
      ["orderBumps[0].displayMode", { orderBumps: [{ priceId: prices.ebook, label: "E-book", displayMode: "radio" }] }]
    ]
    const fieldOf = (error: { details: unknown }) => (Array.isArray(error.details) ? error.details[0]?.field : (error.details as { field?: string } | null)?.field)
    const before = (await api("GET", "/v1/checkouts?limit=100")).body.items.length
    for (const [field, body] of cases) {
      const created = await api("POST", "/v1/checkouts", { priceId: prices.course, allowedPaymentMethods: ["pix"], ...body })
      expect([created.status, created.body.error?.code, fieldOf(created.body.error)], `POST ${field}`).toEqual([400, "INVALID_DATA", field])
      const updated = await api("PUT", `/v1/checkouts/${pl.id}`, body)
      expect([updated.status, updated.body.error?.code, fieldOf(updated.body.error)], `PUT ${field}`).toEqual([400, "INVALID_DATA", field])
    }
    expect((await api("GET", "/v1/checkouts?limit=100")).body.items.length).toBe(before)
    expect((await api("GET", `/v1/checkouts/${pl.id}`)).body.settings).toEqual(settings)
  })

  it("Pix Automático on a link that allows it: the composite QR with the recurrence, paid and then authorized while the page is open; a refusal shown too", async () => {
    // The first test's link (pix, boleto, card) offers no "Pix Automático" radio; this one allows it.
    const pl = await link({ priceId: prices.monthly, allowedPaymentMethods: ["pix", "pix_automatico"] })
    const page = await newPage()
    await page.goto(pl.url)
    for (const name of ["Pix", "Pix Automático"]) expect(await page.getByRole("radio", { name, exact: true }).count(), name).toBe(1)
    await page.getByRole("radio", { name: "Pix Automático" }).check()
    await fillBuyer(page)
    await page.getByRole("button", { name: "Pagar" }).click()
    await page.waitForURL(/\/pay\/SANDBOX_cha_/)
    const chargeId = chargeIdOf(page)
    const subscription = await subscriptionOf(pl.id, buyer.document, chargeId)
    const { subscriptionId } = subscription
    expect(subscription).toMatchObject({ status: "PENDING", paymentType: "PIX_AUTOMATICO", pixRecurrenceStatus: "PENDING" })
    const recurrencyId = subscription.pixRecurrencyId
    // One code pays the first charge and carries the recurrence the bank is asked to authorize.
    const qr = page.getByRole("img", { name: "QR Code Pix Automático" })
    const code = await page.getByLabel("Pix copia e cola").inputValue()
    expect(decodeQr((await qr.getAttribute("src"))!)).toBe(code)
    const parsed = Brazil.parseBrCode(code)
    expect(Result.isSuccess(parsed) && parsed.success.recurrenceLocation).toContain(recurrencyId)
    expect(Result.isSuccess(parsed) && parsed.success.location).toBeTruthy()
    const authorization = page.locator("#authorization-state")
    expect(await authorization.getAttribute("role")).toBe("status")
    expect(await authorization.innerText()).toBe("Aguardando a resposta do seu banco sobre o Pix Automático.")
    await checkState(page, "pix-automatico-waiting")

    await page.evaluate(() => { (globalThis as any).stillThisPage = true })
    await payInSandbox(chargeId)
    await page.locator("#status").getByText("Pagamento confirmado").waitFor({ timeout: 15_000 })
    expect(await page.locator(".receipt").innerText()).toMatch(/Forma de pagamento\s+Pix Automático/)
    expect(await qr.isVisible()).toBe(false)
    // Paid, the subscription still waits for the bank, and the page keeps following it.
    expect((await api("GET", `/v1/subscriptions/${subscriptionId}`)).body.status).toBe("PENDING")
    expect(await authorization.innerText()).toContain("Aguardando")
    expect((await api("POST", `/v1/subscriptions/pix-automatico/${recurrencyId}/authorize`, {})).status).toBe(200)
    await authorization.getByText("Seu banco autorizou o Pix Automático").waitFor({ timeout: 15_000 })
    expect(await page.evaluate(() => (globalThis as any).stillThisPage)).toBe(true)
    expect((await api("GET", `/v1/subscriptions/${subscriptionId}`)).body.status).toBe("ACTIVE")
    await checkState(page, "pix-automatico-authorized")

    // Another buyer's bank refuses before any payment: the charge's page says so (the live change is the same as above).
    const form = { paymentMethod: "pix_automatico", "customer.name": "Carla Dias", "customer.email": "carla@example.com", "customer.documentNumber": "39053344705" }
    const posted = await fetch(pl.url, { method: "POST", redirect: "manual", body: new URLSearchParams(form) })
    expect(posted.status).toBe(303)
    const refusedPage = new URL(posted.headers.get("location")!, engine.baseUrl)
    const refused = await subscriptionOf(pl.id, form["customer.documentNumber"], refusedPage.pathname.split("/").at(-1)!)
    expect((await api("POST", `/v1/subscriptions/pix-automatico/${refused.pixRecurrencyId}/reject`, {})).status).toBe(200)
    // The public status route answers the bank's answer on this charge's own recurrence.
    expect(await (await fetch(`${engine.baseUrl}${refusedPage.pathname}/status`)).json()).toMatchObject({ status: "PENDING", recurrenceAuthorization: "REJECTED" })
    await page.goto(refusedPage.href)
    expect(await authorization.innerText()).toMatch(/^Seu banco recusou o Pix Automático/)
    expect(await page.locator("#status").innerText()).toBe("Aguardando o pagamento.")
    await checkState(page, "pix-automatico-refused")
    await page.close()
  })

  // Last: it spends this address's budget of payments and tokenizations (30 a quarter hour), which the tests above share.
  it("throttles payments and tokenizations per address: 429 in the envelope for the script, a page for the form", async () => {
    const pl = await link({ priceId: prices.course, allowedPaymentMethods: ["creditcard"] })
    const tokenize = () => fetch(`${engine.baseUrl}/pay/${pl.id}/tokenize`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ card: { number: "1", cvv: "1", name: "x", expiration: "1" } }) })
    let answer = await tokenize()
    for (let i = 0; i < 40 && answer.status !== 429; i++) {
      expect(answer.status).toBe(400)
      answer = await tokenize()
    }
    expect(answer.status).toBe(429)
    expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0)
    expect((await answer.json()).error.code).toBe("TOO_MANY_REQUESTS")
    const form = await fetch(pl.url, { method: "POST", body: new URLSearchParams({ paymentMethod: "pix" }) })
    expect(form.status).toBe(429)
    expect(await form.text()).toContain("Muitas tentativas")
    // Reading has its own budget: the page still opens.
    expect((await fetch(pl.url)).status).toBe(200)
  })
})
