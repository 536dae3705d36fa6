/**
 * The `webhooks` section of the OpenAPI 3.1 document: one entry per event
 * the engine emits, its body the core's payload Schema (`EventPayloads`),
 * the very one the events are encoded with. Their named parts join the
 * document's components, next to the API's own.
 */
import { EventPayloads } from "@billing/core"
import { Schema } from "effect"

type Json = { readonly [key: string]: any }

/** `value` with its references to JSON Schema definitions pointing at the document's components instead. */
const toComponents = (value: unknown): Json => JSON.parse(JSON.stringify(value).replaceAll("\"#/$defs/", "\"#/components/schemas/"))

/** The JSON Schema of an event body and the named schemas it refers to. */
const describe = (schema: Schema.Top) => {
  const document = Schema.toJsonSchemaDocument(schema)
  return { schema: toComponents(document.schema), definitions: toComponents(document.definitions) }
}

const SIGNATURE_HEADER = {
  name: "X-Webhook-Signature",
  in: "header",
  required: true,
  description: "`t=<unix seconds>,v1=<hex HMAC-SHA-256 of \"t.body\" under the registration's secret>`",
  schema: { type: "string" }
}

/** The OpenAPI transform that documents every event the engine sends. */
export const documentWebhooks = (spec: Json): Json => {
  const described = Object.entries(EventPayloads).map(([event, schema]) => [event, describe(schema)] as const)
  const definitions = Object.assign({}, ...described.map(([, d]) => d.definitions))
  return {
    ...spec,
    webhooks: Object.fromEntries(described.map(([event, d]) => [event, {
      post: {
        operationId: `event.${event}`,
        summary: `Event ${event}`,
        description: "Sent to every registration subscribed to the event. Any 2xx within 5 seconds acknowledges it; there is no automatic retry.",
        parameters: [SIGNATURE_HEADER],
        requestBody: { required: true, content: { "application/json": { schema: d.schema } } },
        responses: { "200": { description: "Received (any 2xx)" }, "400": { description: "Refused: recorded as a failed delivery" } }
      }
    }])),
    // The API's own components win: the amount components were already rewritten for clients.
    components: { ...spec.components, schemas: { ...definitions, ...spec.components.schemas } }
  }
}
