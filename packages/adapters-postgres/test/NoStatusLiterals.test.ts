/**
 * The adapters' SQL holds no status of its own: the statuses a statement
 * names come from the rules' tables (`core/src/rules`: a transition's `from`
 * and `to`, a status set, a billing job's claim), so changing a rule is
 * changing one table, and storage never decides one.
 *
 * What it reads: every `.ts` file under `packages/adapters-*\/src` except
 * migrations (a migration's CHECK constraints and partial indexes name the
 * statuses as they were when it ran, and never change). In each, the static
 * text of every template literal (the `sql` statements and fragments, nested
 * ones included; comments and plain strings skipped), in which it looks for
 * a quoted word that is a status of a subscription, a cycle, an item, an
 * invoice, a charge or a fiscal note ('ACTIVE').
 *
 * What it cannot see: a status passed as a value (`${"ACTIVE"}`) or built
 * from pieces; SQL written outside a template literal. And it reads only the
 * files whose SQL names a table those statuses live in (`subscriptions`,
 * `subscription_items`, `billing_cycles`, `invoices`, `charges`, `notas`): refunds,
 * withdrawals, proposals and Pix claims have statuses of their own that share
 * names ('PENDING', 'PROCESSING'), which this test cannot tell apart.
 */
import { ChargeStatuses, CycleStatuses, InvoiceStatuses, ItemStatuses, NotaStatus, SubscriptionStatuses } from "@billing/core"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

const STATUSES = new Set<string>([...SubscriptionStatuses, ...CycleStatuses, ...ItemStatuses, ...InvoiceStatuses, ...ChargeStatuses, ...NotaStatus.literals])

const GUARDED_TABLES = /\b(subscriptions|subscription_items|billing_cycles|invoices|charges|notas)\b/

/**
 * The static text of every template literal of `source`, nested ones apart
 * (a `${…}` reads as a space). A small scanner, not a parser: it skips
 * comments and quoted strings, and takes a `/` for a division (the adapters'
 * few regular expressions hold no quote or backtick).
 */
const templateTexts = (source: string): ReadonlyArray<string> => {
  const texts: Array<string> = []
  let i = 0
  const skipString = (quote: string) => {
    for (i++; i < source.length && source[i] !== quote; i++) if (source[i] === "\\") i++
    i++
  }
  const code = (untilClosingBrace: boolean) => {
    let depth = 0
    while (i < source.length) {
      const c = source[i]!
      if (source.startsWith("//", i)) i = source.indexOf("\n", i) === -1 ? source.length : source.indexOf("\n", i)
      else if (source.startsWith("/*", i)) i = source.indexOf("*/", i + 2) + 2
      else if (c === "\"" || c === "'") skipString(c)
      else if (c === "`") {
        i++
        template()
      } else {
        if (c === "{") depth++
        if (c === "}" && depth-- === 0 && untilClosingBrace) return void i++
        i++
      }
    }
  }
  const template = () => {
    let text = ""
    while (i < source.length) {
      if (source[i] === "\\") {
        text += source.slice(i, i + 2)
        i += 2
      } else if (source[i] === "`") {
        i++
        return void texts.push(text)
      } else if (source.startsWith("${", i)) {
        i += 2
        text += " "
        code(true)
      } else text += source[i++]
    }
  }
  code(false)
  return texts
}

/** The statuses quoted in the SQL of `source`, when it names a table they live in. */
const statusLiterals = (source: string): ReadonlyArray<string> => {
  const texts = templateTexts(source)
  if (!texts.some((text) => GUARDED_TABLES.test(text))) return []
  return texts.flatMap((text) => [...text.matchAll(/'([A-Z_]+)'/g)].map((m) => m[1]!).filter((word) => STATUSES.has(word)))
}

const root = join(import.meta.dirname, "..", "..")
const adapterSources = readdirSync(root)
  .filter((name) => name.startsWith("adapters-"))
  .flatMap((adapter) =>
    readdirSync(join(root, adapter, "src"), { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts") && !file.split(/[\\/]/).includes("migrations"))
      .map((file) => ({ file: `${adapter}/src/${file}`, source: readFileSync(join(root, adapter, "src", file), "utf8") }))
  )

describe("status literals in the adapters' SQL", () => {
  it("finds a status quoted in a statement, in a nested fragment, and not in a comment, a string or a value", () => {
    const source = [
      "// status = 'PAID' in a comment",
      "const label = \"'PAID'\"",
      "const a = sql`UPDATE billing_cycles SET status = ${\"PAID\"} WHERE ${cond ? sql`status IN ('SCHEDULED', 'PENDING')` : sql``}`",
      "const b = sql`SELECT 'YYYY-MM-DD', 'pix' FROM invoices WHERE status <> 'OVERDUE'`"
    ].join("\n")
    expect(statusLiterals(source)).toEqual(["SCHEDULED", "PENDING", "OVERDUE"])
  })

  it("reads only the files whose SQL names a table of those statuses", () => {
    expect(statusLiterals("sql`UPDATE refunds SET status = 'PROCESSING'`")).toEqual([])
  })

  it("counts the storage of subscriptions and of charges among the files it reads", () => {
    const files = adapterSources.map((s) => s.file)
    expect(files).toContain("adapters-postgres/src/SubscriptionsStorage.ts")
    expect(files).toContain("adapters-postgres/src/ChargesStorage.ts")
    const guarded = adapterSources.filter((s) => templateTexts(s.source).some((text) => GUARDED_TABLES.test(text))).map((s) => s.file)
    expect(guarded).toEqual(expect.arrayContaining([
      "adapters-postgres/src/SubscriptionsStorage.ts",
      "adapters-postgres/src/ChargesStorage.ts",
      "adapters-postgres/src/NotasStorage.ts"
    ]))
  })

  it("holds no status of a subscription, cycle, item, invoice, charge or note in any adapter's SQL outside migrations", () => {
    const found = adapterSources.flatMap((s) => statusLiterals(s.source).map((status) => `${s.file}: '${status}'`))
    expect(found).toEqual([])
  })
})
