/**
 * The circuit of a PSP as laws over any sequence of calls, checked against a
 * model written here from the rule's words alone (five failures in a row
 * open it for thirty seconds; then one probe decides).
 */
import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { admit, CLOSED, type CircuitState, COOL_DOWN_MILLIS, failed, FAILURES_TO_OPEN, succeeded } from "../src/failover/Circuit.ts"

type Step = { readonly wait: number; readonly outcome: "ok" | "fail" }

/** Runs `steps` (each: time passes, then a call is tried) and answers which calls went to the PSP. */
const simulate = (steps: ReadonlyArray<Step>) => {
  let state: CircuitState = CLOSED
  let now = 0
  return steps.map((step) => {
    now += step.wait
    const admission = admit(state, now)
    if (admission._tag === "Skip") return false
    state = step.outcome === "ok" ? succeeded(admission.state) : failed(admission.state, now)
    return true
  })
}

/** The rule, said plainly: count failures in a row; at five, skip for 30 s; after that one call decides. */
const model = (steps: ReadonlyArray<Step>) => {
  let inARow = 0
  let openUntil: number | null = null
  let now = 0
  return steps.map((step) => {
    now += step.wait
    if (openUntil !== null && now < openUntil) return false
    const probe = openUntil !== null
    openUntil = null
    if (step.outcome === "ok") inARow = 0
    else if (probe || ++inARow >= 5) {
      openUntil = now + 30_000
      inARow = 0
    }
    return true
  })
}

const steps = fc.array(
  fc.record({ wait: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 40_000 })), outcome: fc.constantFrom("ok" as const, "fail" as const) }),
  { maxLength: 60 }
)

describe("a PSP's circuit", () => {
  it("uses the recorded figures: five in a row, thirty seconds", () => {
    expect([FAILURES_TO_OPEN, COOL_DOWN_MILLIS]).toEqual([5, 30_000])
  })

  it("lets exactly the calls through that the rule does, for any sequence of calls", () => {
    fc.assert(fc.property(steps, (s) => {
      expect(simulate(s)).toEqual(model(s))
    }), { numRuns: 2000 })
  })

  it("skips every other call while a probe is in flight", () => {
    let state: CircuitState = CLOSED
    for (let i = 0; i < 5; i++) state = failed(state, 1_000)
    expect(admit(state, 30_999)._tag).toBe("Skip")
    const probe = admit(state, 31_000)
    expect(probe).toEqual({ _tag: "Go", state: { _tag: "Probing" } })
    if (probe._tag === "Go") state = probe.state
    expect(admit(state, 31_001)._tag).toBe("Skip")
    expect(admit(succeeded(state), 31_002)._tag).toBe("Go")
    expect(failed(state, 40_000)).toEqual({ _tag: "Open", until: 70_000 })
  })
})
