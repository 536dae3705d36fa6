export { BillingApi } from "./api/Api.ts"
export { EnvelopeBody, envelopeBody } from "./ErrorEnvelope.ts"
export { HttpServerLive } from "./Server.ts"
export { WebhookTransportHttp } from "./WebhookTransportHttp.ts"
