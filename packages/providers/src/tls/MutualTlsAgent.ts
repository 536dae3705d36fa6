/**
 * One undici `Agent` per provider: its connections present the provider
 * entry's client certificate, trust the entry's `ca` (else the public
 * roots), and are kept alive between calls, so a PSP that answers in
 * milliseconds is not paid a TLS handshake per request.
 */
import { Effect, Redacted } from "effect"
import { Agent } from "undici"
import type { Certificates } from "@billing/core"

export interface MutualTlsOptions {
  readonly certificate: Certificates.ClientCertificate
  readonly ca: string | undefined
}

/** How long an idle connection is kept: PSP gateways commonly drop idle ones after about a minute. */
const KEEP_ALIVE_MS = 30_000

/** The agent, closed (its sockets ended) with the scope. */
export const mutualTlsAgent = (options: MutualTlsOptions) =>
  Effect.acquireRelease(
    Effect.sync(() =>
      new Agent({
        keepAliveTimeout: KEEP_ALIVE_MS,
        connect: {
          key: Redacted.value(options.certificate.key),
          cert: options.certificate.chain,
          ...(options.ca === undefined ? {} : { ca: options.ca }),
          // Explicit, so NODE_TLS_REJECT_UNAUTHORIZED=0 in the environment cannot turn verification off.
          rejectUnauthorized: true
        }
      })
    ),
    (agent) => Effect.promise(() => agent.close())
  )
