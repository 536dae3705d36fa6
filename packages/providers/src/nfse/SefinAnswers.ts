/**
 * The answers of Sefin Nacional as its API descriptions give them
 * (`shared/reference/nfse-nacional/api-specs`), read with their keys in
 * lower case: the descriptions themselves spell one field `idDps` in one
 * answer and `idDPS` in another, and integrators report `Erros`, `erros`
 * and `erro` alike, so no answer is refused for its casing.
 */
import type { NotaError } from "@billing/core/domain/Nota"
import { Option, Schema } from "effect"

/** Every object key in lower case, at any depth. */
export const lowerKeys = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(lowerKeys)
    : value !== null && typeof value === "object"
    ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [key.toLowerCase(), lowerKeys(inner)]))
    : value

const Text = Schema.optional(Schema.NullOr(Schema.Union([Schema.String, Schema.Number])))

/** `MensagemProcessamento`. */
const Mensagem = Schema.Struct({ codigo: Text, descricao: Text, mensagem: Text, complemento: Text })
type Mensagem = typeof Mensagem.Type

/** `NFSePostResponseErro` (`erros`, a list) and `ResponseErro` (`erro`, one; a list accepted too). */
const ErrorAnswer = Schema.Struct({
  erros: Schema.optional(Schema.NullOr(Schema.Array(Mensagem))),
  erro: Schema.optional(Schema.NullOr(Schema.Union([Mensagem, Schema.Array(Mensagem)])))
})

/** `NFSePostResponseSucesso`, `NFSeGetResponseSucesso`. */
export const NfseAnswer = Schema.Struct({
  chaveacesso: Schema.String,
  nfsexmlgzipb64: Schema.String,
  datahoraprocessamento: Schema.optional(Schema.String)
})

/** `DpsGetResponse`. */
export const DpsAnswer = Schema.Struct({ chaveacesso: Schema.String })

/** `EventosPostResponseSucesso`. */
export const EventAnswer = Schema.Struct({
  eventoxmlgzipb64: Schema.String,
  datahoraprocessamento: Schema.optional(Schema.String)
})

const decodeJson = Schema.decodeUnknownOption(Schema.fromJsonString(Schema.Unknown))

/** The JSON of an answer's body with its keys in lower case; `undefined` when it is not JSON. */
export const readJson = (text: string): unknown => Option.match(decodeJson(text), { onNone: () => undefined, onSome: lowerKeys })

const notaError = (mensagem: Mensagem): NotaError => {
  const words = [mensagem.descricao ?? mensagem.mensagem, mensagem.complemento].filter((part) => part !== undefined && part !== null && part !== "")
  return {
    code: mensagem.codigo === undefined || mensagem.codigo === null ? "SEFIN" : String(mensagem.codigo),
    message: words.length === 0 ? "Erro sem descrição" : words.join(": ")
  }
}

const decodeErrors = Schema.decodeUnknownOption(ErrorAnswer)

/** The messages of an error answer (`erros` or `erro`) as `nf.errors`; empty when the body holds none. */
export const errorsOf = (json: unknown): ReadonlyArray<NotaError> =>
  Option.match(decodeErrors(json), {
    onNone: () => [],
    onSome: (answer) => {
      const erro = answer.erro === undefined || answer.erro === null ? [] : Array.isArray(answer.erro) ? answer.erro : [answer.erro as Mensagem]
      return [...(answer.erros ?? []), ...erro].map(notaError)
    }
  })

/**
 * `dataHoraProcessamento` as a date: the system writes seven decimal
 * places (`21:47:12.1202384-03:00`), more than `Date` reads, so they are
 * cut to milliseconds first.
 */
export const processedAt = (text: string | undefined): Date | undefined => {
  if (text === undefined) return undefined
  const date = new Date(text.replace(/(\.\d{3})\d+/, "$1"))
  return Number.isNaN(date.getTime()) ? undefined : date
}
