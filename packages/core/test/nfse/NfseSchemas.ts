/**
 * The national NFS-e system's official schemas as a validator for tests:
 * read from `../shared/reference/nfse-nacional/schemas` (never copied into
 * the project), compiled by libxml2 through `xmllint-wasm`.
 *
 * The copy's `TSSerieDPS` pattern uses a lookahead and anchors, which XML
 * Schema regular expressions do not have, so libxml2 refuses the whole
 * schema; the reference README gives the equivalent pattern (1 to 5 digits,
 * not all zeros, with the type's own `maxLength` 5), replaced here in memory.
 */
import { readdirSync, readFileSync } from "node:fs"
import { resolve } from "node:path"
import { validateXML, type XMLFileInfo } from "xmllint-wasm"
import { sharedReference } from "../support/SharedReference.ts"

export const NFSE_REFERENCE = sharedReference("nfse-nacional")

const BROKEN_SERIE_PATTERN = `<xs:pattern value="^(?!0{1,5}$)\\d{1,5}$"/>`
const SERIE_PATTERN = `<xs:pattern value="[0-9]{0,4}[1-9][0-9]{0,4}"/>`

let files: ReadonlyArray<XMLFileInfo> | undefined

/** Every schema file, the one pattern replaced; read once per test process. */
export const schemaFiles = (): ReadonlyArray<XMLFileInfo> =>
  (files ??= readdirSync(resolve(NFSE_REFERENCE, "schemas"))
    .filter((name) => name.endsWith(".xsd"))
    .map((fileName) => {
      const contents = readFileSync(resolve(NFSE_REFERENCE, "schemas", fileName), "utf8")
      if (fileName !== "tiposSimples_v1.01.xsd") return { fileName, contents }
      if (!contents.includes(BROKEN_SERIE_PATTERN)) throw new Error(`the TSSerieDPS pattern of ${fileName} is not the one the README describes`)
      return { fileName, contents: contents.replace(BROKEN_SERIE_PATTERN, SERIE_PATTERN) }
    }))

/** A reference file as text (`dps_example.xml`, an API description). */
export const referenceFile = (path: string): string => readFileSync(resolve(NFSE_REFERENCE, path), "utf8")

export interface Validation {
  readonly valid: boolean
  readonly errors: ReadonlyArray<string>
}

/** Validates `xml` against the root schema `schema` (`DPS_v1.01.xsd`, `pedRegEvento_v1.01.xsd`), the others preloaded. */
export const validateAgainst = async (schema: string, xml: string): Promise<Validation> => {
  const all = schemaFiles()
  const root = all.find((file) => file.fileName === schema)
  if (root === undefined) throw new Error(`no schema ${schema}`)
  const result = await validateXML({
    xml: { fileName: "document.xml", contents: xml },
    schema: root,
    preload: all.filter((file) => file !== root)
  })
  return { valid: result.valid, errors: result.errors.map((error) => error.message) }
}
