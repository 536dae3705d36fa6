import { NodeHttpServer } from "@effect/platform-node"
import { Layer } from "effect"
import { HttpRouter } from "effect/http"
import { createServer } from "node:http"
import { DocsLive } from "./Docs.ts"
import { ErrorHandlingLive } from "./ErrorHandling.ts"
import { ApiLive } from "./handlers/index.ts"

/** The HTTP server on `port` (0 picks a free one), serving every route of the API and its reference at `/docs`. */
export const HttpServerLive = (options: { readonly port: number; readonly host?: string }) =>
  HttpRouter.serve(Layer.mergeAll(ApiLive, DocsLive, ErrorHandlingLive), { disableLogger: true }).pipe(
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: options.port, host: options.host ?? "0.0.0.0" }))
  )
