/**
 * DESIGN's arrows for this package: `cli -> providers -> core`. The
 * providers import the core and their own libraries, never an adapter, the
 * worker or the CLI, so a production layer can be swapped without pulling
 * the server in.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

const sourceFiles = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : []
  )

const allowed = (specifier: string) =>
  specifier.startsWith(".") || specifier.startsWith("node:") || ["effect", "@billing/core", "undici", "node-forge"].some((name) => specifier === name || specifier.startsWith(`${name}/`))

describe("@billing/providers imports", () => {
  it("only the core, effect, undici, node-forge, Node and its own modules", () => {
    const files = sourceFiles(join(import.meta.dirname, "..", "src"))
    expect(files.length).toBeGreaterThan(10)
    const strays = files.flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/^\s*(?:import|export)\b[^"']*?from\s+["']([^"']+)["']/gm)]
        .map((match) => match[1]!)
        .filter((specifier) => !allowed(specifier))
        .map((specifier) => `${file}: ${specifier}`)
    )
    expect(strays).toEqual([])
  })
})
