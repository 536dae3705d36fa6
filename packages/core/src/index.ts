/**
 * `@billing/core`: the billing engine without I/O. Storage and providers are
 * ports (`ports/`) that adapters implement as Effect layers; use cases are
 * `Effect.fn` programs that need those ports. Embed it with:
 *
 * ```ts
 * import { Billing } from "@billing/core"
 * ```
 */

// Use cases.
export * as Billing from "./Billing.ts"

// Pure building blocks: Brazilian formats, exact money, billing rules.
export * as Brazil from "./brazil/index.ts"
export * as Certificates from "./certificates/index.ts"
export * as Money from "./money/index.ts"
export * as Rules from "./rules/index.ts"
export { cents, Cents } from "./money/Money.ts"

// Domain: resources, views, events and the error codes of the spec.
export * from "./domain/Account.ts"
export * from "./domain/Ids.ts"
export * from "./domain/ApiClient.ts"
export * from "./domain/Charge.ts"
export * from "./domain/CheckoutLink.ts"
export * from "./domain/Coupon.ts"
export * from "./domain/Customer.ts"
export * from "./domain/ChargeViews.ts"
export * from "./domain/Errors.ts"
export * from "./domain/Events.ts"
export * from "./domain/Ledger.ts"
export * from "./domain/Withdrawal.ts"
export * from "./domain/WalletViews.ts"
export * from "./domain/Refund.ts"
export * from "./domain/Med.ts"
export * from "./domain/Dispute.ts"
export * from "./domain/Proposal.ts"
export * from "./domain/ProposalView.ts"
export { AccountLookup, SubAccountList, SubAccountListQuery } from "./onboarding/SubAccounts.ts"
export { type DocumentsCopyState } from "./sandbox/Onboarding.ts"
export * from "./domain/NfseConfig.ts"
export * from "./domain/Nota.ts"
export * from "./domain/NotaViews.ts"
export * from "./domain/PixClaim.ts"
export * from "./domain/PaymentMethod.ts"
export * from "./domain/Product.ts"
export * from "./domain/RunScope.ts"
export * from "./domain/Scope.ts"
export * from "./domain/Subscription.ts"
export * from "./domain/SubscriptionViews.ts"
export * from "./domain/Values.ts"
export * from "./domain/Webhook.ts"
export * from "./domain/Wire.ts"
export * from "./auth/AuthErrors.ts"
export * from "./webhooks/WebhookErrors.ts"
export { PixChargeRequest, PixChargeResponse } from "./charges/PixChargeRequest.ts"
export { CardInput, CheckoutRequest, CheckoutResponse } from "./checkout/CheckoutRequest.ts"
export { SingleChargeRequest, SingleChargeResponse } from "./checkout/SingleCharge.ts"
export { PayCheckoutRequest } from "./checkout/PayCheckout.ts"
export type {
  HostedCharge,
  HostedCheckout,
  HostedColors,
  HostedConfirmation,
  HostedGone,
  HostedInstallmentTerms,
  HostedLine,
  HostedOrderBump,
  HostedPage,
  HostedRecurrence,
  PrefilledBuyer
} from "./checkout/HostedCheckout.ts"
export { hostedInstallments, hostedKindOf } from "./checkout/HostedCheckout.ts"
export { HostedCardToken, type HostedPaymentChoices } from "./checkout/HostedPayment.ts"
export { HostedThrottle, HostedTooManyRequests } from "./checkout/HostedThrottle.ts"
export type { CheckoutResult } from "./checkout/ReserveCheckout.ts"
export type { SubscriptionCheckoutResult } from "./subscriptions/CreateSubscription.ts"
export { CancelSubscriptionInput, CancelSubscriptionResponse } from "./subscriptions/CancelSubscription.ts"
export { SubscriptionListResponse } from "./subscriptions/ReadSubscriptions.ts"
export { ManualRetryResponse } from "./subscriptions/ManualRetry.ts"
export { ApproveCycleResponse } from "./subscriptions/HeldCycles.ts"
export type { BillingRunTotals } from "./subscriptions/BillingRun.ts"
export { AdvanceClockInput, AdvanceClockResult, TestClockView } from "./sandbox/TestClocks.ts"
export * from "./subscriptions/SubscriptionRequests.ts"
export * from "./events/SubscriptionEvents.ts"
export { EventPayloads } from "./events/EventPayloads.ts"
export { ChangelogFile, ChangelogView, NoteKind, ReleaseGroup, ReleaseMonth, ReleaseNote, ReleaseNotes, ReleaseNotesInvalid } from "./changelog/Changelog.ts"
export { DEFAULT_PIX_LIFETIME_MILLIS, ProviderUnavailable } from "./charges/CreatePixCharge.ts"
export { SplitExceedsNetAmount } from "./rules/Split.ts"
export { type ChargeTransition, ChargeTransitions, type ChargeTrigger, nextChargeStatus } from "./rules/ChargeTransitions.ts"
export {
  nextSubscriptionStatus,
  type SubscriptionTransition,
  SubscriptionTransitions,
  type SubscriptionTrigger
} from "./rules/SubscriptionTransitions.ts"
export * from "./rules/BillingJobs.ts"
export * from "./rules/CycleTransitions.ts"
export * from "./rules/InvoiceTransitions.ts"
export * from "./rules/ItemTransitions.ts"
export * from "./rules/NextCycle.ts"
export * from "./rules/PaymentProviders.ts"
export * from "./rules/NotaTransitions.ts"
export * from "./rules/SubscriptionStatuses.ts"
export * from "./rules/RefundTransitions.ts"
export * from "./rules/PixReturnWindow.ts"
export * from "./rules/DebtTransitions.ts"
export * from "./rules/WithdrawalTransitions.ts"
export * from "./rules/ProposalTransitions.ts"
export * from "./rules/PixClaimTransitions.ts"
export * from "./rules/DisputeTransitions.ts"
export * from "./rules/MedTransitions.ts"
export * from "./rules/DeliveryTransitions.ts"
export { RAILS_BOOK, railDirection, type RailDirection, RailDirections, STATEMENT_BOOKS } from "./rules/Postings.ts"
export * from "./domain/Notification.ts"

// Context of a request and installation-wide keys.
export { Caller } from "./auth/Authenticate.ts"
export { SigningKey } from "./auth/SigningKey.ts"
export { constantTimeEqual } from "./auth/ConstantTime.ts"
export { installationSecret, InstallationSecretUnreadable } from "./auth/InstallationSecret.ts"
export { generateSecretKeyText, parseSecretKeyText } from "./auth/SecretBox.ts"
export * as SecretBox from "./auth/SecretBox.ts"
export { DUMMY_SECRET_HASH, SecretHasher } from "./auth/SecretHash.ts"
export { TokenThrottle } from "./auth/Throttle.ts"

// Ports, and the sandbox layers of the provider ports.
export * from "./ports/AccessTokens.ts"
export * from "./ports/Accounts.ts"
export * from "./ports/AttemptCounters.ts"
export * from "./ports/Acquirer.ts"
export * from "./ports/ApiClients.ts"
export * from "./ports/BoletoIssuer.ts"
export * from "./ports/Charges.ts"
export * from "./ports/CheckoutLinks.ts"
export * from "./ports/Coupons.ts"
export * from "./ports/NfseConfigs.ts"
export * from "./ports/NfseProvider.ts"
export * from "./ports/Notas.ts"
export * from "./ports/Customers.ts"
export * from "./ports/FeeSchedules.ts"
export * from "./ports/Ids.ts"
export * from "./ports/Ledger.ts"
export * from "./ports/MedInfractions.ts"
export * from "./ports/Disputes.ts"
export * from "./ports/Proposals.ts"
export * from "./ports/Kyc.ts"
export * from "./ports/PixClaims.ts"
export * from "./ports/Mailer.ts"
export * from "./ports/Notifications.ts"
export * from "./ports/Outbox.ts"
export * from "./ports/PaymentMethods.ts"
export * from "./ports/PixProvider.ts"
export * from "./ports/ProviderGate.ts"
export * from "./ports/Products.ts"
export * from "./ports/Readiness.ts"
export * from "./ports/Refunds.ts"
export * from "./ports/SandboxPayments.ts"
export * from "./ports/SandboxPsp.ts"
export * from "./ports/SecretKey.ts"
export * from "./ports/Settings.ts"
export * from "./ports/Subscriptions.ts"
export * from "./ports/Transactor.ts"
export * from "./ports/WebhookDeliveries.ts"
export * from "./ports/Webhooks.ts"
export * from "./ports/Withdrawals.ts"
export * from "./ports/WebhookTransport.ts"
export { AcquirerSandbox, SANDBOX_DECLINING_CARDS } from "./sandbox/AcquirerSandbox.ts"
export { KycSandbox, SANDBOX_KYC_REPROVING_PREFIX } from "./sandbox/KycSandbox.ts"
export { BoletoIssuerSandbox, SANDBOX_BANK_CODE, SandboxBoletoBank } from "./sandbox/BoletoIssuerSandbox.ts"
export { MailerSandbox, type SandboxMail, SandboxMailbox } from "./sandbox/MailerSandbox.ts"
export { NfseCitySandbox, SANDBOX_REFUSAL_MARK, sandboxCity, sandboxNotaPdf } from "./sandbox/NfseCitySandbox.ts"
export { PixProviderSandbox, SANDBOX_FAILING_KEY_DOMAIN, SANDBOX_REFUSED_REFUND_CENTS } from "./sandbox/PixProviderSandbox.ts"

// For webhook receivers.
export { DEFAULT_TOLERANCE_SECONDS, signWebhook, verifyWebhookSignature, type VerifyResult } from "./webhooks/Signature.ts"
export * from "./BoundedMemo.ts"
