/**
 * A providers file's PSP entry pointing at a fake PSP (or at any base URL,
 * for a PSP that does not answer), with the test PKI's merchant certificate.
 */
import { Redacted, Result } from "effect"
import { Certificates } from "@billing/core"
import type { PixPsp } from "../../src/config/ProvidersConfig.ts"
import type { PspProfileName } from "../../src/pix/PixProfiles.ts"
import type { FakePsp } from "./FakePsp.ts"
import { MERCHANT_CNPJ, type TestPki } from "./TestCertificates.ts"

export interface FakeEntryOptions {
  readonly name: string
  readonly profile: PspProfileName
  /** Where the API is, when not the fake's own (a closed port, say). */
  readonly baseUrl?: string
  readonly appKey?: string
}

export const fakePspEntry = (pki: TestPki, fake: FakePsp, options: FakeEntryOptions): PixPsp => ({
  name: options.name,
  profile: options.profile,
  baseUrl: options.baseUrl ?? fake.baseUrl,
  tokenUrl: fake.tokenUrl,
  clientId: "client-1",
  clientSecret: Redacted.make("secret-1"),
  pixKey: { type: "CNPJ", value: MERCHANT_CNPJ },
  certificate: Result.getOrThrow(Certificates.fromPem(pki.client.certPem, pki.client.keyPem)),
  ca: pki.caPem,
  scopes: [],
  appKey: options.appKey
})
