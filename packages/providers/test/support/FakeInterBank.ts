/**
 * A fake Banco Inter for tests: the token route and the Cobrança v3 routes
 * the adapter uses, on `node:https` with mutual TLS as Inter runs them
 * (`requestCert`, `rejectUnauthorized`, the test CA), books in memory, and
 * controls for a test: pay a boleto, force the next answers of a route (a
 * 5xx, a timeout after doing the work, a drop), revoke a token, count the
 * registrations.
 *
 * Shapes follow Inter's own SDKs (inter-co/pj-sdk-python:
 * `commons/structures/Constants.py` for paths and scopes,
 * `commons/utils/TokenUtils.py` for the token form, `billing/models/*.py`
 * for bodies, `commons/models/Error.py` and `Violation.py` for the error
 * body, `billing/enums/*.py` for situations and date filters). As Inter
 * does, a registration is asynchronous: its first read finds it
 * `EM_PROCESSAMENTO`, without codes. Every request is checked against those
 * fields (names, types, lengths, unknown keys); what breaks them is answered
 * 400 with Inter's error body and recorded in `violations`, which a test
 * asserts empty. What Inter refuses on its merits (an amount under R$ 2,50,
 * a due date already past, a paid boleto cancelled) is answered the same
 * way without being a violation.
 */
import { Brazil } from "@billing/core"
import { Result } from "effect"
import { randomUUID } from "node:crypto"
import type { IncomingMessage, ServerResponse } from "node:http"
import { createServer, type Server } from "node:https"
import type { AddressInfo } from "node:net"
import type { TestPki } from "./TestCertificates.ts"

export const FAKE_INTER_CLIENT_ID = "inter-client-1"
export const FAKE_INTER_CLIENT_SECRET = "inter-secret-1"
const KNOWN_SCOPES = new Set(["boleto-cobranca.read", "boleto-cobranca.write", "extrato.read", "cob.read", "cob.write"])
const BASE = "/cobranca/v3/cobrancas"

/** The next answer of a route: a 5xx (work not done), a timeout (work done, no answer), a drop (neither). */
export type Forced = { readonly kind: "status"; readonly status: 500 | 502 | 503 | 504 } | { readonly kind: "timeout" } | { readonly kind: "drop" }
export type ForcedRoute = "create" | "get" | "list" | "cancel"

export interface Violacao {
  readonly razao: string
  readonly propriedade: string
  readonly valor?: string
}

interface Answer {
  readonly status: number
  readonly body?: unknown
}

/** Inter's error body (`Error`: title, detail, timestamp, violacoes). */
const interError = (status: number, title: string, detail: string, violacoes: ReadonlyArray<Violacao> = []): Answer => ({
  status,
  body: { title, detail, timestamp: new Date().toISOString(), ...(violacoes.length === 0 ? {} : { violacoes }) }
})

// --- field checks: each answers the violations of one value ---
type Rule = (value: unknown, at: string) => Array<Violacao>
const bad = (at: string, razao: string, value: unknown): Array<Violacao> => [{ razao, propriedade: at, valor: typeof value === "string" ? value : JSON.stringify(value) ?? "undefined" }]
const text = (min: number, max: number, pattern?: RegExp): Rule => (value, at) =>
  typeof value !== "string" ? bad(at, "deve ser um texto", value)
  : value.length < min || value.length > max ? bad(at, `deve ter de ${min} a ${max} caracteres`, value)
  : pattern !== undefined && !pattern.test(value) ? bad(at, "formato inválido", value)
  : []
const date = text(10, 10, /^\d{4}-\d{2}-\d{2}$/)
const integer = (min: number, max: number): Rule => (value, at) =>
  Number.isInteger(value) && (value as number) >= min && (value as number) <= max ? [] : bad(at, `deve ser um inteiro de ${min} a ${max}`, value)
const reais: Rule = (value, at) =>
  typeof value === "number" && Number.isFinite(value) && /^\d+(\.\d{1,2})?$/.test(String(value)) ? [] : bad(at, "deve ser um número com até duas casas decimais", value)
const oneOf = (values: ReadonlyArray<string>): Rule => (value, at) => (values.includes(value as string) ? [] : bad(at, `deve ser um de ${values.join(", ")}`, value))
const anyObject: Rule = (value, at) => (typeof value === "object" && value !== null && !Array.isArray(value) ? [] : bad(at, "deve ser um objeto", value))
const listOf = (rule: Rule): Rule => (value, at) => (Array.isArray(value) ? value.flatMap((item, i) => rule(item, `${at}[${i}]`)) : bad(at, "deve ser uma lista", value))
const object = (fields: Readonly<Record<string, readonly [rule: Rule, required: boolean]>>): Rule => (value, at) => {
  if (anyObject(value, at).length > 0) return anyObject(value, at)
  const record = value as Record<string, unknown>
  const path = (key: string) => (at === "" ? key : `${at}.${key}`)
  return [
    ...Object.keys(record).filter((key) => !(key in fields)).map((key) => ({ razao: "campo desconhecido", propriedade: path(key) })),
    ...Object.entries(fields).flatMap(([key, [rule, required]]) =>
      record[key] === undefined ? (required ? [{ razao: "campo obrigatório", propriedade: path(key) }] : []) : rule(record[key], path(key)))
  ]
}

/** `Person` as a payer (`pagador`), with the lengths of Inter's page. */
const PAGADOR = object({
  cpfCnpj: [text(11, 14, /^(\d{11}|\d{14})$/), true],
  tipoPessoa: [oneOf(["FISICA", "JURIDICA"]), true],
  nome: [text(1, 100), true],
  endereco: [text(1, 100), true],
  numero: [text(0, 10), false],
  complemento: [text(0, 30), false],
  bairro: [text(0, 60), false],
  cidade: [text(1, 60), true],
  uf: [text(2, 2, /^[A-Z]{2}$/), true],
  cep: [text(8, 8, /^\d{8}$/), true],
  email: [text(0, 50), false],
  ddd: [text(0, 2), false],
  telefone: [text(0, 9), false]
})
const LINE = text(0, 78)
/** `BillingIssueRequest`. */
const COBRANCA = object({
  seuNumero: [text(1, 15), true],
  valorNominal: [reais, true],
  dataVencimento: [date, true],
  numDiasAgenda: [integer(0, 60), true],
  pagador: [PAGADOR, true],
  desconto: [anyObject, false],
  multa: [anyObject, false],
  mora: [anyObject, false],
  mensagem: [object({ linha1: [LINE, false], linha2: [LINE, false], linha3: [LINE, false], linha4: [LINE, false], linha5: [LINE, false] }), false],
  beneficiarioFinal: [anyObject, false],
  formasRecebimento: [listOf(oneOf(["BOLETO", "PIX"])), false]
})
const SITUACOES = ["RECEBIDO", "A_RECEBER", "MARCADO_RECEBIDO", "ATRASADO", "CANCELADO", "EXPIRADO", "FALHA_EMISSAO", "EM_PROCESSAMENTO", "PROTESTO"]
/** The query of `GET /cobrancas` (`BillingRetrievalFilter`, `Sorting`, the paging). */
const LIST_QUERY = object({
  dataInicial: [date, true],
  dataFinal: [date, true],
  filtrarDataPor: [oneOf(["VENCIMENTO", "EMISSAO", "PAGAMENTO"]), false],
  situacao: [oneOf(SITUACOES), false],
  pessoaPagadora: [text(1, 100), false],
  cpfCnpjPessoaPagadora: [text(11, 14), false],
  seuNumero: [text(1, 15), false],
  tipoCobranca: [oneOf(["SIMPLES", "PARCELADO", "RECORRENTE"]), false],
  ordenarPor: [text(1, 40), false],
  tipoOrdenacao: [oneOf(["ASC", "DESC"]), false],
  "paginacao.paginaAtual": [text(1, 6, /^\d+$/), false],
  "paginacao.itensPorPagina": [text(1, 4, /^([1-9]\d{0,2}|1000)$/), false]
})

// --- FEBRABAN codes, computed here on their own (not with the engine's functions the adapter checks them with) ---
const mod10 = (digits: string) => {
  const sum = [...digits].reverse().reduce((total, d, i) => {
    const p = Number(d) * (i % 2 === 0 ? 2 : 1)
    return total + Math.floor(p / 10) + (p % 10)
  }, 0)
  return (10 - (sum % 10)) % 10
}
const mod11 = (digits: string) => {
  const sum = [...digits].reverse().reduce((total, d, i) => total + Number(d) * (2 + (i % 8)), 0)
  const dv = 11 - (sum % 11)
  return dv === 0 || dv > 9 ? 1 : dv
}
/** Bank 077's codes: factor counted from 2025-02-22 (1000), amount, a free field of agency 0001, carteira 112, nosso número and account. */
const febrabanCodes = (dueDate: string, amountCents: number, nossoNumero: string, account: string) => {
  const [y, m, d] = dueDate.split("-").map(Number)
  const factor = String((Date.UTC(y!, m! - 1, d!) - Date.UTC(2025, 1, 22)) / 86_400_000 + 1000)
  const free = `0001112${nossoNumero}${account.padStart(7, "0").slice(-7)}`
  const tail = `${factor}${String(amountCents).padStart(10, "0")}${free}`
  const barcode = `0779${mod11(`0779${tail}`)}${tail}`
  const f1 = `0779${free.slice(0, 5)}`
  const f2 = free.slice(5, 15)
  const f3 = free.slice(15)
  return { barcode, line: `${f1}${mod10(f1)}${f2}${mod10(f2)}${f3}${mod10(f3)}${barcode[4]}${barcode.slice(5, 19)}` }
}

const centsOf = (reais: number) => {
  const [units, fraction = ""] = String(reais).split(".")
  return Number(units) * 100 + Number(fraction.padEnd(2, "0"))
}
const reaisText = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`
const today = () => Brazil.saoPauloDate(Date.now())

/** A cobrança in the fake's books, with its `BillingIssueRequest` and what Inter adds. */
export interface StoredCobranca {
  readonly codigoSolicitacao: string
  readonly request: Record<string, any>
  readonly dataEmissao: string
  readonly amountCents: number
  readonly nossoNumero: string
  readonly codigoBarras: string
  readonly linhaDigitavel: string
  readonly txid: string
  readonly pixCopiaECola: string
  situacao: string
  dataSituacao: string
  valorTotalRecebido: string | undefined
  origemRecebimento: "BOLETO" | "PIX" | undefined
  motivoCancelamento: string | undefined
  /** Reads left before the asynchronous registration is done. */
  processingReads: number
}

/** `RetrievedBilling`: the cobrança, and its boleto and Pix once processed. */
const detailOf = (stored: StoredCobranca) => ({
  cobranca: {
    codigoSolicitacao: stored.codigoSolicitacao,
    seuNumero: stored.request.seuNumero,
    dataEmissao: stored.dataEmissao,
    dataVencimento: stored.request.dataVencimento,
    valorNominal: stored.request.valorNominal,
    tipoCobranca: "SIMPLES",
    situacao: stored.situacao,
    dataSituacao: stored.dataSituacao,
    ...(stored.valorTotalRecebido === undefined ? {} : { valorTotalRecebido: stored.valorTotalRecebido }),
    ...(stored.origemRecebimento === undefined ? {} : { origemRecebimento: stored.origemRecebimento }),
    ...(stored.motivoCancelamento === undefined ? {} : { motivoCancelamento: stored.motivoCancelamento }),
    arquivada: false,
    descontos: [],
    pagador: stored.request.pagador
  },
  ...(stored.situacao === "EM_PROCESSAMENTO"
    ? {}
    : {
      boleto: { nossoNumero: stored.nossoNumero, codigoBarras: stored.codigoBarras, linhaDigitavel: stored.linhaDigitavel },
      pix: { txid: stored.txid, pixCopiaECola: stored.pixCopiaECola }
    })
})

export interface RecordedCall {
  readonly method: string
  readonly path: string
  readonly query: URLSearchParams
  readonly headers: IncomingMessage["headers"]
  readonly body: unknown
  /** The body as sent. */
  readonly text: string
}

export interface FakeInterOptions {
  /** The account the application serves more than one of: `x-conta-corrente` must then name it. */
  readonly contaCorrente?: string
  /** Reads of a new registration that still find it processing (default 1). */
  readonly processingReads?: number
  /** Items per page of the list, whatever is asked (default: what is asked). */
  readonly pageSize?: number
}

const readBody = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = ""
    request.on("data", (chunk: Buffer) => (text += chunk.toString()))
    request.on("end", () => resolve(text))
  })

const write = (response: ServerResponse, answer: Answer) => {
  response.writeHead(answer.status, answer.body === undefined ? {} : { "content-type": "application/json" })
  response.end(answer.body === undefined ? "" : JSON.stringify(answer.body))
}

export const startFakeInterBank = async (pki: TestPki, startOptions: FakeInterOptions = {}) => {
  let options = startOptions
  const cobrancas = new Map<string, StoredCobranca>()
  const tokens = new Map<string, ReadonlySet<string>>()
  const revoked = new Set<string>()
  const forced = new Map<ForcedRoute, Array<Forced>>()
  const calls: Array<RecordedCall> = []
  const violations: Array<string> = []
  const webhooks: Array<string> = []
  let tokenRequests = 0
  let refusedHandshakes = 0
  let nextNossoNumero = 10_000_000_000 + Math.floor(Math.random() * 1_000_000_000)

  /** Shape problems are the adapter's: recorded, and answered as Inter answers them. */
  const invalid = (call: string, found: ReadonlyArray<Violacao>) => {
    violations.push(...found.map((v) => `${call}: ${v.propriedade} ${v.razao}`))
    return interError(400, "Requisição inválida", "Um ou mais campos são inválidos.", found)
  }

  const create = (body: any): Answer => {
    const found = COBRANCA(body, "")
    if (found.length > 0) return invalid("POST /cobrancas", found)
    if (centsOf(body.valorNominal) < 250) {
      return interError(400, "Requisição inválida", "Valor nominal abaixo do mínimo.", [{ razao: "deve ser no mínimo 2.50", propriedade: "valorNominal", valor: String(body.valorNominal) }])
    }
    if (body.dataVencimento < today()) {
      return interError(400, "Requisição inválida", "Data de vencimento anterior à data atual.", [{ razao: "não pode ser anterior à data atual", propriedade: "dataVencimento", valor: body.dataVencimento }])
    }
    if ((body.pagador.tipoPessoa === "FISICA") !== (body.pagador.cpfCnpj.length === 11)) {
      return invalid("POST /cobrancas", [{ razao: "não corresponde ao tipoPessoa", propriedade: "pagador.cpfCnpj", valor: body.pagador.cpfCnpj }])
    }
    const nossoNumero = String(nextNossoNumero++).padStart(11, "0")
    const { barcode, line } = febrabanCodes(body.dataVencimento, centsOf(body.valorNominal), nossoNumero, options.contaCorrente ?? "1234567")
    const txid = `INTER${nossoNumero}`
    const pix = Brazil.buildBrCode({ kind: "dynamic", location: `qrpix.fake-inter.test/v2/cobv/${txid}`, merchantName: "LOJA EXEMPLO LTDA", merchantCity: "SAO PAULO" })
    const codigoSolicitacao = randomUUID()
    cobrancas.set(codigoSolicitacao, {
      codigoSolicitacao,
      request: body,
      dataEmissao: today(),
      amountCents: centsOf(body.valorNominal),
      nossoNumero,
      codigoBarras: barcode,
      linhaDigitavel: line,
      txid,
      pixCopiaECola: Result.getOrElse(pix, () => ""),
      situacao: "EM_PROCESSAMENTO",
      dataSituacao: today(),
      valorTotalRecebido: undefined,
      origemRecebimento: undefined,
      motivoCancelamento: undefined,
      processingReads: options.processingReads ?? 1
    })
    return { status: 200, body: { codigoSolicitacao } }
  }

  const get = (codigo: string): Answer => {
    const stored = cobrancas.get(codigo)
    if (stored === undefined) return interError(404, "Cobrança não encontrada", `Não há cobrança com o código ${codigo}.`)
    if (stored.situacao === "EM_PROCESSAMENTO" && stored.processingReads-- <= 0) stored.situacao = "A_RECEBER"
    return { status: 200, body: detailOf(stored) }
  }

  const list = (query: URLSearchParams): Answer => {
    const params = Object.fromEntries(query)
    const found = LIST_QUERY(params, "")
    if (found.length > 0) return invalid("GET /cobrancas", found)
    if (params.dataFinal! < params.dataInicial!) return interError(400, "Requisição inválida", "dataFinal anterior a dataInicial.")
    const by = params.filtrarDataPor ?? "VENCIMENTO"
    const inRange = (day: string | undefined) => day !== undefined && day >= params.dataInicial! && day <= params.dataFinal!
    const matching = [...cobrancas.values()].filter((stored) =>
      (by === "VENCIMENTO" ? inRange(stored.request.dataVencimento)
        : by === "EMISSAO" ? inRange(stored.dataEmissao)
        : ["RECEBIDO", "MARCADO_RECEBIDO"].includes(stored.situacao) && inRange(stored.dataSituacao)) &&
      (params.seuNumero === undefined || stored.request.seuNumero === params.seuNumero) &&
      (params.situacao === undefined || stored.situacao === params.situacao)
    )
    const size = options.pageSize ?? Number(params["paginacao.itensPorPagina"] ?? "100")
    const current = Number(params["paginacao.paginaAtual"] ?? "0")
    const totalPaginas = Math.max(1, Math.ceil(matching.length / size))
    const page = matching.slice(current * size, (current + 1) * size).map(detailOf)
    return {
      status: 200,
      body: {
        totalPaginas,
        totalElementos: matching.length,
        ultimaPagina: current + 1 >= totalPaginas,
        primeiraPagina: current === 0,
        tamanhoPagina: size,
        numeroDeElementos: page.length,
        cobrancas: page
      }
    }
  }

  const cancel = (codigo: string, body: any): Answer => {
    const found = object({ motivoCancelamento: [text(1, 50), true] })(body, "")
    if (found.length > 0) return invalid(`POST /cobrancas/{codigo}/cancelar`, found)
    const stored = cobrancas.get(codigo)
    if (stored === undefined) return interError(404, "Cobrança não encontrada", `Não há cobrança com o código ${codigo}.`)
    if (!["A_RECEBER", "ATRASADO"].includes(stored.situacao)) {
      return interError(400, "Requisição inválida", `A cobrança está ${stored.situacao} e não pode ser cancelada.`)
    }
    stored.situacao = "CANCELADO"
    stored.dataSituacao = today()
    stored.motivoCancelamento = body.motivoCancelamento
    return { status: 202 }
  }

  const webhook = (body: any): Answer => {
    const found = object({ webhookUrl: [text(1, 2048, /^https:\/\//), true] })(body, "")
    if (found.length > 0) return invalid("PUT /cobrancas/webhook", found)
    webhooks.push(body.webhookUrl)
    return { status: 204 }
  }

  const route = (method: string, path: string, query: URLSearchParams, body: unknown): readonly [ForcedRoute | undefined, () => Answer] => {
    const rest = path.slice(BASE.length)
    const one = /^\/([0-9a-f-]{36})$/.exec(rest)
    const cancelling = /^\/([0-9a-f-]{36})\/cancelar$/.exec(rest)
    if (method === "POST" && rest === "") return ["create", () => create(body)]
    if (method === "GET" && rest === "") return ["list", () => list(query)]
    if (method === "GET" && one !== null) return ["get", () => get(one[1]!)]
    if (method === "POST" && cancelling !== null) return ["cancel", () => cancel(cancelling[1]!, body)]
    if (method === "PUT" && rest === "/webhook") return [undefined, () => webhook(body)]
    return [undefined, () => interError(404, "Recurso não encontrado", `${method} ${path}`)]
  }

  /** An API call: its TLS client already checked; then its token, scope, account header and body. */
  const api = (request: IncomingMessage, response: ServerResponse, url: URL, text: string) => {
    let body: unknown
    try {
      body = text === "" ? undefined : JSON.parse(text)
    } catch {
      return write(response, invalid(`${request.method} ${url.pathname}`, [{ razao: "corpo não é JSON", propriedade: "body" }]))
    }
    const method = request.method ?? ""
    calls.push({ method, path: url.pathname, query: url.searchParams, headers: request.headers, body, text })
    const token = request.headers.authorization?.replace(/^Bearer /, "") ?? ""
    const scopes = tokens.get(token)
    if (scopes === undefined || revoked.has(token)) return write(response, { status: 401 })
    const needed = method === "GET" ? "boleto-cobranca.read" : "boleto-cobranca.write"
    if (!scopes.has(needed)) return write(response, interError(403, "Acesso negado", `O token não tem o escopo ${needed}.`))
    if (options.contaCorrente !== undefined && request.headers["x-conta-corrente"] !== options.contaCorrente) {
      violations.push(`${method} ${url.pathname}: x-conta-corrente is ${String(request.headers["x-conta-corrente"])}, not ${options.contaCorrente}`)
    }
    if (body !== undefined && request.headers["content-type"] !== "application/json") violations.push(`${method} ${url.pathname}: content-type ${request.headers["content-type"]}`)
    const [name, handle] = route(method, url.pathname, url.searchParams, body)
    const next = name === undefined ? undefined : forced.get(name)?.shift()
    if (next?.kind === "drop") return
    if (next?.kind === "status") return write(response, interError(next.status, "Serviço indisponível", "Tente novamente mais tarde."))
    const answer = handle()
    // A timeout after the work is done: the client cannot know whether it was.
    if (next?.kind !== "timeout") write(response, answer)
  }

  /** `POST /oauth/v2/token`: the form of `TokenUtils.generate_token`, answered for the known client only. */
  const token = (request: IncomingMessage, response: ServerResponse, text: string) => {
    tokenRequests++
    const form = new URLSearchParams(text)
    if (request.headers["content-type"] !== "application/x-www-form-urlencoded") violations.push(`token: content-type ${request.headers["content-type"]}`)
    if (form.get("grant_type") !== "client_credentials") return write(response, { status: 400, body: { error: "unsupported_grant_type" } })
    if (form.get("client_id") !== FAKE_INTER_CLIENT_ID || form.get("client_secret") !== FAKE_INTER_CLIENT_SECRET) {
      return write(response, { status: 401, body: { error: "invalid_client", error_description: "Client authentication failed" } })
    }
    const asked = (form.get("scope") ?? "").split(" ").filter((scope) => scope !== "")
    if (asked.length === 0 || asked.some((scope) => !KNOWN_SCOPES.has(scope))) return write(response, { status: 400, body: { error: "invalid_scope" } })
    const issued = `inter-token-${tokens.size + 1}`
    tokens.set(issued, new Set(asked))
    write(response, { status: 200, body: { access_token: issued, token_type: "Bearer", expires_in: 3600, scope: asked.join(" ") } })
  }

  const server: Server = createServer({ key: pki.server.keyPem, cert: pki.server.certPem, ca: [pki.caPem], requestCert: true, rejectUnauthorized: true }, async (request, response) => {
    const text = await readBody(request)
    const url = new URL(request.url ?? "/", "https://fake.invalid")
    if (request.method === "POST" && url.pathname === "/oauth/v2/token") return token(request, response, text)
    if (url.pathname.startsWith(BASE)) return api(request, response, url, text)
    write(response, { status: 404 })
  })
  server.on("tlsClientError", () => refusedHandshakes++)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`

  const byNossoNumero = (nossoNumero: string) => [...cobrancas.values()].find((stored) => stored.nossoNumero === nossoNumero)

  return {
    baseUrl: origin,
    calls,
    violations,
    webhooks,
    tokenRequests: () => tokenRequests,
    refusedHandshakes: () => refusedHandshakes,
    issuedTokens: () => [...tokens.keys()],
    revoke: (issued: string) => revoked.add(issued),
    /** Changes the options from now on (how long registrations stay processing, the page size). */
    configure: (changes: Omit<FakeInterOptions, "contaCorrente">) => {
      options = { ...options, ...changes }
    },
    /** Forces the next answers of a route. */
    force: (name: ForcedRoute, ...answers: ReadonlyArray<Forced>) => forced.set(name, [...(forced.get(name) ?? []), ...answers]),
    /** Every cobrança Inter registered, whatever its situation. */
    registrations: () => cobrancas.size,
    /** The cobranças registered under `seuNumero`. */
    cobrancasOf: (seuNumero: string) => [...cobrancas.values()].filter((stored) => stored.request.seuNumero === seuNumero),
    byNossoNumero,
    /**
     * Pays the boleto of `nossoNumero` in full on `paidOn`, at a counter or
     * by its Pix, as a payer would. Answers the callback Inter would post to
     * the webhook (`BillingPayload` items).
     */
    pay: (nossoNumero: string, paidOn: string, via: "BOLETO" | "PIX" = "BOLETO") => {
      const stored = byNossoNumero(nossoNumero)
      if (stored === undefined || !["A_RECEBER", "ATRASADO"].includes(stored.situacao)) throw new Error(`no payable boleto ${nossoNumero}`)
      stored.situacao = "RECEBIDO"
      stored.dataSituacao = paidOn
      stored.valorTotalRecebido = reaisText(stored.amountCents)
      stored.origemRecebimento = via
      return [{
        codigoSolicitacao: stored.codigoSolicitacao,
        seuNumero: stored.request.seuNumero,
        situacao: stored.situacao,
        dataHoraSituacao: `${paidOn}T12:00:00-03:00`,
        valorTotalRecebido: stored.valorTotalRecebido,
        origemRecebimento: via,
        nossoNumero: stored.nossoNumero,
        codigoBarras: stored.codigoBarras,
        linhaDigitavel: stored.linhaDigitavel,
        txid: stored.txid,
        pixCopiaECola: stored.pixCopiaECola
      }]
    },
    /** Every call received since the last take. */
    takeCalls: () => calls.splice(0),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

export type FakeInterBank = Awaited<ReturnType<typeof startFakeInterBank>>
