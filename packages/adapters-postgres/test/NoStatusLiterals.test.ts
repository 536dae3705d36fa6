/**
 * The adapters' SQL holds no status of its own: the statuses a statement
 * names come from the rules' tables (`core/src/rules`: a transition's `from`
 * and `to`, a status set, a job's claim), so changing a rule is changing one
 * table, and storage never decides one.
 *
 * What it reads: every `.ts` file under `packages/adapters-*\/src` except
 * migrations (a migration's CHECK constraints and partial indexes name the
 * statuses as they were when it ran, and never change). In each, the static
 * text of every template literal (the `sql` statements and fragments, nested
 * ones included; comments and other strings skipped) and every string passed
 * straight to `sql.literal(…)`, in which it looks for a quoted word of a
 * closed set of the core ('ACTIVE'): the statuses of subscriptions, cycles,
 * items, invoices, charges, fiscal notes, refunds and split debts,
 * withdrawals, proposals, Pix claims, disputes, MED infractions and webhook
 * deliveries; the ledger's books, directions and categories, and the
 * reasons of split debts. Sets share words ('PENDING', 'pending'), so a
 * word of any set is refused in any file.
 *
 * What it cannot see: a status passed as a value (`${"ACTIVE"}`) or built
 * from pieces; SQL written outside a template literal and not passed to
 * `sql.literal` as a string (a constant holding SQL, say).
 */
import {
  Book,
  ChargeStatuses,
  CycleStatuses,
  DebtReasons,
  DebtStatuses,
  DeliveryStatus,
  DisputeStatus,
  FormStatus,
  InvoiceStatuses,
  ItemStatuses,
  LedgerCategories,
  MedStatus,
  NotaStatus,
  PixClaimStatus,
  Proposal,
  RailDirections,
  RefundStatus,
  StageStatus,
  SubscriptionStatuses,
  WithdrawalStatus
} from "@billing/core"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

const STATUSES = new Set<string>([
  ...SubscriptionStatuses,
  ...CycleStatuses,
  ...ItemStatuses,
  ...InvoiceStatuses,
  ...ChargeStatuses,
  ...NotaStatus.literals,
  ...RefundStatus.literals,
  ...DebtStatuses,
  ...WithdrawalStatus.literals,
  ...FormStatus.literals,
  ...StageStatus.literals,
  ...Proposal.fields.account.literals,
  ...PixClaimStatus.literals,
  ...DisputeStatus.literals,
  ...MedStatus.literals,
  ...DeliveryStatus.literals,
  ...Book.literals,
  ...RailDirections,
  ...LedgerCategories,
  ...DebtReasons
])

/**
 * Quoted words the adapters may keep, each with why. Only words of no set
 * of the core belong here: a status a rule names never does.
 */
const ALLOWED: ReadonlyArray<{ readonly file: string; readonly status: string; readonly why: string }> = [
  {
    file: "adapters-postgres/src/NotificationsStorage.ts",
    status: "pending",
    why: "the e-mail queue's own status ('pending', 'sent', 'failed'): the core names none for a notification, and the word is a webhook delivery's too"
  },
  {
    file: "adapters-postgres/src/NotificationsStorage.ts",
    status: "failed",
    why: "the e-mail queue's own status ('pending', 'sent', 'failed'): the core names none for a notification, and the word is a webhook delivery's too"
  }
]

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
      else if (c === "\"" || c === "'") {
        const from = i
        skipString(c)
        // A string given straight to `sql.literal` is written into the statement as it is.
        if (/\.literal\(\s*$/.test(source.slice(Math.max(0, from - 40), from))) texts.push(source.slice(from + 1, i - 1))
      } else if (c === "`") {
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

/** The words of the core's sets quoted in the SQL of `source`. */
const statusLiterals = (source: string): ReadonlyArray<string> =>
  templateTexts(source).flatMap((text) => [...text.matchAll(/'([A-Za-z_]+)'/g)].map((m) => m[1]!).filter((word) => STATUSES.has(word)))

const root = join(import.meta.dirname, "..", "..")
const adapterSources = readdirSync(root)
  .filter((name) => name.startsWith("adapters-"))
  .flatMap((adapter) =>
    readdirSync(join(root, adapter, "src"), { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts") && !file.split(/[\\/]/).includes("migrations"))
      .map((file) => ({ file: `${adapter}/src/${file}`, source: readFileSync(join(root, adapter, "src", file), "utf8") }))
  )

describe("status literals in the adapters' SQL", () => {
  it("finds a status quoted in a statement, in a nested fragment and in a string given to sql.literal; not in a comment, another string or a value", () => {
    const source = [
      "// status = 'PAID' in a comment",
      "const label = \"'PAID'\"",
      "const a = sql`UPDATE billing_cycles SET status = ${\"PAID\"} WHERE ${cond ? sql`status IN ('SCHEDULED', 'PENDING')` : sql``}`",
      "const b = sql`SELECT 'YYYY-MM-DD', 'pix' FROM invoices WHERE status <> 'OVERDUE'`",
      "const c = sql`SELECT 1 FROM proposals WHERE ${sql.literal(\"proposal <> 'REPROVED'\")}`"
    ].join("\n")
    expect(statusLiterals(source)).toEqual(["SCHEDULED", "PENDING", "OVERDUE", "REPROVED"])
  })

  it("knows the statuses of refunds, withdrawals, proposals, claims, disputes, MED and deliveries, and the ledger's books and directions, in any statement", () => {
    const statements = [
      "sql`UPDATE refunds SET status = 'CONFIRMED' WHERE status = 'PROCESSING'`",
      "sql`UPDATE split_debts SET status = 'CANCELED' WHERE reason = 'OPENING_FEE'`",
      "sql`SELECT 1 FROM withdrawals WHERE status <> 'FAILED'`",
      "sql`SELECT 1 FROM proposals WHERE form_status = 'FINISHED' AND account = 'CONFIRMED' AND proposal = 'APPROVED'`",
      "sql`SELECT 1 FROM pix_claims WHERE status = 'COMPLETED'`",
      "sql`SELECT 1 FROM disputes WHERE status = 'LOST'`",
      "sql`SELECT 1 FROM med_infractions WHERE status = 'RELEASED'`",
      "sql`SELECT CASE WHEN status = 'pending' THEN 'sending' END FROM webhook_deliveries WHERE status = 'delivered'`",
      "sql`SELECT CASE WHEN amount_cents < 0 THEN 'CREDIT' ELSE 'DEBIT' END FROM ledger_lines WHERE book IN ('AVAILABLE', 'CLEARING')`",
      "sql`SELECT 'FEE' AS category`"
    ]
    expect(statements.map(statusLiterals)).toEqual([
      ["CONFIRMED", "PROCESSING"],
      ["CANCELED", "OPENING_FEE"],
      ["FAILED"],
      ["FINISHED", "CONFIRMED", "APPROVED"],
      ["COMPLETED"],
      ["LOST"],
      ["RELEASED"],
      ["pending", "sending", "delivered"],
      ["CREDIT", "DEBIT", "AVAILABLE", "CLEARING"],
      ["FEE"]
    ])
  })

  it("reads every adapter file but migrations", () => {
    const files = adapterSources.map((s) => s.file)
    expect(files).toEqual(expect.arrayContaining([
      "adapters-postgres/src/SubscriptionsStorage.ts",
      "adapters-postgres/src/ChargesStorage.ts",
      "adapters-postgres/src/NotasStorage.ts",
      "adapters-postgres/src/RefundsStorage.ts",
      "adapters-postgres/src/WithdrawalsStorage.ts",
      "adapters-postgres/src/ProposalsStorage.ts",
      "adapters-postgres/src/PixClaimsStorage.ts",
      "adapters-postgres/src/DisputesStorage.ts",
      "adapters-postgres/src/MedInfractionsStorage.ts",
      "adapters-postgres/src/LedgerStorage.ts",
      "adapters-postgres/src/WebhookDeliveriesStorage.ts",
      "adapters-postgres/src/WebhooksStorage.ts"
    ]))
    expect(files.filter((file) => file.includes("migrations"))).toEqual([])
    // The migrations do name statuses: were they read, the last test could not pass.
    expect(readdirSync(join(root, "adapters-postgres", "src", "migrations")).length).toBeGreaterThan(0)
  })

  it("holds no word of the core's sets in any adapter's SQL outside migrations, but the ones allowed", () => {
    const found = adapterSources.flatMap((s) => [...new Set(statusLiterals(s.source))].map((status) => `${s.file}: '${status}'`))
    expect(found.sort()).toEqual(ALLOWED.map((a) => `${a.file}: '${a.status}'`).sort())
  })
})
