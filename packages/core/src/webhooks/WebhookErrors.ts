import { Schema } from "effect"
import { ErrorFields } from "../domain/Errors.ts"

/** 404: no registration with this id on the caller's account. */
export class WebhookNotFound extends Schema.TaggedError<WebhookNotFound>()("WEBHOOK_NOT_FOUND", ErrorFields, {
  httpApiStatus: 404
}) {}

/** 404: no delivery with this id on the caller's account. */
export class WebhookEventNotFound extends Schema.TaggedError<WebhookEventNotFound>()(
  "WEBHOOK_EVENT_NOT_FOUND",
  ErrorFields,
  { httpApiStatus: 404 }
) {}
