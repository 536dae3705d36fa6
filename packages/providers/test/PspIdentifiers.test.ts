/**
 * The identifiers given to a PSP: laws over any txid the engine makes (the
 * PSP's has 26 to 35 letters and digits, is the same every time, and maps
 * back to ours), and the ids of devoluções and payouts.
 */
import fc from "fast-check"
import { Option } from "effect"
import { describe, expect, it } from "vitest"
import { engineTxid, pspReference, pspTxid } from "../src/pix/PspIdentifiers.ts"

const alnum = (min: number, max: number) => fc.stringMatching(new RegExp(`^[A-Za-z0-9]{${min},${max}}$`))

describe("a charge's txid at the PSP", () => {
  it("is 26 to 35 letters and digits for any txid of ours of 22 to 31, and maps back to it", () => {
    fc.assert(fc.property(alnum(22, 31), (ours) => {
      const theirs = Option.getOrThrow(pspTxid(ours))
      expect(theirs).toMatch(/^[A-Za-z0-9]{26,35}$/)
      expect(pspTxid(ours)).toEqual(Option.some(theirs))
      expect(engineTxid(theirs)).toEqual(Option.some(ours))
    }))
  })

  it("of the engine's 25 characters is its own behind BLNG", () => {
    expect(pspTxid("B0123456789ABCDEF01234567")).toEqual(Option.some("BLNGB0123456789ABCDEF01234567"))
  })

  it("cannot be made from a txid too short, too long or with other characters", () => {
    expect(pspTxid("B0123")).toEqual(Option.none())
    expect(pspTxid("B".repeat(32))).toEqual(Option.none())
    expect(pspTxid("B0123456789ABCDEF0123456_")).toEqual(Option.none())
  })

  it("maps back only when it is ours: another system's txid on the same account is not a charge of ours", () => {
    fc.assert(fc.property(alnum(26, 35).filter((txid) => !txid.startsWith("BLNG")), (foreign) => {
      expect(engineTxid(foreign)).toEqual(Option.none())
    }))
    expect(engineTxid("BLNG12")).toEqual(Option.none())
  })
})

describe("the id of a devolução or payout", () => {
  it("is the letters and digits of ours when they fit", () => {
    expect(pspReference("ref_0kz3x9q2m4abcdefghijkl")).toBe("ref0kz3x9q2m4abcdefghijkl")
    expect(pspReference("SANDBOX_wdr_0kz3x9q2m4abcdefghijkl")).toBe("SANDBOXwdr0kz3x9q2m4abcdefghijkl")
  })

  it("is 35 hex digits of its SHA-256 when ours is longer, the same every time", () => {
    const long = `ref_${"a".repeat(40)}`
    // The first 35 hex digits of sha256("ref_" + 40 × "a"), computed apart from the code with sha256sum.
    expect(pspReference(long)).toBe("321ec6b8c7a0ae4d061ffae476e89ff70a7")
    expect(pspReference(long)).not.toBe(pspReference(`ref_${"a".repeat(41)}`))
  })
})
