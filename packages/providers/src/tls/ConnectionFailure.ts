/**
 * Why a connection to a provider failed, in words an operator can act on,
 * and whether the request may have reached the provider anyway (a refused
 * connection or a failed handshake never sent it; a connection closed
 * midway may have).
 */

/** At most 200 characters of a provider's text, so one answer cannot flood a log line. */
export const clip = (text: string) => (text.length > 200 ? `${text.slice(0, 200)}…` : text)

const parts = (error: unknown) => {
  const failure = error as { code?: string; message?: string; cause?: { code?: string; message?: string } }
  return { code: failure.cause?.code ?? failure.code, message: failure.cause?.message ?? failure.message ?? String(error) }
}

const isTls = (code: string | undefined, message: string) =>
  code?.startsWith("ERR_TLS") === true || code?.startsWith("ERR_SSL") === true || /certificate|ssl|tls|alert/i.test(message)

/** Why the connection failed, in TLS terms when it is TLS (the usual cause: a certificate the provider refuses, or one we do not trust). */
export const connectionFailure = (error: unknown) => {
  const { code, message } = parts(error)
  if (code === "ECONNREFUSED") return "connection refused"
  if (code === "ENOTFOUND") return "host not found"
  if (isTls(code, message)) return `TLS failed (${clip(message)})`
  if (code === "ECONNRESET" || code === "UND_ERR_SOCKET") return `connection closed by the provider (${clip(message)}); a provider that requires a client certificate does this when it refuses ours`
  return clip(message)
}

/** False only when the request cannot have reached the provider: refused, unknown host, failed handshake. */
export const mayHaveArrived = (error: unknown) => {
  const { code, message } = parts(error)
  return !(code === "ECONNREFUSED" || code === "ENOTFOUND" || isTls(code, message))
}
