import { NodeHttpServer } from "@effect/platform-node"
import { Layer } from "effect"
import { HttpRouter } from "effect/http"
import { createServer } from "node:http"
import { DocsLive } from "./Docs.ts"
import { ErrorHandlingLive } from "./ErrorHandling.ts"
import { ApiLive } from "./handlers/index.ts"
import { requestLog } from "./RequestLog.ts"

/**
 * The HTTP server on `port` (0 picks a free one), serving every route of the
 * API and its reference at `/docs`, with one log line per request
 * (`RequestLog.ts`; Effect's own response logger is off in its favour).
 */
export const HttpServerLive = (options: { readonly port: number; readonly host?: string }) =>
  HttpRouter.serve(Layer.mergeAll(ApiLive, DocsLive, ErrorHandlingLive), { disableLogger: true, middleware: requestLog }).pipe(
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: options.port, host: options.host ?? "0.0.0.0" }))
  )
