/** A JSON client of the engine's HTTP API for one token: what a merchant's integration does. */
export const apiCaller = (baseUrl: string, token: string) =>
async (method: string, path: string, body?: unknown, extra: Record<string, string> = {}) => {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...extra },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: response.status, body: await response.json() }
}
