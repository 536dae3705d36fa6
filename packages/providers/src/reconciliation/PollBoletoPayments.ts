/**
 * The boleto poll: the payments the providers file's bank lists over the
 * last `days` São Paulo days go to `Billing.receiveBoletoPayments`, which
 * confirms the charges a callback missed and takes the rest as repeats (a
 * boleto is paid once; its charge, once paid, is a duplicate). The bank
 * tells payments by day, and lists one a day or more after it was paid
 * (compensation between banks, weekends, holidays), so the window is days
 * wide and overlaps from one poll to the next on purpose.
 *
 * The bank is asked once per poll, not once per account: the file has one
 * bank account, which registers every production account's boletos (the
 * Inter adapter reads no `receiver`), so one list answers for all. It is
 * asked only while some production account has an open boleto charge:
 * nothing else could be confirmed. A bank that cannot be asked is logged and
 * named in the report; a failure to record (the database) fails the poll,
 * for the worker to try again at its next tick.
 */
import { Accounts, Billing, BoletoIssuer, Brazil, Charges } from "@billing/core"
import { Clock, Effect, Option, Result } from "effect"
import { Providers } from "../Providers.ts"

/** Five days: a boleto paid on the Friday before Carnival is listed by the Wednesday after, within them. */
export const DEFAULT_BOLETO_POLL_DAYS = 5

/** What confirms the payments: `Billing.receiveBoletoPayments`, or a stand-in in a test. */
export type BoletoReceiver<E, R> = (payments: ReadonlyArray<BoletoPaymentOf>) => Effect.Effect<ReadonlyArray<Billing.ReceivedBoletoOutcome>, E, R>
type BoletoPaymentOf = Parameters<typeof Billing.receiveBoletoPayments>[0][number]

type ReceiveError = Effect.Error<ReturnType<typeof Billing.receiveBoletoPayments>>
type ReceiveServices = Effect.Services<ReturnType<typeof Billing.receiveBoletoPayments>>

/** What one poll did: whether the bank was asked, how many payments had each outcome, and why the bank could not be asked. */
export interface BoletoPollReport {
  readonly asked: boolean
  readonly outcomes: Readonly<Record<Billing.ReceivedBoletoOutcome, number>>
  readonly unreachable: string | null
}

const NO_OUTCOMES = { confirmed: 0, duplicate: 0, unknownOurNumber: 0, underpaid: 0, chargeNotOpen: 0 } satisfies Record<Billing.ReceivedBoletoOutcome, number>
const NOT_ASKED: BoletoPollReport = { asked: false, outcomes: NO_OUTCOMES, unreachable: null }

/** The production account the bank is asked as: any with an open boleto charge, none when no such charge is open. */
const someReceiver = Effect.fnUntraced(function*() {
  const [accountId] = yield* (yield* Charges).accountsWithOpenBankBoletos(1)
  return accountId === undefined ? Option.none() : yield* (yield* Accounts).findById(accountId)
})

const poll = Effect.fn("Reconciliation.pollBoletoPayments")(function*<E, R>(days: number, receive: BoletoReceiver<E, R>) {
  if ((yield* Providers).boleto === undefined) return NOT_ASKED
  const receiver = yield* someReceiver()
  if (Option.isNone(receiver)) return NOT_ASKED
  const to = Brazil.saoPauloDate(yield* Clock.currentTimeMillis)
  const from = Brazil.addDays(to, 1 - Math.max(1, days))
  const listed = yield* Effect.result((yield* BoletoIssuer).paymentsBetween({ receiver: receiver.value, from, to }))
  if (Result.isFailure(listed)) {
    yield* Effect.logWarning(`boleto poll: the bank could not be asked: ${listed.failure.message}`)
    return { asked: true, outcomes: NO_OUTCOMES, unreachable: listed.failure.message } satisfies BoletoPollReport
  }
  const outcomes: Record<Billing.ReceivedBoletoOutcome, number> = { ...NO_OUTCOMES }
  for (const outcome of yield* receive(listed.success)) outcomes[outcome]++
  return { asked: true, outcomes, unreachable: null } satisfies BoletoPollReport
})

/** Polls the file's boleto bank over the last `days` (default five) and confirms what it lists through `receive` (default `Billing.receiveBoletoPayments`). */
export function pollBoletoPayments(days?: number): Effect.Effect<BoletoPollReport, ReceiveError, Providers | Charges | Accounts | BoletoIssuer | ReceiveServices>
export function pollBoletoPayments<E, R>(days: number, receive: BoletoReceiver<E, R>): Effect.Effect<BoletoPollReport, E, Providers | Charges | Accounts | BoletoIssuer | R>
export function pollBoletoPayments(days: number = DEFAULT_BOLETO_POLL_DAYS, receive: BoletoReceiver<unknown, unknown> = Billing.receiveBoletoPayments): Effect.Effect<BoletoPollReport, unknown, unknown> {
  return poll(days, receive)
}
