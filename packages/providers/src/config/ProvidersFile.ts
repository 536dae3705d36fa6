/**
 * The providers file (`BILLING_PROVIDERS_FILE`): one contract for `serve`,
 * `worker`, `run` and the library's `BillingLive({ providers })`. Unknown
 * keys are refused rather than ignored, so a misspelt key never leaves a
 * provider silently unconfigured.
 */
import { Schema } from "effect"
import { BoletoEntry } from "./BoletoEntry.ts"
import { CardEntry } from "./CardEntry.ts"
import { NfseEntry } from "./NfseEntry.ts"
import { PixPspEntry } from "./PixPspEntry.ts"
import { PublicUrl } from "./Urls.ts"

export const ProvidersFile = Schema.Struct({
  publicUrl: PublicUrl,
  pix: Schema.Array(PixPspEntry).pipe(Schema.check(
    Schema.isMinLength(1, { message: "list at least one PSP" }),
    Schema.makeFilter((entries: ReadonlyArray<PixPspEntry>) => {
      const seen = new Set<string>()
      for (const [index, entry] of entries.entries()) {
        if (seen.has(entry.name)) return { path: [index, "name"], issue: `duplicate name ${entry.name}` }
        seen.add(entry.name)
      }
      return undefined
    })
  )),
  card: Schema.optionalKey(CardEntry),
  boleto: Schema.optionalKey(BoletoEntry),
  nfse: Schema.optionalKey(NfseEntry)
})

/** The providers file as written (the JSON shape, also the value `BillingLive({ providers })` takes). */
export type ProvidersFileInput = typeof ProvidersFile.Encoded
/** The providers file decoded, before its secrets and files are read. */
export type ProvidersFile = typeof ProvidersFile.Type
