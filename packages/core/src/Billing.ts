/**
 * The facade: every use case of the engine, grouped by resource. Each is an
 * Effect that needs the Storage ports (and, for calls made on behalf of a
 * client, the `Caller`); provide them with the adapters' layers.
 */
export { createAccount, type CreateAccountInput, type CreatedAccount } from "./accounts/CreateAccount.ts"
export { ensureSandboxAccount } from "./accounts/SandboxBootstrap.ts"
export { authenticate } from "./auth/Authenticate.ts"
export { issueToken, type TokenRequest, type TokenResponse } from "./auth/Tokens.ts"
export { attemptDelivery, deliverDue, fanOut, leaseDeliveries, recordOutcomes, releaseDeliveries, sendableUnderLease } from "./webhooks/Delivery.ts"
export {
  getWebhook,
  listDeliveries,
  listWebhooks,
  registerWebhook,
  removeWebhook,
  retryDelivery,
  testWebhook,
  updateWebhook
} from "./webhooks/Webhooks.ts"
export {
  createConfig as createNfseConfig,
  getConfig as getNfseConfig,
  listConfigs as listNfseConfigs,
  removeConfig as removeNfseConfig,
  updateConfig as updateNfseConfig
} from "./nfse/Configs.ts"
export {
  cancelNota,
  checkEmission as checkNotaEmission,
  emitForCharge as emitChargeNota,
  emitStandalone as emitStandaloneNota,
  getNota,
  listNotas,
  notaPdf,
  notaXml,
  reissue as reissueNota,
  resendNota,
  summarizeNotas
} from "./nfse/Notas.ts"
export { answerProcessingNotas, emitDueNotas } from "./nfse/NotaTiming.ts"
export { BACKLOG_CAP, recordBacklog } from "./metrics/BacklogMetrics.ts"
export { createPixCharge } from "./charges/CreatePixCharge.ts"
export { expireDueCharges } from "./charges/Expiry.ts"
export { archiveCharge, cancelCharge, getCharge, getChargeStatus, listCharges } from "./charges/ManageCharges.ts"
export { confirmSandboxPayments, requestSandboxPayment } from "./wallet/SandboxPayment.ts"
export { type ReceivedPixOutcome, receivePix } from "./pix/ReceivePix.ts"
export type { PixChargeClosing, ReceivedPix } from "./ports/PixProvider.ts"
export { judgeBoletoPayment, paidAtOf, type ReceivedBoletoOutcome, receiveBoletoPayments } from "./boleto/ReceiveBoleto.ts"
export { type BoletoNoticeOutcome, receiveBoletoNotices } from "./boleto/BoletoNotices.ts"
export { boletoRefOf, type WriteOffAnswer, writeOffBoleto } from "./boleto/BankBoleto.ts"
export { walletBalance } from "./wallet/Balance.ts"
export { noteTransaction, walletStatement } from "./wallet/Statement.ts"
export { listWithdrawals, lookupPixKey, payOutWithdrawals, pixTransfer, withdraw } from "./wallet/SendPix.ts"
export { completeRefunds, getRefunds, requestRefund } from "./wallet/Refunds.ts"
export { receivables, receivablesCalendar } from "./wallet/Receivables.ts"
export { reconciliation } from "./wallet/Reconciliation.ts"
export { cancelPixClaim, completePixClaim, getPixClaim, listPixClaims, requestPixClaim } from "./wallet/PixClaims.ts"
export { settleDueReceivables } from "./ledger/SettleReceivables.ts"
export { archiveProduct, createProduct, deleteProduct, getProduct, listProducts, updateProduct } from "./products/Products.ts"
export {
  createCustomer,
  deleteCustomer,
  getCustomer,
  listCustomers,
  lookupCustomerByDocument,
  queryCustomers,
  updateCustomer
} from "./customers/Customers.ts"
export {
  changeCouponStatus,
  couponValidationAccount,
  createCoupon,
  deleteCoupon,
  getCoupon,
  listCoupons,
  redeemCoupon,
  updateCoupon,
  validateCouponCode
} from "./coupons/Coupons.ts"
export { createCheckoutCharge, tokenizeCard } from "./checkout/CreateCheckoutCharge.ts"
export { createSingleCharge } from "./checkout/SingleCharge.ts"
export { payCheckout } from "./checkout/PayCheckout.ts"
export { CARD_OUTCOME_LEASE_MILLIS, resolveCardOutcomes } from "./checkout/ResolveCardOutcomes.ts"
export { hostedChargeStatus, hostedPage } from "./checkout/HostedCheckout.ts"
export { payHostedCheckout, tokenizeHostedCard } from "./checkout/HostedPayment.ts"
export { admitHostedRequest } from "./checkout/HostedThrottle.ts"
export { boletoDocument } from "./checkout/BoletoDocument.ts"
export {
  createCheckoutLink,
  createCheckoutSession,
  getCheckoutLink,
  getCheckoutSession,
  listCheckoutLinks,
  updateCheckoutLink
} from "./checkout/CheckoutLinks.ts"
export { sendPendingNotifications } from "./checkout/ChargeNotifications.ts"
export { getSubscription, listSubscriptions } from "./subscriptions/ReadSubscriptions.ts"
export { archiveSubscription, cancelSubscription } from "./subscriptions/CancelSubscription.ts"
export { addItem, changeItem, previewPlanChange, removeItem } from "./subscriptions/PlanChanges.ts"
export { editSubscription, providerProrata, updateSubscription } from "./subscriptions/UpdateSubscription.ts"
export { decideSandboxRecurrence } from "./subscriptions/PixAutomatico.ts"
export { retrySubscriptionPayment } from "./subscriptions/ManualRetry.ts"
export { approveHeldCycle } from "./subscriptions/HeldCycles.ts"
export { ClaimLease, CycleGrowthLimit } from "./subscriptions/BillingRunSettings.ts"
export {
  endDunning,
  endPeriods,
  issueDueCycles,
  markOverdueCycles,
  resumeStalledCards,
  retryDueCycles,
  runBillingJobs
} from "./subscriptions/BillingRun.ts"
export { advanceClock, getTestClock } from "./sandbox/TestClocks.ts"
export { getInfraction, openInfraction, releaseInfraction, returnInfraction } from "./sandbox/Med.ts"
export { getDispute, loseDispute, openDispute, winDispute } from "./sandbox/Disputes.ts"
export { getProposal, submitProposal } from "./onboarding/Proposals.ts"
export { onboardProposals } from "./onboarding/Onboarding.ts"
export { advanceProposalNow, documentsCopyState, receiveDocuments } from "./sandbox/Onboarding.ts"
export { findAccountByDocument, listSubAccounts } from "./onboarding/SubAccounts.ts"
export { shiftedClock, withAccountClock } from "./sandbox/AccountClock.ts"
export { asAccount } from "./auth/AsAccount.ts"
export { readChangelog } from "./changelog/Changelog.ts"
