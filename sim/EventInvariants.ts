/**
 * Every state change a merchant hears of has exactly one event in the
 * outbox, and every event tells of a change that happened: a charge paid
 * has one `payment.success`, an expired one one `charge.expired`, a refund
 * one `refund.requested` and, once answered, one `refund.confirmed` or
 * `refund.failed`, and a MED infraction returned to its payer instead one
 * `med.refund.opened` and one `med.refund.closed` of the refund it made
 * (a lost dispute's chargeback tells of itself by `charge.dispute.updated`);
 * none of them for anything else. A crash between a
 * change and its event (or an event recorded twice by a retried step)
 * breaks it.
 */
import { Effect } from "effect"
import { type BookServices, type Invariant, list, paidStatuses, rows } from "./InvariantKit.ts"

/** The events of one kind, counted by the id their body names (`key`). */
/** Refunds a merchant asked for: not a chargeback, not a MED return (each tells of itself by its own events). */
const ASKED = "SELECT * FROM refunds WHERE reason IS DISTINCT FROM 'CHARGEBACK' AND id NOT IN (SELECT refund_id FROM med_infractions WHERE refund_id IS NOT NULL)"

/** The refunds of MED returns. */
const MED_RETURNS = "SELECT r.* FROM refunds r JOIN med_infractions m ON m.refund_id = r.id"

const counted = (event: string, key: "chargeId" | "refundId") =>
  `SELECT body::jsonb->>'${key}' AS id, count(*)::int AS n FROM outbox WHERE event = '${event}' GROUP BY 1`

export const oneEventPerChange: Invariant<BookServices> = {
  name: "oneEventPerChange",
  check: () =>
    rows((sql) =>
      Effect.gen(function*() {
        const paid = list(paidStatuses())
        return yield* sql<{ event: string; id: string | null; status: string | null; events: number }>`
          SELECT 'payment.success' AS event, coalesce(c.id, e.id) AS id, c.status, coalesce(e.n, 0) AS events
          FROM charges c FULL JOIN (${sql.unsafe(counted("payment.success", "chargeId"))}) e ON e.id = c.id
          WHERE coalesce(e.n, 0) <> CASE WHEN c.status = ANY (${paid}) THEN 1 ELSE 0 END
          UNION ALL
          SELECT 'charge.expired', coalesce(c.id, e.id), c.status, coalesce(e.n, 0)
          FROM charges c FULL JOIN (${sql.unsafe(counted("charge.expired", "chargeId"))}) e ON e.id = c.id
          WHERE coalesce(e.n, 0) <> CASE WHEN c.status = 'EXPIRED' THEN 1 ELSE 0 END
          UNION ALL
          SELECT 'refund.requested', coalesce(r.id, e.id), r.status, coalesce(e.n, 0)
          FROM (${sql.unsafe(ASKED)}) r FULL JOIN (${sql.unsafe(counted("refund.requested", "refundId"))}) e ON e.id = r.id
          WHERE coalesce(e.n, 0) <> CASE WHEN r.payment_type = 'PIX' OR r.status <> 'PROCESSING' THEN 1 ELSE 0 END
          UNION ALL
          SELECT 'refund.confirmed', coalesce(r.id, e.id), r.status, coalesce(e.n, 0)
          FROM (${sql.unsafe(ASKED)}) r FULL JOIN (${sql.unsafe(counted("refund.confirmed", "refundId"))}) e ON e.id = r.id
          WHERE coalesce(e.n, 0) <> CASE WHEN r.status = 'CONFIRMED' THEN 1 ELSE 0 END
          UNION ALL
          SELECT 'med.refund.opened', coalesce(r.id, e.id), r.status, coalesce(e.n, 0)
          FROM (${sql.unsafe(MED_RETURNS)}) r FULL JOIN (${sql.unsafe(counted("med.refund.opened", "refundId"))}) e ON e.id = r.id
          WHERE coalesce(e.n, 0) <> 1
          UNION ALL
          SELECT 'med.refund.closed', coalesce(r.id, e.id), r.status, coalesce(e.n, 0)
          FROM (${sql.unsafe(MED_RETURNS)}) r FULL JOIN (${sql.unsafe(counted("med.refund.closed", "refundId"))}) e ON e.id = r.id
          WHERE coalesce(e.n, 0) <> 1
          UNION ALL
          SELECT 'refund.failed', coalesce(r.id, e.id), r.status, coalesce(e.n, 0)
          FROM refunds r FULL JOIN (${sql.unsafe(counted("refund.failed", "refundId"))}) e ON e.id = r.id
          WHERE coalesce(e.n, 0) <> CASE WHEN r.status = 'ERROR' THEN 1 ELSE 0 END
          ORDER BY 1, 2`
      })
    )
}
