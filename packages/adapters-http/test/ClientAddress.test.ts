import { Option } from "effect"
import { HttpServerRequest } from "effect/http"
import { describe, expect, it } from "vitest"
import { throttleAddress } from "../src/ClientAddress.ts"

const from = (remote: string | undefined) =>
  throttleAddress(HttpServerRequest.fromWeb(new Request("http://engine.test/auth/token")).modify({
    remoteAddress: remote === undefined ? Option.none() : Option.some(remote)
  }))

describe("the address the token route throttles by", () => {
  it("is an IPv4 address as is, IPv4-mapped IPv6 included", () => {
    expect(from("203.0.113.9")).toBe("203.0.113.9")
    expect(from("::ffff:203.0.113.9")).toBe("203.0.113.9")
  })

  it("is the /64 of an IPv6 address, so one subscriber's many addresses count as one", () => {
    expect(from("2001:db8:1:2::1")).toBe("2001:db8:1:2::/64")
    expect(from("2001:db8:1:2:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64")
    expect(from("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64")
  })

  it("is unknown without a parseable peer address (the client id is still throttled)", () => {
    expect(from(undefined)).toBeUndefined()
    expect(from("not-an-address")).toBeUndefined()
  })
})
