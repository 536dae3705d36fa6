import { Migrator } from "effect/sql"
import foundation from "./0001_foundation.ts"
import charges from "./0002_charges.ts"
import products from "./0003_products.ts"
import customers from "./0004_customers.ts"
import coupons from "./0005_coupons.ts"
import checkout from "./0006_checkout.ts"
import boleto from "./0007_boleto.ts"
import checkoutLinks from "./0008_checkout_links.ts"
import notifications from "./0009_notifications.ts"
import accountEmail from "./0010_account_email.ts"
import house from "./0011_house.ts"
import authHardening from "./0012_auth_hardening.ts"
import subscriptions from "./0013_subscriptions.ts"
import billingRun from "./0014_billing_run.ts"
import ledger from "./0015_ledger.ts"
import disputes from "./0016_disputes.ts"
import proposals from "./0017_proposals.ts"
import deliveryAtScale from "./0018_delivery_at_scale.ts"
import sandboxPspReference from "./0019_sandbox_psp_reference.ts"
import deliveryLeasesInPlace from "./0020_delivery_leases_in_place.ts"
import invoiceBalanceOnAmounts from "./0021_invoice_balance_on_amounts.ts"
import ledgerEntriesCheckedPerStatement from "./0022_ledger_entries_checked_per_statement.ts"
import invoiceBalancePerStatement from "./0023_invoice_balance_per_statement.ts"
import leanerCycleAndChargeIndexes from "./0024_leaner_cycle_and_charge_indexes.ts"
import internalAccounts from "./0025_internal_accounts.ts"
import pixFromPsps from "./0026_pix_from_psps.ts"
import nfseConfigs from "./0027_nfse_configs.ts"
import notas from "./0028_notas.ts"
import boletosAtABank from "./0029_boletos_at_a_bank.ts"
import nfseConfigsKept from "./0030_nfse_configs_kept.ts"
import couponRedemptionsByReference from "./0031_coupon_redemptions_by_reference.ts"
import cycleClaimsInATotalOrder from "./0032_cycle_claims_in_a_total_order.ts"

/**
 * Every migration, keyed `<id>_<name>`; applied in id order, each once. Kept
 * as a record (not files read at run time) so the same list works from
 * source, from a bundle and on PGlite.
 */
export const migrations = Migrator.fromRecord({
  "0001_foundation": foundation,
  "0002_charges": charges,
  "0003_products": products,
  "0004_customers": customers,
  "0005_coupons": coupons,
  "0006_checkout": checkout,
  "0007_boleto": boleto,
  "0008_checkout_links": checkoutLinks,
  "0009_notifications": notifications,
  "0010_account_email": accountEmail,
  "0011_house": house,
  "0012_auth_hardening": authHardening,
  "0013_subscriptions": subscriptions,
  "0014_billing_run": billingRun,
  "0015_ledger": ledger,
  "0016_disputes": disputes,
  "0017_proposals": proposals,
  "0018_delivery_at_scale": deliveryAtScale,
  "0019_sandbox_psp_reference": sandboxPspReference,
  "0020_delivery_leases_in_place": deliveryLeasesInPlace,
  "0021_invoice_balance_on_amounts": invoiceBalanceOnAmounts,
  "0022_ledger_entries_checked_per_statement": ledgerEntriesCheckedPerStatement,
  "0023_invoice_balance_per_statement": invoiceBalancePerStatement,
  "0024_leaner_cycle_and_charge_indexes": leanerCycleAndChargeIndexes,
  "0025_internal_accounts": internalAccounts,
  "0026_pix_from_psps": pixFromPsps,
  "0027_nfse_configs": nfseConfigs,
  "0028_notas": notas,
  "0029_boletos_at_a_bank": boletosAtABank,
  "0030_nfse_configs_kept": nfseConfigsKept,
  "0031_coupon_redemptions_by_reference": couponRedemptionsByReference,
  "0032_cycle_claims_in_a_total_order": cycleClaimsInATotalOrder
})
