import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { isBusinessDay } from "../../src/brazil/BankCalendar.ts"
import type { Charge, PaymentType } from "../../src/domain/Charge.ts"
import { type EntryDraft, HOUSE, type Receivable } from "../../src/domain/Ledger.ts"
import { type Cents, cents } from "../../src/money/Money.ts"
import { computeFees } from "../../src/rules/Fees.ts"
import type { Refund } from "../../src/domain/Refund.ts"
import {
  debtSettlementPosting,
  takeInOrder,
  paymentPosting,
  type PixSendMovement,
  receivableSettlement,
  refundMovement,
  refundPosting,
  refundReturnedPosting,
  refundSettledPosting,
  reversalParts,
  settlementDays,
  pixSendPosting,
  pixSendReturnedPosting,
  pixSendSettledPosting
} from "../../src/rules/Postings.ts"

const PAID_AT = new Date("2026-11-20T15:00:00.000Z") // a Friday, noon in São Paulo

/** A paid charge of `gross` under a fee of `fixed` + `percentHundredths`, its net split as `parts` (receivers R0, R1, ...). */
const paidCharge = (gross: number, fee: { fixed: number; percentHundredths: number }, parts: ReadonlyArray<number>, type: PaymentType = "PIX", installments = 1): Charge => {
  const fees = computeFees(cents(gross), { fixed: cents(fee.fixed), percentHundredths: fee.percentHundredths })
  return {
    id: "cha_1",
    accountId: "OWNER",
    masterAccountId: "OWNER",
    paymentType: type,
    status: "PAID",
    amount: cents(gross),
    fee: fees.fees.total,
    feeFixed: fees.fees.fixed,
    feePercentHundredths: fee.percentHundredths,
    net: fees.net,
    txid: "tx",
    emv: null,
    externalTxid: null,
    description: null,
    metadata: null,
    customer: null,
    split: parts.map((amount, i) => ({ accountId: `R${i}`, accountNumber: `${i}`, type: "fixed" as const, value: amount, amount: cents(amount) })),
    dueDate: null,
    expiresAt: PAID_AT,
    paidAt: PAID_AT,
    endToEndId: null,
    payer: null,
    canceledAt: null,
    archivedAt: null,
    attempts: 0,
    externalId: null,
    customerId: null,
    card: type === "CREDIT_CARD" ? { brand: "visa", firstSix: "411111", lastFour: "1111", installments } : null,
    boleto: null,
    address: null,
    notifications: null,
    failureReason: null,
    subscriptionId: null,
    cycleNumber: null,
    createdAt: PAID_AT,
    updatedAt: PAID_AT
  }
}

const sum = (entry: EntryDraft, where: (line: EntryDraft["lines"][number]) => boolean = () => true) =>
  entry.lines.filter(where).reduce((total, line) => total + line.amount, 0)

describe("posting examples", () => {
  it("credits a Pix of 100.00 with a 1.49 fee and a 9.85 split: the owner keeps 88.66, all available at once", () => {
    const { entry, receivables } = paymentPosting(paidCharge(10_000, { fixed: 50, percentHundredths: 99 }, [985]), PAID_AT, null)
    expect(entry.lines.map((l) => [l.holder, l.book, l.category, l.amount])).toEqual([
      [HOUSE, "CLEARING", "PAYMENT", -10_000],
      ["OWNER", "AVAILABLE", "PAYMENT", 10_000],
      ["OWNER", "AVAILABLE", "FEE", -149],
      [HOUSE, "FEES", "FEE", 149],
      ["OWNER", "AVAILABLE", "TRANSFER", -985],
      ["R0", "AVAILABLE", "TRANSFER", 985]
    ])
    expect(receivables).toEqual([])
  })

  it("settles a boleto paid on a Friday on Monday, and a card's installments every 30 days on business days", () => {
    // Paid Friday 2026-11-20: the next day is Saturday 21 → recognized Monday 23.
    expect(settlementDays(paidCharge(1000, { fixed: 0, percentHundredths: 0 }, [], "BOLETO"), PAID_AT)).toEqual(["2026-11-23"])
    // +30 = Sunday 2026-12-20 → Monday 21; +60 = Tuesday 2027-01-19; +90 = Thursday 2027-02-18.
    expect(settlementDays(paidCharge(1000, { fixed: 0, percentHundredths: 0 }, [], "CREDIT_CARD", 3), PAID_AT))
      .toEqual(["2026-12-21", "2027-01-19", "2027-02-18"])
  })

  it("adds up two parts of one receiver: one receivable per installment for it", () => {
    // 100.00, no fee, 2 installments: R0 gets 10.00 and 5.00, 15.00 in all → 7.50 twice; the owner 85.00 → 42.50 twice.
    const charge = paidCharge(10_000, { fixed: 0, percentHundredths: 0 }, [1000, 500], "CREDIT_CARD", 2)
    const twice = { ...charge, split: charge.split!.map((part) => ({ ...part, accountId: "R0", accountNumber: "0" })) }
    expect(paymentPosting(twice, PAID_AT, null).receivables.map((r) => [r.holder, r.installment, r.amount])).toEqual([
      ["OWNER", 1, 4250], ["OWNER", 2, 4250], ["R0", 1, 750], ["R0", 2, 750]
    ])
    // Refunding 60.00: R0 returns 15.00 × 60/100 = 9.00, once.
    expect(reversalParts(twice, cents(6000))).toEqual([{ accountId: "R0", accountNumber: "0", amount: 900 }])
  })

  it("spreads each holder's share of a card over its installments, the first taking the extra centavos", () => {
    // 100.00, no fee, 10.00 to R0, 3 installments: owner 90.00 → 30.00 × 3; R0 10.00 → 3.34, 3.33, 3.33.
    const { entry, receivables } = paymentPosting(paidCharge(10_000, { fixed: 0, percentHundredths: 0 }, [1000], "CREDIT_CARD", 3), PAID_AT, null)
    expect(new Set(entry.lines.filter((l) => l.holder !== HOUSE).map((l) => l.book))).toEqual(new Set(["RECEIVABLE"]))
    expect(receivables.map((r) => [r.holder, r.installment, r.amount])).toEqual([
      ["OWNER", 1, 3000], ["OWNER", 2, 3000], ["OWNER", 3, 3000],
      ["R0", 1, 334], ["R0", 2, 333], ["R0", 3, 333]
    ])
  })
})

const chargeArbitrary = fc.record({
  gross: fc.integer({ min: 1, max: 10_000_000 }),
  fixed: fc.integer({ min: 0, max: 500 }),
  percentHundredths: fc.integer({ min: 0, max: 1_000 }),
  weights: fc.array(fc.integer({ min: 0, max: 100 }), { maxLength: 5 }),
  type: fc.constantFrom<PaymentType>("PIX", "BOLETO", "CREDIT_CARD"),
  installments: fc.integer({ min: 1, max: 12 })
}).map(({ gross, fixed, percentHundredths, weights, type, installments }) => {
  const net = computeFees(cents(gross), { fixed: cents(fixed), percentHundredths }).net
  // Parts that fit in the net: each a share of it in proportion to its weight, out of at least 100.
  const total = Math.max(100, weights.reduce((a, b) => a + b, 0))
  const parts = weights.map((w) => Math.floor((net * w) / total))
  return paidCharge(gross, { fixed, percentHundredths }, parts, type, installments)
})

describe("posting laws", () => {
  it("a payment's entry balances; the owner gets net − parts, each receiver its part, we the fee; receivables add up to each share", () => {
    fc.assert(fc.property(chargeArbitrary, (charge) => {
      const { entry, receivables } = paymentPosting(charge, PAID_AT, null)
      const parts = (charge.split ?? []).map((p) => p.amount)
      const partsTotal = parts.reduce((a, b) => a + b, 0)
      expect(sum(entry)).toBe(0)
      expect(sum(entry, (l) => l.holder === "OWNER")).toBe(charge.net - partsTotal)
      parts.forEach((amount, i) => expect(sum(entry, (l) => l.holder === `R${i}`)).toBe(amount))
      expect(sum(entry, (l) => l.book === "FEES")).toBe(charge.fee)
      expect(sum(entry, (l) => l.book === "CLEARING")).toBe(-charge.amount)
      const days = settlementDays(charge, PAID_AT)
      for (const holder of ["OWNER", ...parts.map((_, i) => `R${i}`)]) {
        const share = sum(entry, (l) => l.holder === holder)
        const mine = receivables.filter((r) => r.holder === holder)
        expect(mine.reduce((a, r) => a + r.amount, 0)).toBe(charge.paymentType === "PIX" ? 0 : share)
        expect(mine.every((r) => r.amount > 0 && r.settlesOn === days[r.installment - 1])).toBe(true)
      }
      expect(days.every(isBusinessDay)).toBe(true)
      expect([...days].sort()).toEqual(days)
    }))
  })

  it("over any sequence of payments, settlements, Pix sent, refunds and chargebacks and their outcomes, every entry balances, no book passes zero but through a debt, and the accounts hold payments − fees − Pix sent − refunds", () => {
    type Step =
      | { readonly _tag: "pay"; readonly charge: Charge }
      | { readonly _tag: "withdraw"; readonly holder: number; readonly amount: number; readonly fee: number }
      | { readonly _tag: "outcome"; readonly paid: boolean }
      | { readonly _tag: "settle" }
      | { readonly _tag: "refund"; readonly which: number; readonly percent: number; readonly confirmed: boolean; readonly chargeback: boolean }
      | { readonly _tag: "payDebts" }
    const step: fc.Arbitrary<Step> = fc.oneof(
      { weight: 3, arbitrary: chargeArbitrary.map((charge) => ({ _tag: "pay" as const, charge })) },
      {
        weight: 3,
        arbitrary: fc.record({
          _tag: fc.constant("withdraw" as const),
          holder: fc.integer({ min: -1, max: 4 }),
          // 0: all the balance can pay, fee included (a receiver left with nothing to return a split).
          amount: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 5_000 }), fc.integer({ min: 1, max: 5_000_000 })),
          fee: fc.constantFrom(0, 47)
        })
      },
      { weight: 1, arbitrary: fc.record({ _tag: fc.constant("outcome" as const), paid: fc.boolean() }) },
      { weight: 1, arbitrary: fc.constant({ _tag: "settle" as const }) },
      { weight: 1, arbitrary: fc.constant({ _tag: "payDebts" as const }) },
      { weight: 3, arbitrary: fc.record({
          _tag: fc.constant("refund" as const),
          which: fc.nat(),
          percent: fc.integer({ min: 1, max: 100 }),
          confirmed: fc.boolean(),
          chargeback: fc.boolean()
        }) }
    )
    fc.assert(fc.property(fc.array(step, { minLength: 5, maxLength: 60 }), (steps) => {
      const balances = new Map<string, number>()
      const balanceOf = (holder: string, book: string) => balances.get(`${holder}/${book}`) ?? 0
      const post = (entry: EntryDraft) => {
        expect(sum(entry)).toBe(0)
        for (const line of entry.lines) {
          const key = `${line.holder}/${line.book}`
          const after = (balances.get(key) ?? 0) + line.amount
          // The database's bounds: an account's DEBT book never above zero, its other books never below.
          if (line.holder !== HOUSE && line.book === "DEBT") expect(after, key).toBeLessThanOrEqual(0)
          else if (line.holder !== HOUSE) expect(after, key).toBeGreaterThanOrEqual(0)
          balances.set(key, after)
        }
      }
      const pending: Array<{ -readonly [K in keyof Receivable]: Receivable[K] }> = []
      const inFlight: Array<PixSendMovement> = []
      const paid: Array<{ charge: Charge; refunded: number }> = []
      // What each holder owes, oldest first, as the split debts the use cases write.
      const debts: Array<{ id: string; holder: string; remaining: Cents }> = []
      let expected = 0
      for (const [i, s] of steps.entries()) {
        if (s._tag === "pay") {
          const charge = { ...s.charge, id: `cha_${i}` }
          const { entry, receivables } = paymentPosting(charge, PAID_AT, null)
          post(entry)
          pending.push(...receivables.map((r, n) => ({ ...r, id: `rcv_${i}_${n}` })))
          paid.push({ charge, refunded: 0 })
          expected += charge.amount - charge.fee
        } else if (s._tag === "payDebts") {
          // As a credit does: what each holder has available pays its debts, oldest first.
          for (const holder of new Set(debts.map((d) => d.holder))) {
            const owed = debts.filter((d) => d.holder === holder && d.remaining > 0)
            const payments = takeInOrder(owed, cents(balanceOf(holder, "AVAILABLE")))
            const total = payments.reduce((a, p) => a + p.paid, 0)
            if (total === 0) continue
            post(debtSettlementPosting(holder, cents(total), `dsp_${i}_${holder}`, "REFUND"))
            for (const p of payments) debts.find((d) => d.id === p.id)!.remaining = p.remaining
          }
        } else if (s._tag === "settle") {
          // As the worker: a receivable a refund took whole settles nothing.
          for (const r of pending.splice(0)) if (r.amount > 0) post(receivableSettlement(r, null))
        } else if (s._tag === "withdraw") {
          const holder = s.holder < 0 ? "OWNER" : `R${s.holder}`
          const amount = s.amount === 0 ? balanceOf(holder, "AVAILABLE") - s.fee : s.amount
          // The use case's rule: only what the available balance covers, fee included.
          if (amount < 1 || balanceOf(holder, "AVAILABLE") < amount + s.fee) continue
          const kind = s.holder % 2 === 0 ? "WITHDRAWAL" as const : "PIX_TRANSFER" as const
          const w = { id: `wdr_${i}`, kind, accountId: holder, amount: cents(amount), fee: cents(s.fee), endToEndId: null, receiver: null }
          post(pixSendPosting(w))
          inFlight.push(w)
          expected -= amount + s.fee
        } else if (s._tag === "outcome") {
          const w = inFlight.shift()
          if (w === undefined) continue
          post(s.paid ? pixSendSettledPosting(w) : pixSendReturnedPosting(w))
          if (!s.paid) expected += w.amount + w.fee
        } else {
          // A refund as the use case makes it: each holder's part from the charge's receivable (newest first), then its balance; receivers owe the rest.
          const target = paid[s.which % Math.max(1, paid.length)]
          if (target === undefined || target.charge.paymentType === "BOLETO") continue
          const remaining = target.charge.amount - target.refunded
          const amount = cents(Math.max(1, Math.floor((remaining * s.percent) / 100)))
          if (remaining === 0) continue
          const receivers = reversalParts(target.charge, amount)
          const owner = { accountId: "OWNER", amount: cents(amount - receivers.reduce((a, r) => a + r.amount, 0)) }
          const taken: Array<{ row: (typeof pending)[number]; amount: number }> = []
          const parts = [owner, ...receivers].map((part) => {
            let fromReceivable = 0
            const rows = target.charge.paymentType === "CREDIT_CARD"
              ? pending.filter((r) => r.holder === part.accountId && r.chargeId === target.charge.id).sort((a, b) => b.installment - a.installment)
              : []
            for (const row of rows) {
              const take = Math.min(row.amount, part.amount - fromReceivable)
              if (take > 0) taken.push({ row, amount: take })
              fromReceivable += take
            }
            const fromAvailable = Math.min(part.amount - fromReceivable, balanceOf(part.accountId, "AVAILABLE"))
            return { holder: part.accountId, fromReceivable: cents(fromReceivable), fromAvailable: cents(fromAvailable), owed: cents(part.amount - fromReceivable - fromAvailable) }
          })
          // A card's lost dispute is taken back whatever the balances (the owner owes what it lacks) and confirmed at once.
          const chargeback = s.chargeback && target.charge.paymentType === "CREDIT_CARD"
          // A merchant's own refund needs the owner's part: else INSUFFICIENT_BALANCE and nothing moves.
          if (parts[0]!.owed > 0 && !chargeback) continue
          for (const t of taken) t.row.amount = cents(t.row.amount - t.amount)
          // The refund as the use case records it; its movement is the production's reading of that record.
          const reversals = receivers.map((r, k) => {
            const part = parts[k + 1]!
            return {
              accountId: r.accountId,
              accountNumber: r.accountNumber,
              amount: r.amount,
              reversed: cents(part.fromReceivable + part.fromAvailable),
              status: part.owed > 0 ? "PENDING" as const : "REVERSED" as const,
              debtId: part.owed > 0 ? `sdb_${i}_${k}` : null
            }
          })
          const refund: Refund = {
            id: `ref_${i}`,
            accountId: "OWNER",
            chargeId: target.charge.id,
            paymentType: target.charge.paymentType as "PIX" | "CREDIT_CARD",
            endToEndId: null,
            amount,
            reason: chargeback ? "CHARGEBACK" : "CUSTOMER_REQUEST",
            status: chargeback ? "CONFIRMED" : "PROCESSING",
            returnIdentification: null,
            providerChargeId: null,
            error: null,
            splitReversals: reversals,
            receivablesTaken: taken.map((t) => ({ receivableId: t.row.id, holder: t.row.holder, amount: cents(t.amount) })),
            ownerDebt: parts[0]!.owed > 0 ? { debtId: `sdb_${i}_owner`, amount: parts[0]!.owed } : null,
            createdAt: PAID_AT,
            updatedAt: PAID_AT
          }
          const m = refundMovement(refund)
          expect(m.parts).toEqual(parts)
          const lines = refundPosting(m).lines
          expect(new Set(lines.map((l) => l.category))).toEqual(new Set([chargeback ? "CHARGEBACK" : "REFUND"]))
          post(refundPosting(m))
          const owedNow = [...reversals.flatMap((r) => r.debtId === null ? [] : [{ id: r.debtId, holder: r.accountId, remaining: cents(r.amount - r.reversed) }]),
            ...(refund.ownerDebt === null ? [] : [{ id: refund.ownerDebt.debtId, holder: "OWNER", remaining: refund.ownerDebt.amount }])]
          if (s.confirmed || chargeback) {
            debts.push(...owedNow)
            post(refundSettledPosting(m, null))
            target.refunded += amount
            expected -= amount
          } else {
            // Refused: what it took of receivables not settled since goes back to them, the rest to the balance; debts are canceled.
            const kept = new Map<string, Cents>()
            for (const t of taken) {
              if (!pending.includes(t.row)) continue
              t.row.amount = cents(t.row.amount + t.amount)
              kept.set(t.row.holder, cents((kept.get(t.row.holder) ?? 0) + t.amount))
            }
            post(refundReturnedPosting(m, { debtPaid: new Map(), receivableKept: kept }))
          }
        }
      }
      const accounts = [...balances].filter(([key]) => !key.startsWith(`${HOUSE}/`)).reduce((a, [, v]) => a + v, 0)
      expect(accounts).toBe(expected)
      // What is left in the house's payouts is exactly what was sent and has no outcome yet.
      expect(balanceOf(HOUSE, "PAYOUTS")).toBe(inFlight.reduce((a, w) => a + w.amount, 0))
      // Every holder's DEBT book is what it still owes.
      for (const holder of new Set(debts.map((d) => d.holder))) {
        expect(0 - balanceOf(holder, "DEBT") + 0, holder).toBe(debts.filter((d) => d.holder === holder).reduce((a, d) => a + d.remaining, 0))
      }
      // Every receivable still pending is in its holder's RECEIVABLE book.
      for (const holder of new Set(pending.map((r) => r.holder))) {
        expect(balanceOf(holder, "RECEIVABLE")).toBe(pending.filter((r) => r.holder === holder).reduce((a, r) => a + r.amount, 0))
      }
    }), { numRuns: 300 })
  })
})
