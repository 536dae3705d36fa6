/**
 * The engine refuses a runtime whose `JSON.parse` misreads escaped keys
 * (every Node 24 we tried): the probe, against a parser that misreads them
 * as Node 24 does and against the Node the suite runs on.
 */
import { describe, expect, it } from "vitest"
import { readsEscapedKeys, unsoundRuntime } from "../src/SoundRuntime.ts"

/** Node 24's `JSON.parse`: after a `"\\"` key, a one-character escaped key in the same place reads as `"\\"`. */
const node24Parse = () => {
  let sawBackslashKey = false
  return (text: string): unknown => {
    const parsed = JSON.parse(text) as Record<string, unknown>
    if (Object.hasOwn(parsed, "\\")) sawBackslashKey = true
    if (!sawBackslashKey || !Object.hasOwn(parsed, "\n")) return parsed
    const { "\n": value, ...others } = parsed
    return { ...others, "\\": value }
  }
}

describe("sound runtime", () => {
  it("refuses a parser that reads the key \"\\n\" as \"\\\\\" after a backslash key, naming the version and the way out", () => {
    expect(readsEscapedKeys(node24Parse())).toBe(false)
    const why = unsoundRuntime(node24Parse(), "v24.21.0")
    expect(why).toContain("Node.js v24.21.0 reads escaped JSON keys wrongly")
    expect(why).toContain("scripts/node.sh")
  })

  it("accepts the Node the suite runs on (scripts/node.sh chose it by the same probe)", () => {
    expect(readsEscapedKeys()).toBe(true)
    expect(unsoundRuntime()).toBeUndefined()
  })
})
