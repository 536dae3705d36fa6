/**
 * A fake Sefin Nacional (and DANFSe service) for tests, on `node:https`
 * with mutual TLS as the system runs it (`requestCert`, `rejectUnauthorized`,
 * the test CA): `POST /nfse` issues an NFS-e for a new DPS `Id` and refuses
 * one it already has (the system keys DPS by `Id`), `GET /dps/{id}`,
 * `GET /nfse/{chave}`, the cancellation event (`POST /nfse/{chave}/eventos`,
 * refused when already registered, and its `GET …/eventos/101101/1`), and
 * `GET /danfse/{chave}` answering a PDF. Controls force the next POST's
 * answer: a refusal with the body given, a timeout after doing the work, a
 * 5xx without doing it.
 *
 * Every request body and every JSON answer is checked against the API
 * description (`sefin-nacional-production.json`): the required properties
 * of its definition present, no property it does not define; what breaks it
 * is recorded in `violations`, which a test asserts empty.
 *
 * The NFS-e and event documents it answers with are simplified (the
 * number, the key, the document received): the adapter reads no more of
 * them, and the fake checks no signature or schema; the tests do that on
 * what it received.
 */
import { createServer, type Server } from "node:https"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import type { TLSSocket } from "node:tls"
import { gunzipSync, gzipSync } from "node:zlib"
import { referenceFile } from "../../../core/test/nfse/NfseSchemas.ts"
import type { TestPki } from "./TestCertificates.ts"

/** The next POST's answer instead of the system's. */
export type SefinForced =
  | { readonly kind: "refuse"; readonly status?: 400 | 403; readonly body: unknown }
  | { readonly kind: "timeout" }
  | { readonly kind: "status"; readonly status: 500 | 502 | 503 }

export interface ReceivedCall {
  readonly method: string
  readonly path: string
  /** The subject's CN of the client certificate of the connection. */
  readonly client: string
}

interface Definition {
  readonly required?: ReadonlyArray<string>
  readonly properties: Record<string, unknown>
}

type Json = Record<string, unknown>

const definitions = (): Record<string, Definition> => JSON.parse(referenceFile("api-specs/sefin-nacional-production.json")).definitions

const NAMESPACE = "http://www.sped.fazenda.gov.br/nfse"

/** What the fake holds: the DPS issued by `Id`, the notes by key, the cancellations by key. */
interface Books {
  readonly dps: Map<string, { readonly chave: string; readonly xml: string }>
  readonly notes: Map<string, { readonly numero: number; readonly nfseXml: string }>
  readonly events: Map<string, string>
}

const now = () => "2026-03-10T12:04:06.1234567-03:00"

const gzipB64 = (text: string) => gzipSync(Buffer.from(text, "utf8")).toString("base64")
const gunzipB64 = (value: string) => gunzipSync(Buffer.from(value, "base64")).toString("utf8")
const withoutDeclaration = (xml: string) => xml.replace(/^<\?xml[^>]*\?>/, "")

const writeJson = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { "content-type": "application/json" })
  response.end(JSON.stringify(body))
}

const readBody = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = ""
    request.on("data", (chunk: Buffer) => (text += chunk.toString()))
    request.on("end", () => resolve(text))
  })

export const startFakeSefin = async (pki: TestPki) => {
  const defs = definitions()
  const books: Books = { dps: new Map(), notes: new Map(), events: new Map() }
  const forced: Array<SefinForced> = []
  /** The municipal parameters service's answer per city: adhered to the national environment (1) or not (0); absent cities answer 404. */
  const adhesion = new Map<string, 0 | 1>()
  const calls: Array<ReceivedCall> = []
  const violations: Array<string> = []
  /** Every DPS and event request received, as XML. */
  const documents: Array<string> = []

  /** Records where `body` breaks the definition `name`. */
  const check = (where: string, name: string, body: unknown) => {
    const definition = defs[name]!
    const json = (body ?? {}) as Json
    for (const key of definition.required ?? []) if (!(key in json)) violations.push(`${where}: ${name} lacks ${key}`)
    for (const key of Object.keys(json)) if (!(key in definition.properties)) violations.push(`${where}: ${name} has no property ${key}`)
  }

  const json = (response: ServerResponse, where: string, status: number, definition: string, body: Json) => {
    check(where, definition, body)
    response.writeHead(status, { "content-type": "application/json" })
    response.end(JSON.stringify(body))
  }
  const envelope = { tipoAmbiente: 2, versaoAplicativo: "fake-sefin", dataHoraProcessamento: now() }
  const notFound = (response: ServerResponse, where: string, descricao: string) =>
    json(response, where, 404, "ResponseErro", { ...envelope, erro: { codigo: "E404", descricao } })

  const issue = (id: string, dps: string) => {
    const numero = books.notes.size + 1
    const cMun = /<cLocEmi>(\d{7})<\/cLocEmi>/.exec(dps)?.[1] ?? "0000000"
    const cnpj = /<prest><CNPJ>(\d{14})<\/CNPJ>/.exec(dps)?.[1] ?? "0".repeat(14)
    const chave = `${cMun}2${cnpj}${String(numero).padStart(28, "0")}`
    const nfseXml = `<?xml version="1.0" encoding="UTF-8"?><NFSe xmlns="${NAMESPACE}" versao="1.01"><infNFSe Id="NFS${chave}"><nNFSe>${numero}</nNFSe>${withoutDeclaration(dps)}</infNFSe></NFSe>`
    books.dps.set(id, { chave, xml: dps })
    books.notes.set(chave, { numero, nfseXml })
    return { chave, nfseXml }
  }

  const postNfse = (response: ServerResponse, where: string, body: Json) => {
    check(where, "NFSePostRequest", body)
    const dps = gunzipB64(String(body.dpsXmlGZipB64))
    documents.push(dps)
    const id = /<infDPS Id="([^"]+)">/.exec(dps)?.[1] ?? ""
    const next = forced.shift()
    if (next?.kind === "status") return json(response, where, next.status, "NFSePostResponseErro", { ...envelope, erros: [{ codigo: "E999", descricao: "Falha no processamento" }] })
    if (next?.kind === "refuse") {
      response.writeHead(next.status ?? 400, { "content-type": "application/json" })
      return response.end(JSON.stringify(next.body))
    }
    if (books.dps.has(id)) {
      return json(response, where, 400, "NFSePostResponseErro", { ...envelope, idDPS: id, erros: [{ codigo: "E0014", descricao: "DPS já utilizada para emissão de NFS-e" }] })
    }
    const { chave, nfseXml } = issue(id, dps)
    // A timeout after the work is done: the client cannot know whether it was.
    if (next?.kind === "timeout") return
    json(response, where, 201, "NFSePostResponseSucesso", { ...envelope, idDps: id, chaveAcesso: chave, nfseXmlGZipB64: gzipB64(nfseXml) })
  }

  const postEvent = (response: ServerResponse, where: string, chave: string, body: Json) => {
    check(where, "EventosPostRequest", body)
    const request = gunzipB64(String(body.pedidoRegistroEventoXmlGZipB64))
    documents.push(request)
    const next = forced.shift()
    if (next?.kind === "status") return json(response, where, next.status, "ResponseErro", { ...envelope, erro: { codigo: "E999", descricao: "Falha no processamento" } })
    if (next?.kind === "refuse") {
      response.writeHead(next.status ?? 400, { "content-type": "application/json" })
      return response.end(JSON.stringify(next.body))
    }
    if (!books.notes.has(chave)) return notFound(response, where, "NFS-e não encontrada")
    if (books.events.has(chave)) return json(response, where, 400, "ResponseErro", { ...envelope, erro: { codigo: "E0840", descricao: "Evento de cancelamento já registrado" } })
    const event = `<?xml version="1.0" encoding="UTF-8"?><evento xmlns="${NAMESPACE}" versao="1.01"><infEvento Id="EVT${chave}101101001">${withoutDeclaration(request)}</infEvento></evento>`
    books.events.set(chave, event)
    if (next?.kind === "timeout") return
    json(response, where, 201, "EventosPostResponseSucesso", { ...envelope, eventoXmlGZipB64: gzipB64(event) })
  }

  const route = (request: IncomingMessage, response: ServerResponse, path: string, body: Json) => {
    const where = `${request.method} ${path}`
    let m: RegExpExecArray | null
    if (request.method === "POST" && path === "/SefinNacional/nfse") return postNfse(response, where, body)
    if (request.method === "GET" && (m = /^\/SefinNacional\/dps\/([^/]+)$/.exec(path))) {
      const found = books.dps.get(m[1]!)
      return found === undefined
        ? notFound(response, where, "DPS não encontrada")
        : json(response, where, 200, "DpsGetResponse", { ...envelope, idDps: m[1]!, chaveAcesso: found.chave })
    }
    if (request.method === "GET" && (m = /^\/SefinNacional\/nfse\/(\d{50})$/.exec(path))) {
      const found = books.notes.get(m[1]!)
      return found === undefined
        ? notFound(response, where, "Chave de acesso não encontrada")
        : json(response, where, 200, "NFSeGetResponseSucesso", { ...envelope, chaveAcesso: m[1]!, nfseXmlGZipB64: gzipB64(found.nfseXml) })
    }
    if (request.method === "POST" && (m = /^\/SefinNacional\/nfse\/([^/]+)\/eventos$/.exec(path))) return postEvent(response, where, m[1]!, body)
    if (request.method === "GET" && (m = /^\/SefinNacional\/nfse\/(\d{50})\/eventos\/101101\/1$/.exec(path))) {
      const found = books.events.get(m[1]!)
      return found === undefined
        ? notFound(response, where, "Nenhum evento encontrado para a NFS-e")
        : json(response, where, 200, "EventosPostResponseSucesso", { ...envelope, eventoXmlGZipB64: gzipB64(found) })
    }
    if (request.method === "GET" && (m = /^\/parametrizacao\/(\d{7})\/convenio$/.exec(path))) {
      const adhered = adhesion.get(m[1]!)
      if (adhered === undefined) return writeJson(response, 404, { mensagem: "Município sem convênio" })
      // The shape of ResultadoConsultaConfiguracoesConvenio (adn-parametros-municipais-production.json).
      return writeJson(response, 200, { mensagem: null, parametrosConvenio: { tipoConvenioDeserializationSetter: 1, aderenteAmbienteNacional: adhered, aderenteEmissorNacional: adhered } })
    }
    if (request.method === "GET" && (m = /^\/danfse\/(\d{50})$/.exec(path))) {
      const found = books.notes.get(m[1]!)
      if (found === undefined) return response.writeHead(404).end()
      response.writeHead(200, { "content-type": "application/pdf" })
      return response.end(`%PDF-1.4\n% DANFSe da NFS-e ${found.numero}\n%%EOF\n`)
    }
    violations.push(`${where}: no such route in the API description`)
    response.writeHead(404).end()
  }

  const server: Server = createServer({ key: pki.server.keyPem, cert: pki.server.certPem, ca: [pki.caPem], requestCert: true, rejectUnauthorized: true }, async (request, response) => {
    const text = await readBody(request)
    const path = new URL(request.url ?? "/", "https://fake.invalid").pathname
    calls.push({ method: request.method ?? "", path, client: String((request.socket as TLSSocket).getPeerCertificate().subject?.CN ?? "") })
    if (request.method === "POST" && request.headers["content-type"] !== "application/json") violations.push(`${request.method} ${path}: content-type ${request.headers["content-type"]}`)
    let body: Json = {}
    try {
      body = text === "" ? {} : JSON.parse(text)
    } catch {
      violations.push(`${request.method} ${path}: body is not JSON`)
    }
    route(request, response, path, body)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`

  return {
    baseUrl: `${origin}/SefinNacional`,
    danfseUrl: `${origin}/danfse`,
    parametersUrl: `${origin}/parametrizacao`,
    adhesion,
    books,
    violations,
    documents,
    force: (...answers: ReadonlyArray<SefinForced>) => forced.push(...answers),
    /** Every call received since the last take. */
    takeCalls: () => calls.splice(0),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

export type FakeSefin = Awaited<ReturnType<typeof startFakeSefin>>
