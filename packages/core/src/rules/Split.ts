/**
 * Split of a charge among receiving accounts (spec: Pix charges, Transparent
 * checkout, Limits). Computed on the net amount, after the fees of the
 * method; the owner of the charge keeps what the receivers do not take.
 */
import { Result, Schema } from "effect"
import { ErrorFields, InvalidData } from "../domain/Errors.ts"
import { type Cents, cents, toDecimalString } from "../money/Money.ts"
import { percentOf, roundDown } from "../money/Rounding.ts"

/** 400: the receivers' parts add up to more than the net amount. */
export class SplitExceedsNetAmount extends Schema.TaggedError<SplitExceedsNetAmount>()("SPLIT_EXCEEDS_NET_AMOUNT", ErrorFields, {
  httpApiStatus: 400
}) {}

export const MAX_SPLIT_RECEIVERS = 20

/** One receiver as requested: a fixed amount, or a percentage in hundredths (12.5% = 1250). */
export type SplitReceiver<Account = string | undefined> =
  | { readonly type: "fixed"; readonly amount: Cents; readonly account: Account }
  | { readonly type: "percentage"; readonly percentHundredths: number; readonly account: Account }

export interface SplitPart<Account> {
  readonly account: Account
  readonly type: "fixed" | "percentage"
  readonly amount: Cents
}

export interface SplitResult<Account> {
  readonly net: Cents
  readonly parts: ReadonlyArray<SplitPart<Account>>
  /** What stays with the owner of the charge: `net − Σ parts`, never negative. */
  readonly ownerAmount: Cents
}

/**
 * Checks the request limits that do not depend on the amount: at most 20
 * receivers, each fixed amount at least 0.01, each percentage above 0, and
 * percentages adding up to at most 100.
 */
export const validateSplit = <A>(receivers: ReadonlyArray<SplitReceiver<A>>): Result.Result<void, InvalidData> => {
  const invalid = (message: string, field = "split") => Result.fail(new InvalidData({ message, details: { field } }))
  if (receivers.length > MAX_SPLIT_RECEIVERS) return invalid(`at most ${MAX_SPLIT_RECEIVERS} split receivers`)
  let percent = 0
  for (const [i, r] of receivers.entries()) {
    if (r.type === "fixed" && r.amount < 1) return invalid("each split amount must be at least 0.01", `split[${i}].amount`)
    if (r.type === "percentage") {
      if (r.percentHundredths <= 0) return invalid("each split percentage must be above 0", `split[${i}].amount`)
      percent += r.percentHundredths
    }
  }
  if (percent > 10_000) return invalid("split percentages add up to more than 100")
  return Result.succeed(undefined)
}

/**
 * What a split does with a net amount its receivers do not fit (a part under
 * 0.01, or parts above the net): `refuse` answers the error, for a request a
 * client sends and can correct; `fit` pays what the net allows
 * (`fitSplit`), for a charge the engine issues on its own (a subscription's
 * cycle or prorata), which a refusal would leave unissued for ever.
 */
export type SplitMode = "refuse" | "fit"

/** What `receiver` asks of `net`: its fixed amount, or its percentage rounded down to the centavo. */
const askedOf = <A>(net: Cents, receiver: SplitReceiver<A>): Cents =>
  receiver.type === "fixed" ? receiver.amount : percentOf(net, receiver.percentHundredths, roundDown)

/**
 * The parts of each receiver on `net`. Rounding point: a percentage part is
 * rounded down to the centavo (the owner keeps the fractions). A percentage
 * that comes to less than 0.01 on this amount is refused rather than paid as
 * zero, so a receiver never silently gets nothing.
 */
export const computeSplit = <A>(
  net: Cents,
  receivers: ReadonlyArray<SplitReceiver<A>>
): Result.Result<SplitResult<A>, SplitExceedsNetAmount | InvalidData> => {
  const parts: Array<SplitPart<A>> = []
  let total = 0
  for (const [i, r] of receivers.entries()) {
    const amount = askedOf(net, r)
    if (amount < 1) {
      return Result.fail(new InvalidData({
        message: `split[${i}] comes to less than 0.01 on a net amount of ${toDecimalString(net)}`,
        details: { field: `split[${i}].amount` }
      }))
    }
    parts.push({ account: r.account, type: r.type, amount })
    total += amount
  }
  if (total > net) {
    return Result.fail(new SplitExceedsNetAmount({
      message: `A soma do split (${toDecimalString(cents(total))}) excede o valor líquido (${toDecimalString(net)})`,
      details: { splitTotal: toDecimalString(cents(total)), netAmount: toDecimalString(net) }
    }))
  }
  return Result.succeed({ net, parts, ownerAmount: cents(net - total) })
}

/**
 * The split of a charge the engine issues on its own, which never fails: the
 * receivers are paid in the order asked, each what it asks (as
 * `computeSplit`) but at most what is left of `net`, so a part this net
 * cannot pay is 0 and the owner keeps the rest. `parts[i]` is
 * `receivers[i]`'s, 0 included; whenever `computeSplit` accepts, both agree.
 */
export const fitSplit = <A>(net: Cents, receivers: ReadonlyArray<SplitReceiver<A>>): SplitResult<A> => {
  let left: number = net
  const parts = receivers.map((r): SplitPart<A> => {
    const amount = Math.min(askedOf(net, r), left)
    left -= amount
    return { account: r.account, type: r.type, amount: cents(amount) }
  })
  return { net, parts, ownerAmount: cents(left) }
}
