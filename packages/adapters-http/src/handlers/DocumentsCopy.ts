/** Handlers of the sandbox's documents-copy page: the form, and its upload. */
import { Billing, type DocumentsCopyState } from "@billing/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { BillingApi } from "../api/Api.ts"
import { capture, type Services } from "./Common.ts"

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" })[c]!)

/** The page: the upload form until documents came, a receipt after. */
export const documentsPage = (state: DocumentsCopyState): string => {
  const body = state.sent
    ? `<p id="status" role="status">Documentos recebidos. A análise da proposta continua.</p>`
    : `<form method="post" enctype="multipart/form-data">
  <label for="documents">Documento de identidade (frente e verso) e selfie</label>
  <input id="documents" name="documents" type="file" multiple required>
  <button type="submit">Enviar documentos</button>
</form>`
  return `<!doctype html>
<html lang="pt-BR">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Envio de documentos</title></head>
<body>
<h1>Envio de documentos</h1>
<p>Proposta de ${escapeHtml(state.name)} (sandbox: qualquer arquivo é aceito).</p>
${body}
</body>
</html>`
}

export const DocumentsCopyHandlers = HttpApiBuilder.group(BillingApi, "documentsCopy", Effect.fn("Handlers.documentsCopy")(function*(handlers) {
  const provide = yield* capture<Services<ReturnType<typeof Billing.receiveDocuments>>>()
  return handlers
    .handle("page", ({ params }) => Effect.map(provide(Billing.documentsCopyState(params.token)), documentsPage))
    .handle("upload", ({ params }) => Effect.map(provide(Billing.receiveDocuments(params.token)), documentsPage))
}))
