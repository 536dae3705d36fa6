/**
 * The providers file's `nfse` entry: the city of production accounts' fiscal
 * notes. The national system (Sistema Nacional NFS-e, Sefin Nacional) only
 * for now; the certificate that signs and authenticates is each issuer
 * configuration's own A1 (`/v1/invoices/notas/config`), not this file's.
 */
import { Schema } from "effect"
import { SignatureAlgorithm } from "../nfse/DpsSignature.ts"
import { FilePath } from "./Secret.ts"
import { PublicUrl } from "./Urls.ts"

export const NfseEntry = Schema.Struct({
  provider: Schema.Literals(["nacional"]).annotate({ message: "must be nacional" }),
  /** `producao`, or `producao-restrita`: the national system's homologation environment. */
  ambiente: Schema.Literals(["producao", "producao-restrita"]).annotate({ message: "must be producao or producao-restrita" }),
  /** The DPS signature's algorithm: both are reported in use (`RSA-SHA256` when absent). */
  signatureAlgorithm: Schema.optionalKey(SignatureAlgorithm),
  /** Sefin Nacional's base URL, when not the environment's (a test's fake). */
  baseUrl: Schema.optionalKey(PublicUrl),
  /** The DANFSe service's base URL, when not the environment's. */
  danfseUrl: Schema.optionalKey(PublicUrl),
  /** The municipal parameters service's base URL, when not the environment's. */
  parametersUrl: Schema.optionalKey(PublicUrl),
  /**
   * Seconds a call may take before its outcome counts as unknown (10 when
   * absent): a merchant's standalone emission waits for it, and a note whose
   * answer is lost is settled by the worker under the same DPS.
   */
  timeoutSeconds: Schema.optionalKey(Schema.Int.pipe(Schema.check(Schema.isBetween({ minimum: 1, maximum: 120 })))),
  /** The system's CA certificates (PEM file), when its servers are not signed by a public root. */
  ca: Schema.optionalKey(FilePath)
})
export type NfseEntry = typeof NfseEntry.Type
