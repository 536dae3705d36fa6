/**
 * The address a request is throttled by. IPv4 as is (IPv4-mapped IPv6
 * unwrapped), IPv6 as its /64: one subscriber usually holds a whole /64, so
 * throttling single IPv6 addresses would let one machine walk through 2^64
 * of them.
 *
 * `remoteAddress` is the TCP peer unless the server was told which proxies
 * to trust (`HttpServerLive`'s `trustedProxies`); only then does
 * `X-Forwarded-For` count, because any client can write that header.
 */
import { Option, Result } from "effect"
import { HttpServerRequest } from "effect/http"
import { IpNetwork, NetAddress } from "effect/net"

export const throttleAddress = (request: HttpServerRequest.HttpServerRequest): string | undefined => {
  const remote = Option.getOrUndefined(request.remoteAddress)
  if (remote === undefined) return undefined
  const parsed = NetAddress.ipFromString(remote)
  if (Result.isFailure(parsed)) return undefined
  const address = NetAddress.toCanonical(parsed.success)
  if (NetAddress.isIpv4Address(address)) return NetAddress.formatIp(address)
  return IpNetwork.format(IpNetwork.fromAddressUnsafe(address, 64))
}
