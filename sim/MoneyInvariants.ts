/**
 * What must hold of the money the wider workload moves: split parts, books
 * through their whole history (a withdrawal never takes a balance below
 * zero), MED blocks, and coupons' redemptions. Checked by SQL on the
 * engine's tables, as `Invariants.ts` does.
 */
import { type BookServices, type Invariant, list, paidStatuses, rows } from "./InvariantKit.ts"

/**
 * A split's parts are what its rules say (a fixed part its amount, a
 * percentage that share of the charge's net, to the centavo) and never more
 * than the net; a paid charge credited each receiver its parts, no more and
 * no less, and an unpaid one credited none.
 */
export const splitsAddUp: Invariant<BookServices> = {
  name: "splitsAddUp",
  check: () => rows((sql) => sql`
    WITH parts AS (
      SELECT s.charge_id, s.account_id, sum(s.amount_cents) AS parts,
        bool_and(CASE WHEN s.type = 'fixed' THEN s.amount_cents = s.value ELSE abs(s.amount_cents * 10000 - c.net_cents * s.value) < 10000 END) AS ruled
      FROM charge_splits s JOIN charges c ON c.id = s.charge_id GROUP BY s.charge_id, s.account_id
    ), credited AS (
      SELECT l.charge_id, l.holder AS account_id, sum(l.amount_cents) AS credited FROM ledger_lines l JOIN ledger_entries e ON e.id = l.entry_id
      JOIN charges c ON c.id = l.charge_id
      WHERE e.kind = 'PAYMENT' AND l.category = 'TRANSFER' AND l.holder <> c.account_id GROUP BY l.charge_id, l.holder
    ), totals AS (SELECT charge_id, sum(parts) AS total FROM parts GROUP BY charge_id)
    SELECT c.id, c.status, c.net_cents::text AS net, coalesce(p.account_id, k.account_id) AS receiver, p.parts::text AS parts,
      k.credited::text AS credited, p.ruled, t.total::text AS total
    FROM parts p FULL JOIN credited k ON k.charge_id = p.charge_id AND k.account_id = p.account_id
    JOIN charges c ON c.id = coalesce(p.charge_id, k.charge_id) LEFT JOIN totals t ON t.charge_id = c.id
    WHERE p.ruled IS NOT TRUE OR t.total > c.net_cents
      OR (c.status = ANY (${list(paidStatuses())}) AND k.credited IS DISTINCT FROM p.parts)
      OR (c.status <> ALL (${list(paidStatuses())}) AND k.credited IS NOT NULL)
    ORDER BY c.id, 4`)
}

/** No book of an account was ever below zero after any line (a withdrawal or transfer above the balance, a block above it), nor a DEBT book above. */
export const noBookEverBelowZero: Invariant<BookServices> = {
  name: "noBookEverBelowZero",
  check: () => rows((sql) => sql`
    SELECT l.holder, l.book, e.kind, e.reference_id AS reference, l.balance_after_cents::text AS "balanceAfter" FROM ledger_lines l
    JOIN ledger_entries e ON e.id = l.entry_id
    WHERE l.holder <> 'HOUSE' AND CASE WHEN l.book = 'DEBT' THEN l.balance_after_cents > 0 ELSE l.balance_after_cents < 0 END
    ORDER BY l.seq`)
}

/** An account's RETAINED book holds exactly what its open MED infractions block. */
export const retainedIsBlocked: Invariant<BookServices> = {
  name: "retainedIsBlocked",
  check: () => rows((sql) => sql`
    WITH blocked AS (SELECT account_id, sum(blocked_cents) AS blocked FROM med_infractions WHERE status = 'OPEN' GROUP BY account_id),
    retained AS (SELECT holder AS account_id, balance_cents AS retained FROM ledger_balances WHERE book = 'RETAINED' AND balance_cents <> 0)
    SELECT coalesce(b.account_id, r.account_id) AS account, b.blocked::text AS blocked, r.retained::text AS retained
    FROM blocked b FULL JOIN retained r ON r.account_id = b.account_id
    WHERE coalesce(b.blocked, 0) <> coalesce(r.retained, 0)
    ORDER BY 1`)
}

/** A coupon counts each redemption once and never past its limit, and each redemption names a charge (or a free-started subscription) of the coupon's account. */
export const couponsWithinLimits: Invariant<BookServices> = {
  name: "couponsWithinLimits",
  check: () => rows((sql) => sql`
    SELECT 'count' AS what, c.id, c.current_redemptions::text AS counted, count(r.reference)::text AS redemptions, c.max_redemptions::text AS max
    FROM coupons c LEFT JOIN coupon_redemptions r ON r.coupon_id = c.id
    GROUP BY c.id, c.current_redemptions, c.max_redemptions
    HAVING c.current_redemptions <> count(r.reference) OR count(r.reference) > coalesce(c.max_redemptions, count(r.reference))
    UNION ALL
    SELECT 'reference', r.coupon_id, r.reference, coalesce(ch.account_id, s.account_id), c.account_id FROM coupon_redemptions r JOIN coupons c ON c.id = r.coupon_id
    LEFT JOIN charges ch ON ch.id = r.reference LEFT JOIN subscriptions s ON s.id = r.reference
    WHERE coalesce(ch.account_id, s.account_id) IS DISTINCT FROM c.account_id
    ORDER BY 1, 2`)
}
