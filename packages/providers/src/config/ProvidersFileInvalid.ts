/** The providers file cannot be used: one line naming the first problem's path. */
import { Schema } from "effect"

/**
 * What is wrong with a providers file, as one line `path: problem`
 * (`pix[0].tls.pfx: file not found`), so an operator can go straight to the
 * key; the CLI prints it as it is and stops.
 */
export class ProvidersFileInvalid extends Schema.TaggedError<ProvidersFileInvalid>()("ProvidersFileInvalid", {
  message: Schema.String
}) {}

/** `pix[0].tls.pfx` from `["pix", 0, "tls", "pfx"]`, as a person reading the file would point at it. */
export const pathText = (path: ReadonlyArray<PropertyKey>) =>
  path.reduce<string>(
    (text, key) => (typeof key === "number" ? `${text}[${key}]` : text === "" ? String(key) : `${text}.${String(key)}`),
    ""
  )

/** The one line for a problem at `path`. */
export const invalidAt = (path: ReadonlyArray<PropertyKey>, problem: string) =>
  new ProvidersFileInvalid({ message: path.length === 0 ? problem : `${pathText(path)}: ${problem}` })
