/**
 * The edge bounds of JSON bodies: the one-pass check that lets an ordinary
 * body through without a parse never lets through one that the full
 * inspection would refuse.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { jsonProblem, jsonSuspect, MAX_JSON_DEPTH } from "../src/InputGuard.ts"

/** A value nested `depth` levels deep: arrays and objects alternating, a string at the bottom. */
const nestedValue = (depth: number, leaf: string): unknown =>
  depth === 0 ? leaf : depth % 2 === 0 ? [nestedValue(depth - 1, leaf)] : { k: nestedValue(depth - 1, leaf) }

describe("InputGuard", () => {
  it("refuses exactly what nests more than 32 levels, naming the path to it", () => {
    expect(jsonProblem(nestedValue(MAX_JSON_DEPTH, "x"))).toBeUndefined()
    const problem = jsonProblem(nestedValue(MAX_JSON_DEPTH + 1, "x"))
    expect(problem?.message).toMatch(/deeper than 32/)
  })

  it("finds a NUL in a string or a key, wherever it is", () => {
    expect(jsonProblem({ a: [{ b: "x\u0000y" }] })).toEqual({ field: "a[0].b", message: "must not contain the NUL character" })
    expect(jsonProblem({ a: { "k\u0000": 1 } })).toEqual({ field: "a", message: "must not contain the NUL character" })
  })

  it("law: whenever the full inspection refuses a body, the one-pass check flags its text", () => {
    const leaf = fc.oneof(fc.string(), fc.constant("a\u0000b"), fc.integer(), fc.boolean(), fc.constant(null))
    const value = fc.tuple(fc.integer({ min: 0, max: 40 }), leaf).map(([depth, l]) => nestedValue(depth, l as string))
    fc.assert(fc.property(fc.oneof(value, fc.jsonValue({ maxDepth: 40 })), (v) => {
      if (jsonProblem(v) !== undefined) expect(jsonSuspect(JSON.stringify(v))).toBe(true)
    }), { numRuns: 2000 })
  })

  it("lets an ordinary body through without a parse, brackets inside strings included", () => {
    expect(jsonSuspect(JSON.stringify({ amount: 10, description: "[[[[{{{{".repeat(10), metadata: { orderId: "1" } }))).toBe(false)
  })
})
