/**
 * `@billing/providers`: the production layers of the provider ports and
 * what they share (mutual TLS, OAuth2 tokens; client certificates are read
 * by the core's `Certificates`, which NFS-e issuers share). Issue 28 so
 * far: the providers file, certificates, the token client, `providers
 * check`, the PSP adapter (the BCB API Pix client per PSP, the
 * `PixProvider` layer on one PSP and the failover over the file's list), the
 * callbacks and the reconciliation poll. Issue 29 so far: the card
 * acquirer on Mercado Pago (`AcquirerFromProviders`, the file's `card` entry).
 * Issue 30: the national NFS-e system (Sefin Nacional: the signed DPS, its
 * cancellation event, the DANFSe), the file's `nfse` entry.
 */
export { checkPsp, type PspReport } from "./check/CheckPsp.ts"
export { decodeProvidersFile, loadProvidersFile, resolveProviders } from "./config/LoadProviders.ts"
export type { BoletoBankConfig, CardAcquirerConfig, NfseCityConfig, PixPsp, ProvidersConfig } from "./config/ProvidersConfig.ts"
export { ProvidersFile, type ProvidersFileInput } from "./config/ProvidersFile.ts"
export { ProvidersFileInvalid } from "./config/ProvidersFileInvalid.ts"
export { type AccessToken, makeTokenClient, requestToken, type TokenClient, type TokenClientOptions } from "./oauth/TokenClient.ts"
export { TokenRejected, TokenRequestFailed } from "./oauth/TokenErrors.ts"
export { tokenRequest } from "./oauth/TokenRequest.ts"
export { standardTokenStyle, type TokenStyle } from "./oauth/TokenStyle.ts"
export { efiSendPix, efiSentPix, type PixSent, type SendPixRequest } from "./pix/EfiSendPix.ts"
export { type CobBody, type CobvBody, type Devedor, makePixApiClient, type PixApiClient, type PixApiError } from "./pix/PixApiClient.ts"
export { CobAnswer, DevolucaoAnswer, PixReceived } from "./pix/PixApiSchemas.ts"
export { type PspProfile, PspProfileName, PspProfileNames, PspProfiles } from "./pix/PixProfiles.ts"
export { makePixProviderPsp, pixProviderLayer, pixProviderOn } from "./pix/PixProviderPsp.ts"
export { PspClients } from "./pix/PspClients.ts"
export { COOL_DOWN_MILLIS, FAILURES_TO_OPEN } from "./failover/Circuit.ts"
export { CircuitOpen } from "./failover/GuardedPsp.ts"
export { DEFAULT_ORPHAN_WATCH, type OrphanWatch } from "./failover/OrphanCharges.ts"
export { type FailoverOptions, makePixProviderFailover, PixProviderFromProviders } from "./failover/PixProviderFailover.ts"
export { DEFAULT_POLL_WINDOW, type PixReceiver, pollReceivedPix, type PollReport } from "./reconciliation/PollReceivedPix.ts"
export { ReconcilePixJob, reconcilePixJob, type ReconcilePixOptions } from "./reconciliation/ReconcilePixJob.ts"
export {
  ChargeNotRegistrable,
  isRetryable,
  PixOperationUnsupported,
  PspAnswerInvalid,
  PspProblem,
  PspStillProcessing,
  PspUnreachable,
  Violacao
} from "./pix/PspErrors.ts"
export { makePspHttp, type PspCallError, type PspHttp, type PspHttpOptions, type PspRequest } from "./pix/PspHttp.ts"
export { engineTxid, PSP_TXID_PREFIX, pspReference, pspTxid } from "./pix/PspIdentifiers.ts"
export { Providers } from "./Providers.ts"
export { mutualTlsAgent } from "./tls/MutualTlsAgent.ts"
export { callbackSecret, callbackUrl, PixCallbackLive } from "./callback/PixCallback.ts"
export { type CallbackRegistration, registerCallbacks } from "./callback/RegisterCallbacks.ts"
export { receivedPixOf } from "./callback/ReceivedPix.ts"
export { AcquirerFromProviders } from "./card/AcquirerFromProviders.ts"
export { declineCodeOf, MERCADO_PAGO_DECLINES } from "./card/DeclineCodes.ts"
export { idempotencyKey, makeMercadoPagoAcquirer, mercadoPagoAcquirerLayer } from "./card/MercadoPagoAcquirer.ts"
export { MercadoPagoAnswerInvalid, MercadoPagoProblem, MercadoPagoUnreachable } from "./card/MercadoPagoErrors.ts"
export type { MercadoPagoHttpOptions } from "./card/MercadoPagoHttp.ts"
export { NfseProviderFromProviders, sefinOf } from "./nfse/NfseFromProviders.ts"
export { makeSefinNacional, sefinNacionalLayer, type SefinNacionalOptions } from "./nfse/SefinNacional.ts"
export { BoletoEntry, INTER_API, resolveBoletoEntry } from "./config/BoletoEntry.ts"
export { INTER_BANK_CODE, type InterBoletoOptions, interBoletoIssuerLayer, makeInterBoletoIssuer, WRITE_OFF_REASON } from "./boleto/InterBoletoIssuer.ts"
export { type CallbackNotice, callbackNotices } from "./boleto/InterCallback.ts"
export { type InterCobrancas, makeInterCobrancas } from "./boleto/InterCobrancas.ts"
export { InterAnswerInvalid, InterProblem, InterStillProcessing, InterUnreachable } from "./boleto/InterErrors.ts"
export { BOLETO_SCOPES, type InterHttpOptions } from "./boleto/InterHttp.ts"
export { seuNumeroOf } from "./boleto/InterRequests.ts"
export { BoletoIssuerFromProviders } from "./boleto/BoletoIssuerFromProviders.ts"
export { BoletoCallbackLive, boletoCallbackSecret, boletoCallbackUrl } from "./callback/BoletoCallback.ts"
export { type BoletoCallbackRegistration, registerBoletoCallback } from "./callback/RegisterBoletoCallback.ts"
export { type BoletoPollReport, type BoletoReceiver, DEFAULT_BOLETO_POLL_DAYS, pollBoletoPayments } from "./reconciliation/PollBoletoPayments.ts"
export { ReconcileBoletoJob, reconcileBoletoJob, type ReconcileBoletoOptions } from "./reconciliation/ReconcileBoletoJob.ts"
