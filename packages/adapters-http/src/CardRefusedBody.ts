import { CardRefused } from "@billing/core"
import { Schema, SchemaGetter } from "effect"
import { HttpApiSchema } from "effect/http-api"

/** The 402 body of a refused card on the transparent checkout: `{ success: false, chargeId, status: "failed", error }`, no envelope. */
export const CardRefusedBody = Schema.Struct({
  success: Schema.Literal(false),
  chargeId: Schema.String,
  status: Schema.Literal("failed"),
  error: Schema.String
}).pipe(
  Schema.decodeTo(CardRefused, {
    decode: SchemaGetter.transform((body: { readonly chargeId: string; readonly error: string }) => ({
      _tag: "CardRefused" as const,
      chargeId: body.chargeId,
      error: body.error
    })),
    encode: SchemaGetter.transform((e: { readonly chargeId: string; readonly error: string }) => ({
      success: false as const,
      chargeId: e.chargeId,
      status: "failed" as const,
      error: e.error
    }))
  }),
  HttpApiSchema.status(402)
).annotate({ identifier: "CardRefused" })
