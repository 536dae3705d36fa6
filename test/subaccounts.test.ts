/**
 * Sub-accounts through real HTTP on PostgreSQL: PF and PJ proposals, every
 * validation error (in the envelope) and refusal (`{ message, code }`
 * without it), the onboarding run by the worker's job and by the sandbox
 * route, its events, the signed `account_approved`, the new sub-account
 * owing its opening fee and charging with its master's fees, the list and
 * the CNPJ lookup. Documents are built with check digits computed here.
 */
import { Billing, verifyWebhookSignature } from "@billing/core"
import { chargesPass, deliveryPass } from "@billing/worker"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { chromium } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { apiCaller } from "./support/Api.ts"
import { startEngine, type TestEngine } from "./support/Engine.ts"
import { startReceiver } from "./support/Receiver.ts"

/** The mod-11 check digit of `digits` under `weights` (Receita Federal's rule, written here apart from the engine's). */
const mod11 = (digits: string, weights: ReadonlyArray<number>) => {
  const rest = [...digits].reduce((sum, d, i) => sum + Number(d) * weights[i]!, 0) % 11
  return rest < 2 ? "0" : String(11 - rest)
}
/** A valid CPF whose first nine digits are `base`. */
const cpf = (base: string) => {
  const first = base + mod11(base, [10, 9, 8, 7, 6, 5, 4, 3, 2])
  return first + mod11(first, [11, 10, 9, 8, 7, 6, 5, 4, 3, 2])
}
/** A valid CNPJ whose first twelve digits are `base`. */
const cnpj = (base: string) => {
  const first = base + mod11(base, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2])
  return first + mod11(first, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2])
}

const address = { postalCode: "06455-030", street: "Alameda Xingu", number: "350", addressComplement: "", neighborhood: "Alphaville Industrial", city: "Barueri", state: "SP" }

/** The provider's PF example, with `document`. */
const pfProposal = (document: string, extra: Record<string, unknown> = {}) => ({
  documentNumber: document,
  phoneNumber: "+5511912345678",
  email: "richard@example.com",
  motherName: "Teste Mãe",
  fullName: "Richard Feynman",
  socialName: "",
  birthDate: "31-12-2000",
  address,
  isPoliticallyExposedPerson: false,
  financialDetails: { declaredIncome: "1DINP02", occupation: "ONP07", netWorth: "NWNP02" },
  ...extra
})

/** The provider's PJ example, with `document` and one partner of CPF `owner`. */
const pjProposal = (document: string, owner: string, extra: Record<string, unknown> = {}) => ({
  contactNumber: "+5511912345678",
  documentNumber: document,
  businessEmail: "empresa@example.com",
  businessName: "Valida Testes LTDA",
  tradingName: "Valida Testes",
  companyType: "PJ",
  owner: [{
    ownerType: "SOCIO",
    documentNumber: owner,
    fullName: "Cesar Lattes",
    phoneNumber: "+5511912345128",
    email: "socio@example.com",
    motherName: "Marie Curie",
    socialName: "Nome",
    birthDate: "02-02-1990",
    address,
    isPoliticallyExposedPerson: false,
    financialOwnerDetails: { ownerDeclaredIncome: "ODIB02", ownerDeclaredRevenue: "ODRB02" }
  }],
  businessAddress: address,
  ...extra
})

describe("sub-accounts on postgres", () => {
  let engine: TestEngine
  const sql = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) => engine.run(Effect.flatMap(SqlClient.SqlClient, f))

  const master = async () => {
    const account = await engine.createAccount({ email: "master@example.com" })
    const token = await engine.token(account)
    const call = apiCaller(engine.baseUrl, token)
    const events = async (prefix: string) =>
      (await sql((s) => s<{ body: string }>`SELECT body FROM outbox WHERE account_id = ${account.accountId} AND event LIKE ${prefix + "%"} ORDER BY id`))
        .map((row) => JSON.parse(row.body))
    return { account, call, events }
  }

  beforeAll(async () => {
    engine = await startEngine("postgres")
  })
  afterAll(() => engine?.dispose())

  it("opens a PF sub-account: complete form FINISHED, the worker's onboarding waits for the documents, then the account, its events and a signed account_approved", async () => {
    const { account, call, events } = await master()
    const receiver = await startReceiver()
    try {
      const document = cpf("529982247")
      const sent = await call("POST", "/v1/proposals", pfProposal(document, { webhookUrl: receiver.url }))
      expect(sent.status, JSON.stringify(sent.body)).toBe(200)
      expect(sent.body).toMatchObject({ status: "FINISHED", message: "Formulário criado com sucesso", pendingFields: [] })
      expect(sent.body.formId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
      const secret = sent.body.webhookSecret as string
      expect(secret).toMatch(/^whsec_/)

      // The background check runs; the documents copy waits for the owner's documents.
      await engine.run(Billing.onboardProposals(100))
      const waiting = (await call("GET", `/v1/proposals/${sent.body.formId}`)).body
      expect(waiting).toMatchObject({
        documentNumber: document,
        type: "PF",
        fullName: "Richard Feynman",
        birthDate: "31-12-2000",
        address: { postalCode: "06455030", state: "SP" },
        metaData: { formId: sent.body.formId, origin: "API" },
        proposalStatus: { form: "FINISHED", backgroundCheck: "APPROVED", documents: "PENDING", proposal: "PENDING", account: "PENDING" },
        accountNumber: null
      })
      expect(waiting.proposalStatus.urlDocumentscopy).toMatch(new RegExp(`^${engine.baseUrl}/v1/sandbox/documentscopy/[0-9a-f]{32}$`))

      // The owner sends a document on the page, in a real browser.
      const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox"] })
      try {
        const page = await browser.newPage()
        await page.goto(waiting.proposalStatus.urlDocumentscopy)
        await page.setInputFiles("#documents", { name: "rg-frente.png", mimeType: "image/png", buffer: Buffer.from("not really a photo") })
        await Promise.all([page.waitForURL(waiting.proposalStatus.urlDocumentscopy), page.click("button[type=submit]")])
        expect(await page.textContent("#status")).toContain("Documentos recebidos")
      } finally {
        await browser.close()
      }
      const receipt = await fetch(waiting.proposalStatus.urlDocumentscopy)
      expect([receipt.status, receipt.headers.get("content-type")]).toEqual([200, "text/html; charset=utf-8"])
      expect(await receipt.text()).toContain("Documentos recebidos")
      expect((await fetch(`${engine.baseUrl}/v1/sandbox/documentscopy/${"0".repeat(32)}`)).status).toBe(404)
      // A broken or oversized upload is refused, not a 500.
      const upload = (body: string | FormData, contentType?: string) =>
        fetch(waiting.proposalStatus.urlDocumentscopy, { method: "POST", body, ...(contentType ? { headers: { "content-type": contentType } } : {}) })
      const broken = await upload("--x\r\ngarbage", "multipart/form-data; boundary=x")
      expect(broken.status).toBe(400)
      const big = new FormData()
      big.append("documents", new Blob([new Uint8Array(2 * 1024 * 1024)]), "big.png")
      expect((await upload(big)).status).toBe(413)
      await engine.run(Billing.onboardProposals(100))
      const opened = (await call("GET", `/v1/proposals/${sent.body.formId}`)).body
      expect(opened.proposalStatus).toMatchObject({ documents: "APPROVED", proposal: "APPROVED", account: "CONFIRMED" })
      expect(opened.accountNumber).toMatch(/^\d+$/)

      const onboarding = await events("onboarding.")
      expect(onboarding.map((e) => [e.event, e.status])).toEqual([
        ["onboarding.backgroundcheck", "APPROVED"],
        ["onboarding.documentscopy", "APPROVED"],
        ["onboarding.proposal", "APPROVED"],
        ["onboarding.create", "CONFIRMED"]
      ])
      expect(onboarding[3]).toMatchObject({
        accountId: account.accountId,
        formId: sent.body.formId,
        documentNumber: document,
        data: { account: opened.accountNumber, branch: "0001", documentNumber: document, name: "Richard Feynman" }
      })

      // account_approved reaches the proposal's webhookUrl, signed with the registration's secret.
      await engine.run(deliveryPass())
      const approved = receiver.received.find((r) => JSON.parse(r.body).event === "account_approved")!
      expect(approved).toBeDefined()
      expect(await verifyWebhookSignature({ header: approved.headers["x-webhook-signature"] as string, body: approved.body, secret })).toMatchObject({ valid: true })
      expect(JSON.parse(approved.body)).toMatchObject({
        event: "account_approved",
        status: "CONFIRMED",
        account: { account: opened.accountNumber, branch: "0001", documentNumber: document, ispb: "99999999", name: "Richard Feynman" },
        onboardingId: opened.onboardingId,
        documentNumber: document,
        formId: sent.body.formId,
        createdAt: expect.any(String)
      })
      // Only the registration made for the proposal's URL got it, and none of the master's other events.
      expect(receiver.received.map((r) => JSON.parse(r.body).event)).toEqual(["account_approved"])

      // The sub-account owes its 15.00 opening fee; its first Pix (20.00, the default 0.67 fee: 19.33 net) pays it: 4.33 left.
      const sub = { "x-sub-account": opened.accountNumber }
      expect((await call("GET", "/v1/wallet/balance", undefined, sub)).body).toMatchObject({ availableBalance: 0, debtBalance: 15 })
      const charge = await call("POST", "/v1/charges/pix", { amount: 20 }, sub)
      expect(charge.status, JSON.stringify(charge.body)).toBe(200)
      expect((await call("POST", `/v1/wallet/pay/${charge.body.chargeId}`, undefined, sub)).status).toBe(200)
      await engine.run(chargesPass())
      expect((await call("GET", `/v1/charges/${charge.body.chargeId}?view=detail`, undefined, sub)).body).toMatchObject({ fees: { total: 0.67 } })
      expect((await call("GET", "/v1/wallet/balance", undefined, sub)).body).toMatchObject({ availableBalance: 4.33, debtBalance: 0 })
      // The statement names the fee's payment a FEE: 15.00 from the available balance, and off the debt.
      const feePaid = (await call("GET", "/v1/wallet/transactions?category=FEE", undefined, sub)).body.transactions
      expect(feePaid.map((t: any) => [t.type, t.amount, t.title])).toEqual(expect.arrayContaining([["DEBIT", 15, "Pagamento de débito"]]))

      // The list, in the provider's shape.
      const list = (await call("GET", "/v1/accounts/subaccounts?page=1&perPage=15")).body
      expect(list).toMatchObject({ masterAccountId: account.accountId, page: 1, perPage: 15, hasMore: false, totalItems: 1 })
      expect(list.subAccounts).toEqual([expect.objectContaining({
        accountNumber: opened.accountNumber,
        name: "Richard Feynman",
        documentNumber: document,
        status: "CONFIRMED",
        onboardingId: opened.onboardingId,
        dailyWithdrawalLimit: 3000,
        balance: 4.33
      })])
      expect((await call("GET", "/v1/accounts/subaccounts?dateFrom=2000-01-01&dateTo=2000-12-31")).body.subAccounts).toEqual([])
      // The same document again: the master has that sub-account already.
      const again = await call("POST", "/v1/proposals", pfProposal(document))
      expect([again.status, again.body]).toEqual([400, { message: expect.any(String), code: "SUBACCOUNT_ALREADY_EXISTS" }])
    } finally {
      await receiver.close()
    }
  })

  it("delivers onboarding.create with the sub-account's number as a string in data.account, its bank details beside it", async () => {
    const { account, call } = await master()
    const receiver = await startReceiver()
    try {
      await call("POST", "/v1/users/webhooks", { url: receiver.url, events: ["onboarding.create"] })
      const document = cpf("123123123")
      const { formId } = (await call("POST", "/v1/proposals", pfProposal(document))).body
      const opened = (await call("POST", `/v1/sandbox/proposals/${formId}/advance`)).body
      expect(opened.accountNumber).toMatch(/^\d+$/)
      await engine.run(deliveryPass())
      const [created, ...others] = receiver.received.map((r) => JSON.parse(r.body))
      expect(others).toEqual([])
      // The spec: "account number in `data.account`", a string a receiver can use as X-Sub-Account as it is.
      expect(created).toMatchObject({
        event: "onboarding.create",
        accountId: account.accountId,
        formId,
        status: "CONFIRMED",
        data: { account: opened.accountNumber, branch: "0001", documentNumber: document, ispb: "99999999", name: "Richard Feynman" }
      })
      expect((await call("GET", "/v1/wallet/balance", undefined, { "x-sub-account": created.data.account })).status).toBe(200)
    } finally {
      await receiver.close()
    }
  })

  it("completes an unfinished PJ form: 201 UNFINISHED with its pending fields, then 200 FINISHED with the same formId; the sandbox route opens it and the CNPJ finds it", async () => {
    const { account, call } = await master()
    // This master charges 0.99 + 1.50% on Pix: its sub-accounts charge the same.
    await sql((s) => s`INSERT INTO account_fees (account_id, payment_method, fixed_cents, percent_hundredths) VALUES (${account.accountId}, 'pix', 99, 150)`)
    // And opens its sub-accounts for 5.00 instead of 15.00.
    await sql((s) => s`INSERT INTO subaccount_fees (account_id, opening_fee_cents) VALUES (${account.accountId}, 500)`)
    const document = cnpj("114447770001")
    const partial = pjProposal(document, cpf("123456789"), { businessAddress: { ...address, postalCode: null, city: "" } })
    delete (partial.owner[0] as Record<string, unknown>).motherName
    const first = await call("POST", "/v1/proposals", partial)
    expect(first.status, JSON.stringify(first.body)).toBe(201)
    expect(first.body).toMatchObject({
      status: "UNFINISHED",
      message: "Formulário criado com sucesso",
      pendingFields: ["businessAddress.postalCode", "businessAddress.city", "owner[0].motherName"]
    })
    const advanceEarly = await call("POST", `/v1/sandbox/proposals/${first.body.formId}/advance`)
    expect([advanceEarly.status, advanceEarly.body.code]).toEqual([400, "FORM_UNFINISHED"])

    const completed = await call("POST", "/v1/proposals", { ...pjProposal(document, cpf("123456789")), formId: first.body.formId })
    expect(completed.status, JSON.stringify(completed.body)).toBe(200)
    expect(completed.body).toMatchObject({ status: "FINISHED", message: "Formulário atualizado com sucesso", formId: first.body.formId, pendingFields: [] })
    const finishedAgain = await call("POST", "/v1/proposals", pjProposal(document, cpf("123456789")))
    expect([finishedAgain.status, finishedAgain.body]).toEqual([400, { message: expect.any(String), code: "FORM_ALREADY_FINISHED" }])

    const opened = await call("POST", `/v1/sandbox/proposals/${first.body.formId}/advance`)
    expect(opened.status, JSON.stringify(opened.body)).toBe(200)
    expect(opened.body).toMatchObject({
      type: "PJ",
      businessName: "Valida Testes LTDA",
      owner: [{ type: "PF", ownerType: "SOCIO", documentNumber: cpf("123456789"), birthDate: "02-02-1990" }],
      proposalStatus: { account: "CONFIRMED" },
      accountNumber: expect.any(String)
    })
    const found = await call("GET", `/v1/accounts/cnpj/${document}`)
    expect(found.body).toMatchObject({ accountNumber: opened.body.accountNumber, name: "Valida Testes LTDA", documentNumber: document, type: "PJ" })
    expect((await call("GET", `/v1/accounts/cnpj/${cnpj("987654320001")}`)).body.error.code).toBe("ACCOUNT_NOT_FOUND")
    expect((await call("GET", "/v1/wallet/balance", undefined, { "x-sub-account": opened.body.accountNumber })).body).toMatchObject({ debtBalance: 5 })
    // 100.00 on the sub-account: 0.99 + 1.50 = 2.49 of fees, the master's schedule.
    const charge = (await call("POST", "/v1/charges/pix", { amount: 100 }, { "x-sub-account": opened.body.accountNumber })).body
    expect((await call("GET", `/v1/charges/${charge.chargeId}?view=detail`, undefined, { "x-sub-account": opened.body.accountNumber })).body).toMatchObject({
      fees: { total: 2.49, fixed: 0.99, percentageRate: 1.5 }
    })
  })

  it("reproves at each stage as the sandbox table says (111, 222, 333), with the stage's event, and then takes a new form of the same document", async () => {
    const { call, events } = await master()
    const cases = [["111", "backgroundCheck", "onboarding.backgroundcheck"], ["222", "documents", "onboarding.documentscopy"], ["333", "proposal", "onboarding.proposal"]] as const
    for (const [prefix, stage, event] of cases) {
      const document = cpf(`${prefix}444555`)
      const { formId } = (await call("POST", "/v1/proposals", pfProposal(document, { email: `p${prefix}@example.com` }))).body
      const advanced = (await call("POST", `/v1/sandbox/proposals/${formId}/advance`)).body
      expect(advanced.proposalStatus[stage], prefix).toBe("REPROVED")
      expect(advanced).toMatchObject({ accountNumber: null, reason: expect.any(String) })
      expect((await events(event)).at(-1)).toMatchObject({ formId, status: "REPROVED" })
      // Reproved: the master may send the same document again, as a new form.
      const retry = await call("POST", "/v1/proposals", pfProposal(document, { email: `p${prefix}@example.com` }))
      expect(retry.status).toBe(200)
      expect(retry.body.formId).not.toBe(formId)
    }
    // A reproval at a stage emits nothing for the stages after it.
    expect((await events("onboarding.")).filter((e) => e.event === "onboarding.create")).toEqual([])
  })

  it("answers validation errors in the envelope and refusals as { message, code }, changing nothing", async () => {
    const { account, call } = await master()
    const document = cpf("390533447")
    const envelope = async (body: unknown) => {
      const answer = await call("POST", "/v1/proposals", body)
      expect(answer.status, JSON.stringify(body)).toBe(400)
      return [answer.body.error?.code, answer.body.error?.details?.field]
    }
    expect(await envelope(pfProposal(document, { documentNumber: undefined }))).toEqual(["DOCUMENT_NUMBER_REQUIRED", "documentNumber"])
    expect(await envelope(pfProposal(document, { documentNumber: null }))).toEqual(["DOCUMENT_NUMBER_REQUIRED", "documentNumber"])
    expect(await envelope(pfProposal("52998224726"))).toEqual(["INVALID_DOCUMENT", "documentNumber"])
    expect(await envelope(pfProposal("123"))).toEqual(["INVALID_DOCUMENT", "documentNumber"])
    expect((await envelope(pfProposal(document, { phoneNumber: "11912345678x" })))[0]).toBe("INVALID_DATA")
    expect((await envelope(pfProposal(document, { email: "not-an-email" })))[0]).toBe("INVALID_DATA")
    expect((await envelope(pfProposal(document, { address: { ...address, postalCode: "0645503" } })))[0]).toBe("INVALID_DATA")
    expect((await envelope(pfProposal(document, { address: { ...address, state: "XX" } })))[0]).toBe("INVALID_DATA")
    expect((await envelope(pfProposal(document, { birthDate: "2000-12-31" })))[0]).toBe("INVALID_DATA")
    expect((await envelope(pfProposal(document, { birthDate: "31-02-2000" })))[0]).toBe("INVALID_DATA")
    expect(await envelope(pfProposal(document, { birthDate: "01-01-2020" }))).toEqual(["INVALID_DATA", "birthDate"])
    expect(await envelope(pfProposal(document, { businessName: "Empresa" }))).toEqual(["INVALID_DATA", "businessName"])
    expect(await envelope(pfProposal(document, { fullName: "a\u0000b" }))).toEqual(["INVALID_DATA", undefined])
    expect(await envelope(pfProposal(document, { webhookUrl: "ftp://example.com" }))).toEqual(["INVALID_DATA", "webhookUrl"])
    const company = cnpj("112223330001")
    expect(await envelope(pjProposal(company, "12345678900"))).toEqual(["INVALID_DOCUMENT", "owner[0].documentNumber"])
    expect(await envelope(pjProposal(company, cpf("123456789"), { companyType: "SA" }))).toEqual(["INVALID_DATA", undefined])
    const minor = pjProposal(company, cpf("123456789"))
    minor.owner[0]!.birthDate = "01-01-2015"
    expect(await envelope(minor)).toEqual(["INVALID_DATA", "owner[0].birthDate"])
    expect(await envelope(pjProposal(company, cpf("123456789"), { owner: Array.from({ length: 11 }, () => minor.owner[0]) }))).toEqual(["INVALID_DATA", undefined])

    const refusal = async (body: unknown, status: number, code: string) => {
      const answer = await call("POST", "/v1/proposals", body)
      expect([answer.status, answer.body], code).toEqual([status, { message: expect.any(String), code }])
    }
    await refusal(pfProposal(document, { email: "MASTER@example.com" }), 400, "SAME_CONTACT_AS_MASTER")
    await refusal(pfProposal(document, { formId: "00000000-0000-4000-8000-000000000000" }), 404, "FORM_NOT_FOUND")
    const other = (await call("POST", "/v1/proposals", { documentNumber: cpf("111222333") })).body
    expect(other).toMatchObject({ status: "UNFINISHED", pendingFields: expect.arrayContaining(["fullName", "address.postalCode", "financialDetails.netWorth"]) })
    await refusal(pfProposal(document, { formId: other.formId }), 400, "FORM_DOCUMENT_MISMATCH")
    const unknown = await call("GET", "/v1/proposals/00000000-0000-4000-8000-000000000000")
    expect([unknown.status, unknown.body]).toEqual([404, { message: expect.any(String), code: "FORM_NOT_FOUND" }])

    // Nothing of the refused ones was kept: only the unfinished form of 111222333.
    const kept = await sql((s) => s<{ n: string }>`SELECT count(*)::text AS n FROM proposals WHERE account_id = ${account.accountId}`)
    expect(kept[0]!.n).toBe("1")
  })

  it("takes blank fields as pending, keeps documents sent before the form was complete, and opens one account when the worker and the sandbox route race", async () => {
    const { account, call } = await master()
    const document = cpf("246813579")
    const blank = await call("POST", "/v1/proposals", pfProposal(document, { email: "", phoneNumber: " ", address: { ...address, postalCode: "", state: "" } }))
    expect(blank.status, JSON.stringify(blank.body)).toBe(201)
    expect(blank.body.pendingFields).toEqual(["phoneNumber", "email", "address.postalCode", "address.state"])
    // The owner sends the documents while the form is unfinished; completing it keeps them.
    const token = (await call("GET", `/v1/proposals/${blank.body.formId}`)).body.proposalStatus.urlDocumentscopy.split("/").pop()
    const upload = new FormData()
    upload.append("documents", new Blob(["rg"]), "rg.png")
    expect((await fetch(`${engine.baseUrl}/v1/sandbox/documentscopy/${token}`, { method: "POST", body: upload })).status).toBe(200)
    expect((await call("POST", "/v1/proposals", pfProposal(document))).body).toMatchObject({ status: "FINISHED", formId: blank.body.formId })
    // The worker and the sandbox route at once: one account, one opening fee.
    await Promise.all([engine.run(Billing.onboardProposals(100)), call("POST", `/v1/sandbox/proposals/${blank.body.formId}/advance`)])
    await engine.run(Billing.onboardProposals(100))
    const opened = (await call("GET", `/v1/proposals/${blank.body.formId}`)).body
    expect(opened.proposalStatus).toMatchObject({ documents: "APPROVED", account: "CONFIRMED" })
    const fees = await sql((s) => s<{ n: string }>`SELECT count(*)::text AS n FROM ledger_entries WHERE kind = 'OPENING_FEE' AND reference_id = ${blank.body.formId}`)
    expect(fees[0]!.n).toBe("1")
    expect((await call("GET", "/v1/accounts/subaccounts")).body.subAccounts).toHaveLength(1)
    expect((await call("GET", "/v1/wallet/balance", undefined, { "x-sub-account": opened.accountNumber })).body.debtBalance).toBe(15)
    // Credentials of that sub-account open no sub-accounts of their own: the token is fine, the account may not (403, not 401).
    const subCredentials = await engine.createAccount({ document: cpf("135792468"), parentId: account.accountId })
    const subCall = apiCaller(engine.baseUrl, await engine.token(subCredentials))
    const nested = await subCall("POST", "/v1/proposals", pfProposal(cpf("975318642")))
    expect([nested.status, nested.body.error?.code]).toEqual([403, "FORBIDDEN"])
  })

  it("keeps one form per document when ten requests race to create it", async () => {
    const { account, call } = await master()
    const document = cpf("765432109")
    const answers = await Promise.all(Array.from({ length: 10 }, () => call("POST", "/v1/proposals", { documentNumber: document, fullName: "Ana" })))
    // Each either created the form, completed the one created before it, or lost the race to create it; none failed.
    for (const answer of answers) {
      const ok = [200, 201].includes(answer.status) || (answer.status === 400 && answer.body.code === "FORM_IN_PROGRESS")
      expect(ok, JSON.stringify(answer.body)).toBe(true)
    }
    expect(answers.filter((a) => a.body.message === "Formulário criado com sucesso")).toHaveLength(1)
    const rows = await sql((s) => s<{ n: string }>`SELECT count(*)::text AS n FROM proposals WHERE account_id = ${account.accountId}`)
    expect(rows[0]!.n).toBe("1")
  })

  it("keeps another master's proposals, sub-accounts and CNPJs out of reach", async () => {
    const first = await master()
    const second = await master()
    const { formId } = (await first.call("POST", "/v1/proposals", pfProposal(cpf("847362514")))).body
    const opened = (await first.call("POST", `/v1/sandbox/proposals/${formId}/advance`)).body
    const company = cnpj("556677880001")
    const pj = (await first.call("POST", "/v1/proposals", pjProposal(company, cpf("123456789")))).body
    expect((await first.call("POST", `/v1/sandbox/proposals/${pj.formId}/advance`)).body.proposalStatus.account).toBe("CONFIRMED")
    expect((await first.call("GET", `/v1/accounts/cnpj/${company}`)).status).toBe(200)
    expect((await second.call("GET", `/v1/accounts/cnpj/${company}`)).body.error.code).toBe("ACCOUNT_NOT_FOUND")
    expect((await second.call("GET", `/v1/proposals/${formId}`)).body.code).toBe("FORM_NOT_FOUND")
    expect((await second.call("POST", `/v1/sandbox/proposals/${formId}/advance`)).body.code).toBe("FORM_NOT_FOUND")
    expect((await second.call("GET", "/v1/accounts/subaccounts")).body.subAccounts).toEqual([])
    // Another master's sub-account in X-Sub-Account: 401 OWNERSHIP_MISMATCH on the wallet (as the provider), 401 UNAUTHORIZED on charges (the spec).
    const wallet = await second.call("GET", "/v1/wallet/balance", undefined, { "x-sub-account": opened.accountNumber })
    expect([wallet.status, wallet.body.error.code]).toEqual([401, "OWNERSHIP_MISMATCH"])
    const charges = await second.call("POST", "/v1/charges/pix", { amount: 10 }, { "x-sub-account": opened.accountNumber })
    expect([charges.status, charges.body.error.code]).toEqual([401, "UNAUTHORIZED"])
    const unknown = await second.call("GET", "/v1/wallet/balance", undefined, { "x-sub-account": "999999999" })
    expect([unknown.status, unknown.body.error.code]).toEqual([404, "NOT_FOUND"])
  })
})
