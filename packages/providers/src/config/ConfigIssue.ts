/**
 * A Schema decoding failure of the providers file as one line: the path of
 * the first problem and what is wrong there, in the file's own terms
 * ("unknown key", "missing") rather than the Schema's.
 */
import { SchemaIssue } from "effect"
import { invalidAt } from "./ProvidersFileInvalid.ts"

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

/** The Schema's wording of the two structural mistakes, said as an operator would. */
const plain = (message: string) => {
  if (message === "Expected no excess property") return "unknown key"
  if (message === "Missing key") return "missing"
  return message.length === 0 ? "invalid" : message[0]!.toLowerCase() + message.slice(1)
}

/** The key a path segment names (the formatter may wrap keys as `{ key }`). */
const segment = (p: unknown): PropertyKey => (typeof p === "object" && p !== null && "key" in p ? (p as { key: PropertyKey }).key : (p as PropertyKey))

/** The first problem of `issue`, as `ProvidersFileInvalid`. */
export const firstProblem = (issue: SchemaIssue.Issue) => {
  const first = formatter(issue).issues[0]
  return invalidAt((first?.path ?? []).map(segment), plain(first?.message ?? "invalid"))
}
