/**
 * Encodings of the wire, written once (DESIGN: wire quirks are encodings at
 * the edge). Views and event payloads use these for the fields whose wire
 * form differs from the entity's: instants and money. Everything else is the
 * entity's own field schema.
 */
import { Schema } from "effect"

/** An instant on the wire: ISO 8601 with milliseconds and `Z` (spec: General rule 3); a `Date` inside. */
export const Instant = Schema.DateFromString.annotate({ description: "ISO 8601 date-time, e.g. 2026-07-01T12:00:00.000Z" })

export { ReaisJson } from "../money/Money.ts"
