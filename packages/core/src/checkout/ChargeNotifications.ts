/**
 * The e-mails of one-time charges: which kinds a charge asked for, the
 * messages they become, and the worker step that sends them.
 */
import { Clock, Effect, Option } from "effect"
import type { Charge } from "../domain/Charge.ts"
import { formatReais } from "../money/Money.ts"
import { Mailer } from "../ports/Mailer.ts"
import { type NotificationKind } from "../domain/Notification.ts"
import { Notifications } from "../ports/Notifications.ts"
import { Accounts } from "../ports/Accounts.ts"
import { Transactor } from "../ports/Transactor.ts"

// A plain space, as the subjects were always written: a filter a reader set up on them keeps matching.
const amount = (c: Charge) => formatReais(c.amount, " ")

const message = (kind: NotificationKind, charge: Charge): { readonly subject: string; readonly body: string } => {
  switch (kind) {
    case "oneoff.pix.generated":
      return { subject: `Seu Pix de ${amount(charge)}`, body: `Pague com o Pix copia e cola:\n${charge.emv ?? ""}\nCobrança ${charge.id}` }
    case "oneoff.payment.success":
      return { subject: `Pagamento de ${amount(charge)} confirmado`, body: `Recebemos o pagamento da cobrança ${charge.id}.` }
    case "oneoff.payment.failed":
      return { subject: "Pagamento não aprovado", body: `O cartão foi recusado (${charge.failureReason ?? "recusado"}) na cobrança ${charge.id}.` }
    case "new.sale":
      return { subject: `Nova venda de ${amount(charge)}`, body: `Cobrança ${charge.id} paga por ${charge.customer?.name ?? "cliente"}.` }
  }
}

/**
 * Records the e-mails `kinds` of `charge` that the charge asked for, in the
 * caller's transaction. Buyer e-mails go to the customer's address; `new.sale`
 * goes to the merchant's e-mail, when the account has one.
 */
export const enqueueChargeNotifications = Effect.fn("Notifications.enqueue")(function*(charge: Charge, kinds: ReadonlyArray<NotificationKind>) {
  const asked = new Set(charge.notifications ?? [])
  const notifications = yield* Notifications
  const at = new Date(yield* Clock.currentTimeMillis)
  for (const kind of kinds) {
    if (!asked.has(kind)) continue
    const to = kind === "new.sale"
      ? Option.match(yield* (yield* Accounts).findById(charge.accountId), { onNone: () => null, onSome: (a) => a.email })
      : charge.customer?.email
    if (!to) continue
    yield* notifications.enqueue({ accountId: charge.accountId, chargeId: charge.id, kind, recipient: to, ...message(kind, charge) }, at)
  }
})

/** Worker step: sends up to `limit` recorded e-mails through the mailer; returns how many it handled. */
export const sendPendingNotifications = Effect.fn("Notifications.sendPending")(function*(limit: number) {
  const notifications = yield* Notifications
  const mailer = yield* Mailer
  const transactor = yield* Transactor
  return yield* transactor.withTransaction(Effect.gen(function*() {
    const pending = yield* notifications.claimPending(limit)
    for (const n of pending) {
      const sent = yield* Effect.result(mailer.send({ to: n.recipient, subject: n.subject, body: n.body }))
      if (sent._tag === "Success") yield* notifications.markSent(n.id, new Date(yield* Clock.currentTimeMillis))
      else yield* notifications.markFailed(n.id, sent.failure.message)
    }
    return pending.length
  }))
})
