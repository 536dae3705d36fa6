/**
 * The public references the tests read (`../shared/reference`, beside the
 * checkout; never copied into the project). Found by walking up from here
 * to the first folder that has `shared/reference` beside it: the checkout's
 * parent, also when the tests run from a copy inside it (StrykerJS runs the
 * core's tests in `.stryker-tmp/sandbox-*`).
 */
import { existsSync } from "node:fs"
import { dirname, resolve } from "node:path"

const referenceRoot = (from: string): string => {
  const candidate = resolve(from, "shared", "reference")
  if (existsSync(candidate)) return candidate
  const parent = dirname(from)
  // At the file system's root: the path the README names, for the error to show.
  return parent === from ? resolve(import.meta.dirname, "..", "..", "..", "..", "..", "shared", "reference") : referenceRoot(parent)
}

/** A path inside `../shared/reference`. */
export const sharedReference = (...parts: ReadonlyArray<string>): string => resolve(referenceRoot(import.meta.dirname), ...parts)
