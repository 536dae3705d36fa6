import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { cents } from "../../src/money/Money.ts"
import { computeSplit, fitSplit, SplitExceedsNetAmount, type SplitReceiver, validateSplit } from "../../src/rules/Split.ts"

describe("split examples", () => {
  it("takes percentages of the net amount, rounded down, and leaves the rest to the owner", () => {
    // net 100.00: 12.5% → 12.50; 10% → 10.00; fixed 5.00; owner keeps 100.00 − 27.50 = 72.50.
    const result = Result.getOrThrow(computeSplit(cents(10000), [
      { type: "percentage", percentHundredths: 1250, account: "A" },
      { type: "percentage", percentHundredths: 1000, account: "B" },
      { type: "fixed", amount: cents(500), account: "C" }
    ]))
    expect(result.parts.map((p) => p.amount)).toEqual([1250, 1000, 500])
    expect(result.ownerAmount).toBe(7250)
  })

  it("rounds a fractional centavo down: 33.33% of 10.00 is 3.33", () => {
    // 1000 × 3333 / 10000 = 333.3 → 333.
    const result = Result.getOrThrow(computeSplit(cents(1000), [{ type: "percentage", percentHundredths: 3333, account: "A" }]))
    expect(result.parts[0]!.amount).toBe(333)
    expect(result.ownerAmount).toBe(667)
  })

  it("refuses parts above the net amount with SPLIT_EXCEEDS_NET_AMOUNT", () => {
    // net 9.33 (10.00 − 0.67 fee): fixed 9.00 + 5% (0.46) = 9.46 > 9.33.
    const result = computeSplit(cents(933), [
      { type: "fixed", amount: cents(900), account: "A" },
      { type: "percentage", percentHundredths: 500, account: "B" }
    ])
    expect(Result.isFailure(result) && result.failure._tag).toBe("SPLIT_EXCEEDS_NET_AMOUNT")
  })

  it("refuses more than 20 receivers, percentages above 100 in all, and amounts under 0.01", () => {
    const many = Array.from({ length: 21 }, () => ({ type: "fixed" as const, amount: cents(1), account: "A" }))
    expect(Result.isFailure(validateSplit(many))).toBe(true)
    expect(Result.isFailure(validateSplit([
      { type: "percentage", percentHundredths: 6000, account: "A" },
      { type: "percentage", percentHundredths: 4001, account: "B" }
    ]))).toBe(true)
    expect(Result.isFailure(validateSplit([{ type: "fixed", amount: cents(0), account: "A" }]))).toBe(true)
    expect(Result.isSuccess(validateSplit([{ type: "percentage", percentHundredths: 10000, account: undefined }]))).toBe(true)
  })
})

describe("split refusals", () => {
  const refusal = (result: Result.Result<unknown, { readonly _tag: string; readonly message: string; readonly details?: unknown }>) =>
    Result.isFailure(result) ? { code: result.failure._tag, message: result.failure.message, details: result.failure.details } : undefined
  const fixed = (amount: number) => ({ type: "fixed" as const, amount: cents(amount), account: "A" })
  const percent = (percentHundredths: number) => ({ type: "percentage" as const, percentHundredths, account: "A" })

  it("accepts 20 receivers, 0.01 fixed parts and percentages of 0.01%; refuses 21, 0.00 and 0%, naming the field", () => {
    expect(Result.isSuccess(validateSplit(Array.from({ length: 20 }, () => fixed(1))))).toBe(true)
    expect(Result.isSuccess(validateSplit([percent(1)]))).toBe(true)
    expect(refusal(validateSplit(Array.from({ length: 21 }, () => fixed(1))))).toEqual({
      code: "INVALID_DATA", message: "at most 20 split receivers", details: { field: "split" }
    })
    expect(refusal(validateSplit([fixed(500), fixed(0)]))).toEqual({
      code: "INVALID_DATA", message: "each split amount must be at least 0.01", details: { field: "split[1].amount" }
    })
    expect(refusal(validateSplit([fixed(500), percent(1000), percent(0)]))).toEqual({
      code: "INVALID_DATA", message: "each split percentage must be above 0", details: { field: "split[2].amount" }
    })
  })

  it("adds up the percentages only, fixed parts before them or not: 60% + 41% is refused, 60% + 40% with a fixed part is not", () => {
    expect(refusal(validateSplit([fixed(100), percent(6000), percent(4100)]))).toEqual({
      code: "INVALID_DATA", message: "split percentages add up to more than 100", details: { field: "split" }
    })
    expect(Result.isSuccess(validateSplit([fixed(100), percent(6000), percent(4000)]))).toBe(true)
  })

  it("accepts parts adding up to exactly the net amount: the owner keeps 0.00", () => {
    // net 9.33: fixed 4.33 + 50% (4.665 → 4.66) = 8.99, + fixed 0.34 = 9.33.
    const result = Result.getOrThrow(computeSplit(cents(933), [fixed(433), percent(5000), fixed(34)]))
    expect(result.parts.map((p) => p.amount)).toEqual([433, 466, 34])
    expect(result.ownerAmount).toBe(0)
  })

  it("refuses parts above the net amount with the totals in reais, as a 400", () => {
    // net 9.33: fixed 9.00 + 5% (0.4665 → 0.46) = 9.46.
    expect(refusal(computeSplit(cents(933), [fixed(900), percent(500)]))).toEqual({
      code: "SPLIT_EXCEEDS_NET_AMOUNT",
      message: "A soma do split (9.46) excede o valor líquido (9.33)",
      details: { splitTotal: "9.46", netAmount: "9.33" }
    })
    expect((SplitExceedsNetAmount.ast.annotations as { httpApiStatus?: number } | undefined)?.httpApiStatus).toBe(400)
  })

  it("refuses a percentage that comes to less than 0.01 on the net amount rather than paying the receiver nothing", () => {
    // 1% of 0.50 = 0.005 → 0.00; 2% of 0.50 = 0.01.
    expect(refusal(computeSplit(cents(50), [percent(200), percent(100)]))).toEqual({
      code: "INVALID_DATA",
      message: "split[1] comes to less than 0.01 on a net amount of 0.50",
      details: { field: "split[1].amount" }
    })
    expect(Result.getOrThrow(computeSplit(cents(50), [percent(200)])).parts[0]!.amount).toBe(1)
  })
})

describe("a split fitted within the net (a subscription's own charge)", () => {
  const fixed = (amount: number, account = "A") => ({ type: "fixed" as const, amount: cents(amount), account })
  const percent = (percentHundredths: number, account = "A") => ({ type: "percentage" as const, percentHundredths, account })
  const amounts = (net: number, receivers: ReadonlyArray<SplitReceiver<string>>) => {
    const fitted = fitSplit(cents(net), receivers)
    return [fitted.parts.map((p) => p.amount), fitted.ownerAmount]
  }

  it("pays a percentage that comes to less than 0.01 as 0.00 and leaves it to the owner", () => {
    // net 0.01: 10% = 0.001 → 0.00; the owner keeps 0.01 (seed 5's cycle).
    expect(amounts(1, [percent(1000)])).toEqual([[0], 1])
    // net 0.50: 2% = 0.01, 1% = 0.005 → 0.00; the owner keeps 0.49.
    expect(amounts(50, [percent(200, "A"), percent(100, "B")])).toEqual([[1, 0], 49])
  })

  it("pays fixed parts in the order asked, each at most what is left of the net", () => {
    // net 9.33: fixed 9.00, then 5% (0.4665 → 0.46) of which 0.33 is left; the owner keeps 0.00.
    expect(amounts(933, [fixed(900, "A"), percent(500, "B")])).toEqual([[900, 33], 0])
    // net 0.05: fixed 5.00 gets 0.05; 10% (0.005 → 0.00) gets nothing.
    expect(amounts(5, [percent(1000, "A"), fixed(500, "B")])).toEqual([[0, 5], 0])
    // net 0.00: nobody gets anything.
    expect(amounts(0, [fixed(100), percent(5000)])).toEqual([[0, 0], 0])
  })

  it("keeps each receiver's account and type in its own position", () => {
    const fitted = fitSplit(cents(5), [percent(1000, "A"), fixed(500, "B")])
    expect(fitted.parts.map((p) => [p.account, p.type])).toEqual([["A", "percentage"], ["B", "fixed"]])
  })
})

const receiver: fc.Arbitrary<SplitReceiver<string>> = fc.oneof(
  fc.record({ type: fc.constant("fixed" as const), amount: fc.integer({ min: 1, max: 100_000 }).map(cents), account: fc.string() }),
  fc.record({ type: fc.constant("percentage" as const), percentHundredths: fc.integer({ min: 1, max: 10_000 }), account: fc.string() })
)

describe("split laws", () => {
  it("parts + owner remainder = net, each part >= 0.01 and never above net, whenever the split is accepted", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 100_000_000 }), fc.array(receiver, { minLength: 1, maxLength: 20 }), (net, receivers) => {
      fc.pre(Result.isSuccess(validateSplit(receivers)))
      const result = computeSplit(cents(net), receivers)
      // The parts as the rule states them, computed here independently.
      const expected = receivers.map((r) => (r.type === "fixed" ? r.amount : Math.floor((net * r.percentHundredths) / 10_000)))
      if (Result.isFailure(result)) {
        if (result.failure._tag === "SPLIT_EXCEEDS_NET_AMOUNT") expect(expected.reduce((a, b) => a + b, 0)).toBeGreaterThan(net)
        else expect(expected.some((part) => part < 1)).toBe(true)
        return
      }
      expect(result.success.parts.map((p) => p.amount)).toEqual(expected)
      const { parts, ownerAmount } = result.success
      expect(parts.reduce((a, p) => a + p.amount, 0) + ownerAmount).toBe(net)
      expect(ownerAmount).toBeGreaterThanOrEqual(0)
      for (const p of parts) {
        expect(p.amount).toBeGreaterThanOrEqual(1)
        expect(p.amount).toBeLessThanOrEqual(net)
      }
    }), { numRuns: 2000 })
  })

  it("percentage-only splits within 100% never exceed the net amount", () => {
    fc.assert(fc.property(
      fc.integer({ min: 10_000, max: 100_000_000 }),
      fc.array(fc.integer({ min: 1, max: 500 }), { minLength: 1, maxLength: 20 }),
      (net, percents) => {
        const result = computeSplit(cents(net), percents.map((p) => ({ type: "percentage" as const, percentHundredths: p, account: "x" })))
        expect(Result.isSuccess(result)).toBe(true)
      }
    ))
  })

  it("a fitted split: parts + owner = net, each part between 0 and what it asks, in order; and it agrees with the split whenever that accepts", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 100_000_000 }), fc.array(receiver, { minLength: 1, maxLength: 20 }), (net, receivers) => {
      fc.pre(Result.isSuccess(validateSplit(receivers)))
      const fitted = fitSplit(cents(net), receivers)
      const asked = receivers.map((r) => (r.type === "fixed" ? r.amount : Math.floor((net * r.percentHundredths) / 10_000)))
      expect(fitted.parts.reduce((a, p) => a + p.amount, 0) + fitted.ownerAmount).toBe(net)
      expect(fitted.ownerAmount).toBeGreaterThanOrEqual(0)
      let left = net
      for (const [i, part] of fitted.parts.entries()) {
        // Each receiver in turn takes what it asks, or all that is left.
        expect(part.amount).toBe(Math.min(asked[i]!, left))
        left -= part.amount
      }
      const strict = computeSplit(cents(net), receivers)
      if (Result.isSuccess(strict)) expect(fitted).toEqual(strict.success)
    }), { numRuns: 2000 })
  })

  it("a fitted split on a net of a few centavos: parts + owner = net", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 20 }), fc.array(receiver, { minLength: 1, maxLength: 20 }), (net, receivers) => {
      const fitted = fitSplit(cents(net), receivers)
      expect(fitted.parts.reduce((a, p) => a + p.amount, 0) + fitted.ownerAmount).toBe(net)
      for (const part of fitted.parts) expect(part.amount).toBeGreaterThanOrEqual(0)
    }), { numRuns: 2000 })
  })
})
