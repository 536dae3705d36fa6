/**
 * The sandbox's documents-copy page (`urlDocumentscopy` of a proposal):
 * public, addressed by the page's unguessable key, where the owner sends
 * identity documents. In production the KYC provider serves this page; the
 * sandbox accepts any file, keeps none, and records that documents came.
 */
import { NotFound } from "@billing/core"
import { Schema } from "effect"
import { Multipart } from "effect/http"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { enveloped } from "../ErrorEnvelope.ts"
import { Id } from "./Common.ts"

const Html = Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/html; charset=utf-8" }))
const params = { token: Id }

/** A few identity documents within the body bound of every route (1 MiB): the sandbox keeps none of them. */
export const DocumentsUpload = Schema.Struct({ documents: Multipart.FilesSchema }).pipe(
  HttpApiSchema.asMultipart({ maxParts: 6, maxFileSize: "1 MB", maxTotalSize: "1 MB" })
)

export class DocumentsCopyGroup extends HttpApiGroup.make("documentsCopy")
  .add(
    HttpApiEndpoint.get("page", "/v1/sandbox/documentscopy/:token", { params, success: Html, error: enveloped(NotFound) })
      .annotate(OpenApi.Summary, "The documents-copy page of a proposal (public)"),
    HttpApiEndpoint.post("upload", "/v1/sandbox/documentscopy/:token", { params, payload: DocumentsUpload, success: Html, error: enveloped(NotFound) })
      .annotate(OpenApi.Summary, "Send the identity documents of a proposal (public; the sandbox accepts any file)")
  )
  .annotateMerge(OpenApi.annotations({ title: "Documents copy", description: "Public: addressed by the page's key, no token needed" }))
{}
