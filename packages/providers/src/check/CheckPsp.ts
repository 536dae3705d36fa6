/**
 * `billing providers check`, one PSP at a time: its certificate (subject,
 * CNPJ, validity) and a token obtained over mutual TLS. Registering the
 * webhook belongs to the PSP adapter, a later step of issue 28, and the
 * report says so.
 */
import { Clock, Effect } from "effect"
import { Certificates } from "@billing/core"
import type { PixPsp } from "../config/ProvidersConfig.ts"
import { pspTokenClient } from "../pix/PspHttp.ts"
import { mutualTlsAgent } from "../tls/MutualTlsAgent.ts"

export interface PspReport {
  readonly name: string
  /** A valid certificate and a token: the PSP can take charges once its adapter exists. */
  readonly usable: boolean
  /** One line: `name (profile): certificate …; token …`. */
  readonly line: string
}

const day = (date: Date) => date.toISOString().slice(0, 10)

const certificateText = (psp: PixPsp, nowMs: number) => {
  const leaf = psp.certificate.leaf
  const who = `${leaf.subject}${leaf.cnpj === undefined ? "" : `, CNPJ ${leaf.cnpj}`}`
  const validity = Certificates.validityAt(leaf, nowMs)
  switch (validity._tag) {
    case "NotYetValid":
      return { ok: false, text: `certificate ${who} NOT YET VALID (from ${day(leaf.notBefore)})` }
    case "Expired":
      return { ok: false, text: `certificate ${who} EXPIRED on ${day(leaf.notAfter)}` }
    case "Expiring":
      return { ok: true, text: `certificate ${who} EXPIRES SOON: ${day(leaf.notAfter)} (${validity.days} days left; renew it)` }
    case "Valid":
      return { ok: true, text: `certificate ${who} valid until ${day(leaf.notAfter)}` }
  }
}

/** The report of one PSP; never fails (an unusable PSP is a line, not an error). */
export const checkPsp = Effect.fn("Providers.checkPsp")(function*(psp: PixPsp) {
  const now = yield* Clock.currentTimeMillis
  const certificate = certificateText(psp, now)
  const token = yield* Effect.scoped(Effect.gen(function*() {
    const client = yield* pspTokenClient(psp, yield* mutualTlsAgent(psp))
    return yield* client.token
  })).pipe(
    Effect.map((token) => ({ ok: true, text: `token obtained (expires_in ${token.expiresInSeconds} s)` })),
    Effect.catchTag("TokenRequestFailed", (error) => Effect.succeed({ ok: false, text: `token FAILED: ${error.message}` }))
  )
  const usable = certificate.ok && token.ok
  return {
    name: psp.name,
    usable,
    line: `${psp.name} (${psp.profile}): ${usable ? "usable" : "NOT usable"}; ${certificate.text}; ${token.text}`
  } satisfies PspReport
})
