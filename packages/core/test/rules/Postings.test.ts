import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { isBusinessDay } from "../../src/brazil/BankCalendar.ts"
import type { Charge, PaymentType } from "../../src/domain/Charge.ts"
import { type EntryDraft, HOUSE, type Receivable } from "../../src/domain/Ledger.ts"
import { AccountId, ChargeId, DebtId, ReceivableId, RefundId, SubscriptionId } from "../../src/domain/Ids.ts"
import { type Cents, cents } from "../../src/money/Money.ts"
import { computeFees } from "../../src/rules/Fees.ts"
import type { Refund } from "../../src/domain/Refund.ts"
import {
  debtSettlementPosting,
  leftToRefund,
  medBlockPosting,
  medReleasePosting,
  medReturnPosting,
  openingFeePosting,
  paidAtOnce,
  type RefundMovement,
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

const CHA_1 = ChargeId.make("cha_1")
const OWNER = AccountId.make("OWNER")
const R0 = AccountId.make("R0")
const SUB_1 = SubscriptionId.make("sub_1")
const PAID_AT = new Date("2026-11-20T15:00:00.000Z") // a Friday, noon in São Paulo

/** A paid charge of `gross` under a fee of `fixed` + `percentHundredths`, its net split as `parts` (receivers R0, R1, ...). */
const paidCharge = (gross: number, fee: { fixed: number; percentHundredths: number }, parts: ReadonlyArray<number>, type: PaymentType = "PIX", installments = 1): Charge => {
  const fees = computeFees(cents(gross), { fixed: cents(fee.fixed), percentHundredths: fee.percentHundredths })
  return {
    id: CHA_1,
    accountId: OWNER,
    masterAccountId: OWNER,
    paymentType: type,
    status: "PAID",
    amount: cents(gross),
    fee: fees.fees.total,
    feeFixed: fees.fees.fixed,
    feePercentHundredths: fee.percentHundredths,
    net: fees.net,
    txid: "tx",
    emv: null,
    psp: null,
    externalTxid: null,
    description: null,
    metadata: null,
    customer: null,
    split: parts.map((amount, i) => ({ accountId: AccountId.make(`R${i}`), accountNumber: `${i}`, type: "fixed" as const, value: amount, amount: cents(amount) })),
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
    const twice = { ...charge, split: charge.split!.map((part) => ({ ...part, accountId: R0, accountNumber: "0" })) }
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

/** A statement line as the rule writes it: every field it does not name is null. */
const draft = (fields: Partial<EntryDraft["lines"][number]>) => ({
  description: null,
  paymentMethod: null,
  chargeId: null,
  subscriptionId: null,
  endToEndId: null,
  counterparty: null,
  referenceId: null,
  ...fields
})

describe("statement lines", () => {
  it("a payment: its lines name the charge, its titles are the statement's, the payer is on the owner's credit, a zero split part moves nothing", () => {
    const payer = { name: "Ana Lima", bank: "001", taxId: "12345678909", account: "1234-5" }
    const charge = { ...paidCharge(10_000, { fixed: 50, percentHundredths: 99 }, [985, 0]), description: "Pedido 42", endToEndId: "E1", subscriptionId: SUB_1 }
    const about = { paymentMethod: "PIX" as const, chargeId: CHA_1, subscriptionId: SUB_1, endToEndId: "E1", referenceId: "cha_1", description: "Pedido 42" }
    // Fee 0.50 + 0.99% of 100.00 = 1.49.
    expect(paymentPosting(charge, PAID_AT, payer).entry).toEqual({
      kind: "PAYMENT",
      accountId: "OWNER",
      referenceId: "cha_1",
      lines: [
        draft({ ...about, holder: HOUSE, book: "CLEARING", amount: cents(-10_000), category: "PAYMENT", title: "Pagamento recebido" }),
        draft({ ...about, holder: "OWNER", book: "AVAILABLE", amount: cents(10_000), category: "PAYMENT", title: "Pagamento recebido", counterparty: payer }),
        draft({ ...about, holder: "OWNER", book: "AVAILABLE", amount: cents(-149), category: "FEE", title: "Tarifa de recebimento" }),
        draft({ ...about, holder: HOUSE, book: "FEES", amount: cents(149), category: "FEE", title: "Tarifa de recebimento" }),
        draft({ ...about, holder: "OWNER", book: "AVAILABLE", amount: cents(-985), category: "TRANSFER", title: "Split enviado para 0" }),
        draft({ ...about, holder: "R0", book: "AVAILABLE", amount: cents(985), category: "TRANSFER", title: "Split recebido" })
      ]
    })
  })

  it("a payment without fee or split has its two lines only; a boleto's whole amount is one receivable of the owner", () => {
    const charge = { ...paidCharge(1000, { fixed: 0, percentHundredths: 0 }, [], "BOLETO"), split: null }
    const { entry, receivables } = paymentPosting(charge, PAID_AT, null)
    expect(entry.lines.map((l) => [l.holder, l.book, l.amount])).toEqual([[HOUSE, "CLEARING", -1000], ["OWNER", "RECEIVABLE", 1000]])
    expect(receivables).toEqual([{ holder: "OWNER", chargeId: CHA_1, installment: 1, amount: 1000, paymentMethod: "BOLETO", settlesOn: "2026-11-23" }])
  })

  it("settles a card charge whose card record is missing as one installment, 30 days on", () => {
    // Paid Friday 2026-11-20: +30 is Sunday 20 December → Monday 21.
    expect(settlementDays({ ...paidCharge(1000, { fixed: 0, percentHundredths: 0 }, [], "CREDIT_CARD"), card: null }, PAID_AT)).toEqual(["2026-12-21"])
  })

  it("a receivable settled moves from the receivable book to the available one, titled by its method", () => {
    const boleto: Receivable = { id: ReceivableId.make("rcv_1"), holder: OWNER, chargeId: CHA_1, installment: 1, amount: cents(1000), paymentMethod: "BOLETO", settlesOn: "2026-11-23" }
    const about = { holder: "OWNER", paymentMethod: "BOLETO" as const, chargeId: CHA_1, subscriptionId: SUB_1, referenceId: "rcv_1", category: "BOLETO_IN" as const, title: "Boleto compensado" }
    expect(receivableSettlement(boleto, SUB_1)).toEqual({
      kind: "RECEIVABLE_SETTLED",
      accountId: "OWNER",
      referenceId: "rcv_1",
      lines: [draft({ ...about, book: "RECEIVABLE", amount: cents(-1000) }), draft({ ...about, book: "AVAILABLE", amount: cents(1000) })]
    })
    const card: Receivable = { ...boleto, id: ReceivableId.make("rcv_2"), holder: R0, installment: 2, paymentMethod: "CREDIT_CARD", amount: cents(333) }
    expect(receivableSettlement(card, null).lines.map((l) => [l.holder, l.book, l.category, l.title, l.amount])).toEqual([
      ["R0", "RECEIVABLE", "CARD_IN", "Recebível de cartão, parcela 2", -333],
      ["R0", "AVAILABLE", "CARD_IN", "Recebível de cartão, parcela 2", 333]
    ])
  })

  it("a withdrawal: sent with its fee, returned with both, paid out by the house", () => {
    const w: PixSendMovement = { id: "wdr_1", kind: "WITHDRAWAL", accountId: OWNER, amount: cents(5000), fee: cents(47), endToEndId: "E9", receiver: null }
    const about = { referenceId: "wdr_1", paymentMethod: "PIX" as const, endToEndId: "E9" }
    expect(pixSendPosting(w)).toEqual({
      kind: "PIX_SENT",
      accountId: "OWNER",
      referenceId: "wdr_1",
      lines: [
        draft({ ...about, holder: "OWNER", book: "AVAILABLE", amount: cents(-5000), category: "WITHDRAWAL", title: "Saque PIX" }),
        draft({ ...about, holder: HOUSE, book: "PAYOUTS", amount: cents(5000), category: "WITHDRAWAL", title: "Saque PIX" }),
        draft({ ...about, holder: "OWNER", book: "AVAILABLE", amount: cents(-47), category: "FEE", title: "Tarifa de saque PIX" }),
        draft({ ...about, holder: HOUSE, book: "FEES", amount: cents(47), category: "FEE", title: "Tarifa de saque PIX" })
      ]
    })
    expect(pixSendReturnedPosting(w)).toEqual({
      kind: "PIX_SENT_RETURNED",
      accountId: "OWNER",
      referenceId: "wdr_1",
      lines: [
        draft({ ...about, holder: "OWNER", book: "AVAILABLE", amount: cents(5000), category: "WITHDRAWAL", title: "Saque PIX devolvido" }),
        draft({ ...about, holder: HOUSE, book: "PAYOUTS", amount: cents(-5000), category: "WITHDRAWAL", title: "Saque PIX devolvido" }),
        draft({ ...about, holder: "OWNER", book: "AVAILABLE", amount: cents(47), category: "FEE", title: "Tarifa de saque PIX devolvida" }),
        draft({ ...about, holder: HOUSE, book: "FEES", amount: cents(-47), category: "FEE", title: "Tarifa de saque PIX devolvida" })
      ]
    })
    expect(pixSendSettledPosting(w)).toEqual({
      kind: "PIX_SENT_SETTLED",
      accountId: "OWNER",
      referenceId: "wdr_1",
      lines: [
        draft({ ...about, holder: HOUSE, book: "PAYOUTS", amount: cents(-5000), category: "WITHDRAWAL", title: "Saque PIX liquidado" }),
        draft({ ...about, holder: HOUSE, book: "CLEARING", amount: cents(5000), category: "WITHDRAWAL", title: "Saque PIX liquidado" })
      ]
    })
  })

  it("a Pix transfer without fee: two lines naming the receiver, titled as a Pix sent", () => {
    const receiver = { name: "Loja B", bank: "260", taxId: "11222333000181", account: "9-9" }
    const w: PixSendMovement = { id: "wdr_2", kind: "PIX_TRANSFER", accountId: OWNER, amount: cents(1200), fee: cents(0), endToEndId: null, receiver }
    expect(pixSendPosting(w).lines.map((l) => [l.holder, l.book, l.category, l.title, l.amount, l.counterparty])).toEqual([
      ["OWNER", "AVAILABLE", "PIX_OUT", "PIX enviado", -1200, receiver],
      [HOUSE, "PAYOUTS", "PIX_OUT", "PIX enviado", 1200, receiver]
    ])
    expect(pixSendReturnedPosting(w).lines.map((l) => l.title)).toEqual(["PIX enviado devolvido", "PIX enviado devolvido"])
    expect(pixSendSettledPosting(w).lines.map((l) => [l.category, l.title])).toEqual([["PIX_OUT", "PIX enviado liquidado"], ["PIX_OUT", "PIX enviado liquidado"]])
  })

  // 30.00 refunded of a card: the owner 10.00 from its receivable and 15.00 from its balance; R0 2.00 from its balance, 3.00 owed.
  const refund: RefundMovement = {
    id: "ref_1",
    category: "REFUND",
    accountId: OWNER,
    amount: cents(3000),
    chargeId: CHA_1,
    paymentMethod: "CREDIT_CARD",
    endToEndId: null,
    parts: [
      { holder: "OWNER", fromReceivable: cents(1000), fromAvailable: cents(1500), owed: cents(0) },
      { holder: "R0", fromReceivable: cents(0), fromAvailable: cents(200), owed: cents(300) }
    ]
  }
  const refundAbout = { chargeId: CHA_1, paymentMethod: "CREDIT_CARD" as const, referenceId: "ref_1", category: "REFUND" as const }

  it("a refund: each part leaves the receivable, the balance, or becomes a debt, with no empty line; the house pays it out", () => {
    expect(refundPosting(refund)).toEqual({
      kind: "REFUND",
      accountId: "OWNER",
      referenceId: "ref_1",
      lines: [
        draft({ ...refundAbout, holder: "OWNER", book: "RECEIVABLE", amount: cents(-1000), title: "Estorno" }),
        draft({ ...refundAbout, holder: "OWNER", book: "AVAILABLE", amount: cents(-1500), title: "Estorno" }),
        draft({ ...refundAbout, holder: "R0", book: "AVAILABLE", amount: cents(-200), title: "Estorno" }),
        draft({ ...refundAbout, holder: "R0", book: "DEBT", amount: cents(-300), title: "Débito de estorno de split" }),
        draft({ ...refundAbout, holder: HOUSE, book: "PAYOUTS", amount: cents(3000), title: "Estorno" })
      ]
    })
    expect(refundSettledPosting(refund, "D123")).toEqual({
      kind: "REFUND_SETTLED",
      accountId: "OWNER",
      referenceId: "ref_1",
      lines: [
        draft({ ...refundAbout, holder: HOUSE, book: "PAYOUTS", amount: cents(-3000), title: "Estorno liquidado" }),
        draft({ ...refundAbout, endToEndId: "D123", holder: HOUSE, book: "CLEARING", amount: cents(3000), title: "Estorno liquidado" })
      ]
    })
    const chargeback = refundPosting({ ...refund, category: "CHARGEBACK" })
    expect(chargeback.lines.map((l) => [l.category, l.title])).toEqual([
      ["CHARGEBACK", "Chargeback"], ["CHARGEBACK", "Chargeback"], ["CHARGEBACK", "Chargeback"], ["CHARGEBACK", "Débito de chargeback"], ["CHARGEBACK", "Chargeback"]
    ])
  })

  it("a refund refused: the receivable still unsettled goes back to it, the rest and the debt paid meanwhile to the balance, the debt left is canceled", () => {
    // The owner's receivable settled 4.00 meanwhile, 6.00 is still unsettled; R0 paid 1.00 of its 3.00 debt.
    const back = { debtPaid: new Map([["R0", cents(100)]]), receivableKept: new Map([["OWNER", cents(600)]]) }
    expect(refundReturnedPosting(refund, back)).toEqual({
      kind: "REFUND_RETURNED",
      accountId: "OWNER",
      referenceId: "ref_1",
      lines: [
        draft({ ...refundAbout, holder: "OWNER", book: "RECEIVABLE", amount: cents(600), title: "Estorno devolvido" }),
        // 15.00 from the balance + the 4.00 of the receivable that settled since.
        draft({ ...refundAbout, holder: "OWNER", book: "AVAILABLE", amount: cents(1900), title: "Estorno devolvido" }),
        // 2.00 from the balance + the 1.00 of debt it paid.
        draft({ ...refundAbout, holder: "R0", book: "AVAILABLE", amount: cents(300), title: "Estorno devolvido" }),
        draft({ ...refundAbout, holder: "R0", book: "DEBT", amount: cents(200), title: "Débito de estorno de split cancelado" }),
        draft({ ...refundAbout, holder: HOUSE, book: "PAYOUTS", amount: cents(-3000), title: "Estorno devolvido" })
      ]
    })
  })

  it("a debt paid from new credits, and a sub-account's opening fee owed from the start", () => {
    expect(debtSettlementPosting(R0, cents(300), "dsp_1", "REFUND")).toEqual({
      kind: "DEBT_SETTLED",
      accountId: "R0",
      referenceId: "dsp_1",
      lines: [
        draft({ holder: "R0", book: "AVAILABLE", amount: cents(-300), category: "REFUND", title: "Pagamento de débito", referenceId: "dsp_1" }),
        draft({ holder: "R0", book: "DEBT", amount: cents(300), category: "REFUND", title: "Pagamento de débito", referenceId: "dsp_1" })
      ]
    })
    expect(openingFeePosting(AccountId.make("SUB"), cents(1500), "acc_1")).toEqual({
      kind: "OPENING_FEE",
      accountId: "SUB",
      referenceId: "acc_1",
      lines: [
        draft({ holder: "SUB", book: "DEBT", amount: cents(-1500), category: "FEE", title: "Tarifa de abertura de subconta", referenceId: "acc_1" }),
        draft({ holder: HOUSE, book: "FEES", amount: cents(1500), category: "FEE", title: "Tarifa de abertura de subconta", referenceId: "acc_1" })
      ]
    })
  })

  it("an infraction (MED) blocks the amount, then releases it to the account or returns it through the rails", () => {
    const med = { id: "med_1", accountId: OWNER, chargeId: CHA_1, endToEndId: "E1", amount: cents(2000) }
    const about = (category: "MED_BLOCK" | "MED_RELEASE" | "MED_RETURN", title: string, endToEndId = "E1") =>
      ({ chargeId: CHA_1, endToEndId, paymentMethod: "PIX" as const, referenceId: "med_1", category, title })
    const entry = (kind: string, lines: ReadonlyArray<unknown>) => ({ kind, accountId: "OWNER", referenceId: "med_1", lines })
    expect(medBlockPosting(med)).toEqual(entry("MED_BLOCK", [
      draft({ ...about("MED_BLOCK", "Bloqueio cautelar MED"), holder: "OWNER", book: "AVAILABLE", amount: cents(-2000) }),
      draft({ ...about("MED_BLOCK", "Bloqueio cautelar MED"), holder: "OWNER", book: "RETAINED", amount: cents(2000) })
    ]))
    expect(medReleasePosting(med)).toEqual(entry("MED_RELEASE", [
      draft({ ...about("MED_RELEASE", "Desbloqueio MED"), holder: "OWNER", book: "RETAINED", amount: cents(-2000) }),
      draft({ ...about("MED_RELEASE", "Desbloqueio MED"), holder: "OWNER", book: "AVAILABLE", amount: cents(2000) })
    ]))
    // The return's lines carry the return's own id, what the provider's statement names it by.
    expect(medReturnPosting(med, "D9")).toEqual(entry("MED_RETURN", [
      draft({ ...about("MED_RETURN", "Devolução MED", "D9"), holder: "OWNER", book: "RETAINED", amount: cents(-2000) }),
      draft({ ...about("MED_RETURN", "Devolução MED", "D9"), holder: HOUSE, book: "CLEARING", amount: cents(2000) })
    ]))
  })
})

describe("refund arithmetic", () => {
  it("a receiver returns nothing of a refund too small to reach a centavo of its part", () => {
    // R0 got 10.00 of 100.00: refunding 0.01 is 0.001 of it → nothing; refunding 0.10 is 0.01.
    const charge = paidCharge(10_000, { fixed: 0, percentHundredths: 0 }, [1000])
    expect(reversalParts(charge, cents(1))).toEqual([])
    expect(reversalParts(charge, cents(10))).toEqual([{ accountId: "R0", accountNumber: "0", amount: 1 }])
  })

  it("what is left to refund is the amount less what refunds took and what an infraction blocks", () => {
    expect(leftToRefund(cents(10_000), cents(3000), cents(2000))).toBe(5000)
  })

  it("a holder pays at once what the receivable gave, then what its balance covers of the rest", () => {
    // Part 10.00, 3.00 from the receivable: 7.00 left, the balance has 5.00 → 8.00 at once; with 50.00 → all 10.00.
    expect(paidAtOnce(cents(1000), cents(300), cents(500))).toBe(800)
    expect(paidAtOnce(cents(1000), cents(300), cents(5000))).toBe(1000)
  })

  it("takes from items in order, skipping the ones with nothing left, and leaves out those it does not reach", () => {
    const debts = [{ id: "d1", remaining: cents(500) }, { id: "d2", remaining: cents(0) }, { id: "d3", remaining: cents(300) }, { id: "d4", remaining: cents(200) }]
    expect(takeInOrder(debts, cents(600))).toEqual([{ id: "d1", paid: 500, remaining: 0 }, { id: "d3", paid: 100, remaining: 200 }])
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
      const debts: Array<{ id: string; holder: AccountId; remaining: Cents }> = []
      let expected = 0
      for (const [i, s] of steps.entries()) {
        if (s._tag === "pay") {
          const charge = { ...s.charge, id: ChargeId.make(`cha_${i}`) }
          const { entry, receivables } = paymentPosting(charge, PAID_AT, null)
          post(entry)
          pending.push(...receivables.map((r, n) => ({ ...r, id: ReceivableId.make(`rcv_${i}_${n}`) })))
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
          const holder = s.holder < 0 ? OWNER : AccountId.make(`R${s.holder}`)
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
          const owner = { accountId: OWNER, amount: cents(amount - receivers.reduce((a, r) => a + r.amount, 0)) }
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
              debtId: part.owed > 0 ? DebtId.make(`sdb_${i}_${k}`) : null
            }
          })
          const refund: Refund = {
            id: RefundId.make(`ref_${i}`),
            accountId: OWNER,
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
            ownerDebt: parts[0]!.owed > 0 ? { debtId: DebtId.make(`sdb_${i}_owner`), amount: parts[0]!.owed } : null,
            createdAt: PAID_AT,
            updatedAt: PAID_AT
          }
          const m = refundMovement(refund)
          expect(m.parts).toEqual(parts)
          const lines = refundPosting(m).lines
          expect(new Set(lines.map((l) => l.category))).toEqual(new Set([chargeback ? "CHARGEBACK" : "REFUND"]))
          post(refundPosting(m))
          const owedNow = [...reversals.flatMap((r) => r.debtId === null ? [] : [{ id: r.debtId, holder: r.accountId, remaining: cents(r.amount - r.reversed) }]),
            ...(refund.ownerDebt === null ? [] : [{ id: refund.ownerDebt.debtId, holder: OWNER, remaining: refund.ownerDebt.amount }])]
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
