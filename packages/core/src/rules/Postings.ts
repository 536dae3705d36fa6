/**
 * The journal entries of each movement of money (issue 14), as pure
 * functions: which books move, by how much, and when money to be received
 * becomes available. Every entry sums to zero; the database refuses one
 * that does not, and the property tests prove these never are.
 */
import { creditRecognitionDate, saoPauloDate } from "../brazil/BankCalendar.ts"
import { addDays } from "../brazil/CalendarDate.ts"
import type { Charge } from "../domain/Charge.ts"
import type { Refund } from "../domain/Refund.ts"
import { type AccountBook, type Book, type Counterparty, type EntryDraft, HOUSE, type LineDraft, type Receivable } from "../domain/Ledger.ts"
import { allocateRemainderToFirst } from "../money/Allocation.ts"
import { type Cents, cents, sumCents } from "../money/Money.ts"
import { roundDown } from "../money/Rounding.ts"
import type { AccountId, ChargeId, SubscriptionId } from "../domain/Ids.ts"

/** The books an account's statement shows (the spec's wallet transactions): not what it will receive, never the house's. */
export const STATEMENT_BOOKS: ReadonlyArray<AccountBook> = ["AVAILABLE", "RETAINED", "DEBT"]

/** The house's book of money in and out of the rails: what moves through it is what a Pix provider's statement shows. */
export const RAILS_BOOK: Book = "CLEARING"

/** Which way a Pix crossed the rails, as the provider's statement says: into the account (`CREDIT`) or out of it (`DEBIT`). */
export const RailDirections = ["CREDIT", "DEBIT"] as const
export type RailDirection = typeof RailDirections[number]

/** The direction of a Pix by its line in the rails book: money leaves that book as it comes into an account, and enters it as it goes out. */
export const railDirection = (railsAmount: number): RailDirection => railsAmount < 0 ? "CREDIT" : "DEBIT"

/** Days between a card payment and each of its installments' settlement: month by month. */
export const CARD_INSTALLMENT_DAYS = 30

const line = (draft: Partial<LineDraft> & Pick<LineDraft, "holder" | "book" | "amount" | "category" | "title">): LineDraft => ({
  description: null,
  paymentMethod: null,
  chargeId: null,
  subscriptionId: null,
  endToEndId: null,
  counterparty: null,
  referenceId: null,
  ...draft
})

/**
 * Each receiver's parts of a split, added up: a split may give one account
 * two parts (a percentage and a fixed amount), and its money, receivables
 * and refund share are one each.
 */
const partsByReceiver = (charge: Charge): ReadonlyArray<{ readonly accountId: AccountId; readonly accountNumber: string; readonly amount: Cents }> => {
  const merged = new Map<AccountId, { accountId: AccountId; accountNumber: string; amount: Cents }>()
  for (const part of charge.split ?? []) {
    const known = merged.get(part.accountId)
    merged.set(part.accountId, { accountId: part.accountId, accountNumber: part.accountNumber, amount: cents((known?.amount ?? 0) + part.amount) })
  }
  return [...merged.values()]
}

/** Each holder's net share of a paid charge: the owner keeps what fees and split parts leave. */
export const paymentShares = (charge: Charge): ReadonlyArray<{ readonly holder: AccountId; readonly amount: Cents }> => {
  const parts = partsByReceiver(charge)
  const owner = charge.net - sumCents(parts.map((part) => part.amount))
  return [{ holder: charge.accountId, amount: cents(owner) }, ...parts.map((part) => ({ holder: part.accountId, amount: part.amount }))]
}

/**
 * The days a paid charge's money becomes available, one per installment.
 * Pix: at once (no day). Boleto: the next business day after payment. Card:
 * every 30 days after payment, one installment each. A day that falls on a
 * weekend or bank holiday keeps its date and is recognized on the next
 * business day (spec: Versioning 3).
 */
export const settlementDays = (charge: Charge, paidAt: Date): ReadonlyArray<string> => {
  const paidDay = saoPauloDate(paidAt.getTime())
  switch (charge.paymentType) {
    case "PIX":
      return []
    case "BOLETO":
      return [creditRecognitionDate(addDays(paidDay, 1))]
    case "CREDIT_CARD": {
      const installments = charge.card?.installments ?? 1
      return Array.from({ length: installments }, (_, i) => creditRecognitionDate(addDays(paidDay, CARD_INSTALLMENT_DAYS * (i + 1))))
    }
  }
}

/**
 * A confirmed payment: the gross into the owner's book from the rails, the
 * fee to us, each split part from the owner to its receiver. A Pix lands in
 * `AVAILABLE`; a boleto or card in `RECEIVABLE`, with the receivables that
 * will move it, each holder's share spread over the installments.
 */
export const paymentPosting = (charge: Charge, paidAt: Date, payer: Counterparty | null): {
  readonly entry: EntryDraft
  readonly receivables: ReadonlyArray<Omit<Receivable, "id">>
} => {
  const days = settlementDays(charge, paidAt)
  const book = days.length === 0 ? "AVAILABLE" : "RECEIVABLE"
  const about = {
    paymentMethod: charge.paymentType,
    chargeId: charge.id,
    subscriptionId: charge.subscriptionId,
    endToEndId: charge.endToEndId,
    referenceId: charge.id,
    description: charge.description
  }
  const owner = charge.accountId
  const lines: Array<LineDraft> = [
    line({ ...about, holder: HOUSE, book: "CLEARING", amount: cents(-charge.amount), category: "PAYMENT", title: "Pagamento recebido" }),
    line({ ...about, holder: owner, book, amount: charge.amount, category: "PAYMENT", title: "Pagamento recebido", counterparty: payer })
  ]
  if (charge.fee > 0) {
    lines.push(
      line({ ...about, holder: owner, book, amount: cents(-charge.fee), category: "FEE", title: "Tarifa de recebimento" }),
      line({ ...about, holder: HOUSE, book: "FEES", amount: charge.fee, category: "FEE", title: "Tarifa de recebimento" })
    )
  }
  for (const part of charge.split ?? []) {
    if (part.amount === 0) continue
    lines.push(
      line({ ...about, holder: owner, book, amount: cents(-part.amount), category: "TRANSFER", title: `Split enviado para ${part.accountNumber}` }),
      line({ ...about, holder: part.accountId, book, amount: part.amount, category: "TRANSFER", title: "Split recebido" })
    )
  }
  const paymentMethod = charge.paymentType === "PIX" ? null : charge.paymentType
  const receivables = paymentMethod === null ? [] : paymentShares(charge).flatMap(({ holder, amount }) =>
    allocateRemainderToFirst(amount, days.length).flatMap((installmentAmount, i) =>
      installmentAmount === 0 ? [] : [{ holder, chargeId: charge.id, installment: i + 1, amount: installmentAmount, paymentMethod, settlesOn: days[i]! }]
    )
  )
  return { entry: { kind: "PAYMENT", accountId: owner, referenceId: charge.id, lines }, receivables }
}

/** A receivable whose day came: from the holder's `RECEIVABLE` book to its `AVAILABLE` one. */
export const receivableSettlement = (receivable: Receivable, subscriptionId: SubscriptionId | null): EntryDraft => {
  const about = {
    holder: receivable.holder,
    paymentMethod: receivable.paymentMethod,
    chargeId: receivable.chargeId,
    subscriptionId,
    referenceId: receivable.id
  }
  const category = receivable.paymentMethod === "BOLETO" ? "BOLETO_IN" : "CARD_IN"
  const title = receivable.paymentMethod === "BOLETO" ? "Boleto compensado" : `Recebível de cartão, parcela ${receivable.installment}`
  return {
    kind: "RECEIVABLE_SETTLED",
    accountId: receivable.holder,
    referenceId: receivable.id,
    lines: [
      line({ ...about, book: "RECEIVABLE", amount: cents(-receivable.amount), category, title }),
      line({ ...about, book: "AVAILABLE", amount: receivable.amount, category, title })
    ]
  }
}

/**
 * A Pix sent out of an account: a withdrawal to its holder's own key, or a
 * transfer to a third party's (`PIX_OUT`). Amount and fee leave the
 * available book; the amount waits in the house's payouts.
 */
export interface PixSendMovement {
  readonly id: string
  readonly kind: "WITHDRAWAL" | "PIX_TRANSFER"
  readonly accountId: AccountId
  readonly amount: Cents
  readonly fee: Cents
  readonly endToEndId: string | null
  /** Who receives a transfer; null for a withdrawal (the holder itself). */
  readonly receiver: Counterparty | null
}

const TITLES = {
  WITHDRAWAL: { category: "WITHDRAWAL", sent: "Saque PIX", returned: "Saque PIX devolvido", settled: "Saque PIX liquidado", fee: "Tarifa de saque PIX" },
  PIX_TRANSFER: { category: "PIX_OUT", sent: "PIX enviado", returned: "PIX enviado devolvido", settled: "PIX enviado liquidado", fee: "Tarifa de PIX enviado" }
} as const

const pixSendLines = (w: PixSendMovement, sign: 1 | -1): Array<LineDraft> => {
  const titles = TITLES[w.kind]
  const title = sign > 0 ? titles.sent : titles.returned
  const feeTitle = sign > 0 ? titles.fee : `${titles.fee} devolvida`
  const about = { referenceId: w.id, paymentMethod: "PIX" as const, endToEndId: w.endToEndId, counterparty: w.receiver }
  const lines = [
    line({ ...about, holder: w.accountId, book: "AVAILABLE", amount: cents(-sign * w.amount), category: titles.category, title }),
    line({ ...about, holder: HOUSE, book: "PAYOUTS", amount: cents(sign * w.amount), category: titles.category, title })
  ]
  if (w.fee > 0) {
    lines.push(
      line({ ...about, holder: w.accountId, book: "AVAILABLE", amount: cents(-sign * w.fee), category: "FEE", title: feeTitle }),
      line({ ...about, holder: HOUSE, book: "FEES", amount: cents(sign * w.fee), category: "FEE", title: feeTitle })
    )
  }
  return lines
}

export const pixSendPosting = (w: PixSendMovement): EntryDraft => ({
  kind: "PIX_SENT",
  accountId: w.accountId,
  referenceId: w.id,
  lines: pixSendLines(w, 1)
})

/** The provider paid the Pix out: it leaves the house's payouts for the rails. */
export const pixSendSettledPosting = (w: PixSendMovement): EntryDraft => {
  const titles = TITLES[w.kind]
  // The clearing line carries the SPI's id of the payout: what the provider's statement names it by.
  const about = { referenceId: w.id, category: titles.category, title: titles.settled, paymentMethod: "PIX" as const, endToEndId: w.endToEndId }
  return {
    kind: "PIX_SENT_SETTLED",
    accountId: w.accountId,
    referenceId: w.id,
    lines: [
      line({ ...about, holder: HOUSE, book: "PAYOUTS", amount: cents(-w.amount) }),
      line({ ...about, holder: HOUSE, book: "CLEARING", amount: w.amount })
    ]
  }
}

/** The provider could not pay the Pix out: amount and fee come back to the account. */
export const pixSendReturnedPosting = (w: PixSendMovement): EntryDraft => ({
  kind: "PIX_SENT_RETURNED",
  accountId: w.accountId,
  referenceId: w.id,
  lines: pixSendLines(w, -1)
})

/**
 * Each split receiver's part of refunding `amount` of `charge`: its parts
 * (added up) in the proportion of the charge refunded, rounded down, so that the parts of
 * several partial refunds never add up to more than the receiver got. The
 * owner bears the rest (our fee is not returned).
 */
export const reversalParts = (charge: Charge, amount: Cents) =>
  partsByReceiver(charge).flatMap((part) => {
    const share = roundDown(BigInt(part.amount) * BigInt(amount), BigInt(charge.amount))
    return share === 0 ? [] : [{ accountId: part.accountId, accountNumber: part.accountNumber, amount: share }]
  })

/** What the charge's owner bears of refunding `amount`: what its receivers' parts leave. */
export const ownerRefundPart = (amount: Cents, receivers: ReadonlyArray<{ readonly amount: Cents }>): Cents =>
  cents(amount - sumCents(receivers.map((r) => r.amount)))

/** What is left to refund of a charge of `amount`: less what refunds took, and what an open MED infraction blocks. */
export const leftToRefund = (amount: Cents, refunded: Cents, blocked: Cents): Cents => cents(amount - refunded - blocked)

/**
 * What one holder gives back for a refund: from the charge's receivable (a
 * card not settled yet), from its available balance, and what it owes (a
 * split receiver that lacked; the owner only for a chargeback, which cannot
 * be refused).
 */
export interface RefundPart {
  readonly holder: string
  readonly fromReceivable: Cents
  readonly fromAvailable: Cents
  readonly owed: Cents
}

/** A refund's movement: each holder's part. */
export interface RefundMovement {
  readonly id: string
  /** A merchant's refund, or a chargeback: the acquirer taking a lost dispute's amount back. */
  readonly category: "REFUND" | "CHARGEBACK"
  /** The account that refunds (the charge's owner). */
  readonly accountId: AccountId
  readonly amount: Cents
  readonly chargeId: ChargeId
  readonly paymentMethod: "PIX" | "CREDIT_CARD"
  readonly endToEndId: string | null
  readonly parts: ReadonlyArray<RefundPart>
}

/** Sums `amount` by holder. */
export const byHolder = (rows: ReadonlyArray<{ readonly holder: string; readonly amount: Cents }>): Map<string, Cents> => {
  const sums = new Map<string, Cents>()
  for (const row of rows) sums.set(row.holder, cents((sums.get(row.holder) ?? 0) + row.amount))
  return sums
}

/** The refund's movement in the ledger, from what it recorded: each holder's part, and whether it is a chargeback. */
export const refundMovement = (refund: Refund): RefundMovement => {
  const taken = byHolder(refund.receivablesTaken)
  const ownerPart = ownerRefundPart(refund.amount, refund.splitReversals)
  const ownerFromReceivable = taken.get(refund.accountId) ?? 0
  const ownerOwed = refund.ownerDebt?.amount ?? 0
  return {
    id: refund.id,
    category: refund.reason === "CHARGEBACK" ? "CHARGEBACK" : "REFUND",
    accountId: refund.accountId,
    amount: refund.amount,
    chargeId: refund.chargeId,
    paymentMethod: refund.paymentType,
    endToEndId: refund.endToEndId,
    parts: [
      {
        holder: refund.accountId,
        fromReceivable: cents(ownerFromReceivable),
        fromAvailable: cents(ownerPart - ownerFromReceivable - ownerOwed),
        owed: cents(ownerOwed)
      },
      ...refund.splitReversals.map((r) => {
        const fromReceivable = taken.get(r.accountId) ?? 0
        return { holder: r.accountId, fromReceivable: cents(fromReceivable), fromAvailable: cents(r.reversed - fromReceivable), owed: cents(r.amount - r.reversed) }
      })
    ]
  }
}

/** What a holder pays at once of its `part` of a refund: what the charge's receivable gave, then what its balance has; the rest it owes. */
export const paidAtOnce = (part: Cents, fromReceivable: Cents, available: Cents): Cents =>
  cents(fromReceivable + Math.min(part - fromReceivable, available))

/** How a refused refund's parts come back: what of each holder's debt it paid meanwhile, what of its receivable is still unsettled. */
export interface RefundReturn {
  readonly debtPaid: ReadonlyMap<string, Cents>
  readonly receivableKept: ReadonlyMap<string, Cents>
}

const refundAbout = (m: RefundMovement) => ({
  chargeId: m.chargeId,
  paymentMethod: m.paymentMethod,
  endToEndId: m.endToEndId,
  referenceId: m.id,
  category: m.category
})

const REFUND_TITLES = {
  REFUND: { out: "Estorno", back: "Estorno devolvido", settled: "Estorno liquidado", owed: "Débito de estorno de split", canceled: "Débito de estorno de split cancelado" },
  CHARGEBACK: { out: "Chargeback", back: "Chargeback devolvido", settled: "Chargeback liquidado", owed: "Débito de chargeback", canceled: "Débito de chargeback cancelado" }
} as const

/**
 * The lines of the refund's holders. Out (`back` null): each part leaves the
 * receivable, the balance, and becomes a debt. Back: the receivable still
 * unsettled returns to the receivable, the rest (and the debt paid
 * meanwhile) to the balance, and the debt left is canceled.
 */
const refundAccountLines = (m: RefundMovement, back: RefundReturn | null): Array<LineDraft> => {
  const about = refundAbout(m)
  const titles = REFUND_TITLES[m.category]
  const sign = back === null ? -1 : 1
  return m.parts.flatMap((part) => {
    const paid = back?.debtPaid.get(part.holder) ?? 0
    const kept = back === null ? part.fromReceivable : back.receivableKept.get(part.holder) ?? 0
    const title = back === null ? titles.out : titles.back
    return [
      line({ ...about, holder: part.holder, book: "RECEIVABLE", amount: cents(sign * kept), title }),
      line({ ...about, holder: part.holder, book: "AVAILABLE", amount: cents(sign * (part.fromAvailable + part.fromReceivable - kept + paid)), title }),
      line({ ...about, holder: part.holder, book: "DEBT", amount: cents(sign * (part.owed - paid)), title: back === null ? titles.owed : titles.canceled })
    ].filter((l) => l.amount !== 0)
  })
}

/** A refund requested: its parts leave the owner's and receivers' balances (or become debts) and wait in the house's payouts. */
export const refundPosting = (m: RefundMovement): EntryDraft => ({
  kind: "REFUND",
  accountId: m.accountId,
  referenceId: m.id,
  lines: [
    ...refundAccountLines(m, null),
    line({ ...refundAbout(m), holder: HOUSE, book: "PAYOUTS", amount: m.amount, title: REFUND_TITLES[m.category].out })
  ]
})

/**
 * The provider returned the money to the payer: it leaves the house's
 * payouts for the rails. The clearing line carries the return's own id
 * (`returnIdentification`), what the provider's statement names it by.
 */
export const refundSettledPosting = (m: RefundMovement, returnIdentification: string | null): EntryDraft => ({
  kind: "REFUND_SETTLED",
  accountId: m.accountId,
  referenceId: m.id,
  lines: [
    line({ ...refundAbout(m), holder: HOUSE, book: "PAYOUTS", amount: cents(-m.amount), title: REFUND_TITLES[m.category].settled }),
    line({ ...refundAbout(m), endToEndId: returnIdentification, holder: HOUSE, book: "CLEARING", amount: m.amount, title: REFUND_TITLES[m.category].settled })
  ]
})

/** The provider refused the refund: every part comes back (`RefundReturn`). */
export const refundReturnedPosting = (m: RefundMovement, back: RefundReturn): EntryDraft => ({
  kind: "REFUND_RETURNED",
  accountId: m.accountId,
  referenceId: m.id,
  lines: [
    ...refundAccountLines(m, back),
    line({ ...refundAbout(m), holder: HOUSE, book: "PAYOUTS", amount: cents(-m.amount), title: REFUND_TITLES[m.category].back })
  ]
})

/**
 * What `available` covers of `items`, in their order (debts oldest first,
 * receivables newest installment first): each item it reaches, what it took
 * of it (`paid`) and what is left of it (`remaining`).
 */
export const takeInOrder = <Item extends { readonly remaining: Cents }>(items: ReadonlyArray<Item>, available: Cents) => {
  let left: number = available
  return items.flatMap((item) => {
    const paid = Math.min(left, item.remaining)
    left -= paid
    return paid === 0 ? [] : [{ ...item, paid: cents(paid), remaining: cents(item.remaining - paid) }]
  })
}

/**
 * `amount` of a holder's new credits pays its debts of `category` down (a
 * split reversal's, a chargeback's, an opening fee): from its available
 * balance to its DEBT book.
 */
export const debtSettlementPosting = (holder: AccountId, amount: Cents, reference: string, category: "REFUND" | "CHARGEBACK" | "FEE"): EntryDraft => ({
  kind: "DEBT_SETTLED",
  accountId: holder,
  referenceId: reference,
  lines: [
    line({ holder, book: "AVAILABLE", amount: cents(-amount), category, title: "Pagamento de débito", referenceId: reference }),
    line({ holder, book: "DEBT", amount, category, title: "Pagamento de débito", referenceId: reference })
  ]
})

/** An infraction's movement: `amount` of the charge's Pix, by the infraction `id`. */
export interface MedMovement {
  readonly id: string
  readonly accountId: AccountId
  readonly chargeId: ChargeId
  readonly endToEndId: string
  readonly amount: Cents
}

/** The MED entry of `kind`, `lines` moving the infraction's amount. */
const medEntry = (kind: "MED_BLOCK" | "MED_RELEASE" | "MED_RETURN", m: MedMovement, lines: EntryDraft["lines"]): EntryDraft => ({
  kind,
  accountId: m.accountId,
  referenceId: m.id,
  lines
})

const medLines = (m: MedMovement, from: { readonly book: "AVAILABLE" | "RETAINED" | "CLEARING"; readonly holder: string }, to: {
  readonly book: "AVAILABLE" | "RETAINED" | "CLEARING"
  readonly holder: string
}, category: "MED_BLOCK" | "MED_RELEASE" | "MED_RETURN", title: string): EntryDraft["lines"] => {
  const about = { chargeId: m.chargeId, endToEndId: m.endToEndId, paymentMethod: "PIX" as const, referenceId: m.id, category, title }
  return [
    line({ ...about, holder: from.holder, book: from.book, amount: cents(-m.amount) }),
    line({ ...about, holder: to.holder, book: to.book, amount: m.amount })
  ]
}

/** An infraction opened: the amount moves from the account's available balance to its retained one. */
export const medBlockPosting = (m: MedMovement): EntryDraft =>
  medEntry("MED_BLOCK", m, medLines(m, { holder: m.accountId, book: "AVAILABLE" }, { holder: m.accountId, book: "RETAINED" }, "MED_BLOCK", "Bloqueio cautelar MED"))

/** Decided for the account: the block is released to its available balance. */
export const medReleasePosting = (m: MedMovement): EntryDraft =>
  medEntry("MED_RELEASE", m, medLines(m, { holder: m.accountId, book: "RETAINED" }, { holder: m.accountId, book: "AVAILABLE" }, "MED_RELEASE", "Desbloqueio MED"))

/** Decided for the payer: the blocked amount is returned through the rails. */
export const medReturnPosting = (m: MedMovement, returnIdentification: string): EntryDraft =>
  medEntry("MED_RETURN", m, medLines({ ...m, endToEndId: returnIdentification }, { holder: m.accountId, book: "RETAINED" }, { holder: HOUSE, book: "CLEARING" }, "MED_RETURN", "Devolução MED"))

/**
 * A sub-account's opening fee: a new account has no money yet, so the fee is
 * owed (its `DEBT` book) and paid from its first credits, as a debt is.
 */
export const openingFeePosting = (subAccountId: AccountId, fee: Cents, reference: string): EntryDraft => ({
  kind: "OPENING_FEE",
  accountId: subAccountId,
  referenceId: reference,
  lines: [
    line({ holder: subAccountId, book: "DEBT", amount: cents(-fee), category: "FEE", title: "Tarifa de abertura de subconta", referenceId: reference }),
    line({ holder: HOUSE, book: "FEES", amount: fee, category: "FEE", title: "Tarifa de abertura de subconta", referenceId: reference })
  ]
})
