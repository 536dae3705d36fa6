/**
 * `@billing/providers`: the production layers of the provider ports and
 * what they share (mutual TLS, certificates, OAuth2 tokens). This first step
 * of issue 28 holds the providers file, certificates, the token client and
 * `providers check`; the PSP adapter (charges, callbacks, reconciliation,
 * failover) comes next.
 */
export { type CertificateInfo, describeCertificate, EXPIRY_WARNING_DAYS, type Validity, validityAt } from "./certificates/CertificateInfo.ts"
export { type ClientCertificate, fromPem, fromPkcs12 } from "./certificates/ClientCertificate.ts"
export { cnpjOf, CNPJ_OTHER_NAME } from "./certificates/IcpBrasil.ts"
export { pkcs12ToPem } from "./certificates/Pkcs12.ts"
export { checkPsp, type PspReport } from "./check/CheckPsp.ts"
export { decodeProvidersFile, loadProvidersFile, resolveProviders } from "./config/LoadProviders.ts"
export type { PixPsp, ProvidersConfig } from "./config/ProvidersConfig.ts"
export { ProvidersFile, type ProvidersFileInput } from "./config/ProvidersFile.ts"
export { ProvidersFileInvalid } from "./config/ProvidersFileInvalid.ts"
export { type AccessToken, makeTokenClient, requestToken, type TokenClient, type TokenClientOptions } from "./oauth/TokenClient.ts"
export { TokenRejected, TokenRequestFailed } from "./oauth/TokenErrors.ts"
export { tokenRequest } from "./oauth/TokenRequest.ts"
export { standardTokenStyle, type TokenStyle } from "./oauth/TokenStyle.ts"
export { type PspProfile, PspProfileName, PspProfileNames, PspProfiles } from "./pix/PixProfiles.ts"
export { Providers } from "./Providers.ts"
export { mutualTlsAgent } from "./tls/MutualTlsAgent.ts"
