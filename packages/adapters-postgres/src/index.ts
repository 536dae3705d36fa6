import { Layer } from "effect"
import { AccessTokensStorageLive } from "./AccessTokensStorage.ts"
import { AccountsStorageLive } from "./AccountsStorage.ts"
import { AttemptCountersStorageLive } from "./AttemptCountersStorage.ts"
import { ApiClientsStorageLive } from "./ApiClientsStorage.ts"
import { ChargesStorageLive } from "./ChargesStorage.ts"
import { CheckoutLinksStorageLive } from "./CheckoutLinksStorage.ts"
import { CouponsStorageLive } from "./CouponsStorage.ts"
import { CustomersStorageLive } from "./CustomersStorage.ts"
import { FeeSchedulesStorageLive } from "./FeeSchedulesStorage.ts"
import { LedgerStorageLive } from "./LedgerStorage.ts"
import { NfseConfigsStorageLive } from "./NfseConfigsStorage.ts"
import { NotasStorageLive } from "./NotasStorage.ts"
import { DisputesStorageLive } from "./DisputesStorage.ts"
import { ProposalsStorageLive } from "./ProposalsStorage.ts"
import { MedInfractionsStorageLive } from "./MedInfractionsStorage.ts"
import { PixClaimsStorageLive } from "./PixClaimsStorage.ts"
import { RefundsStorageLive } from "./RefundsStorage.ts"
import { NotificationsStorageLive } from "./NotificationsStorage.ts"
import { OutboxStorageLive } from "./OutboxStorage.ts"
import { PaymentMethodsStorageLive } from "./PaymentMethodsStorage.ts"
import { ProductsStorageLive } from "./ProductsStorage.ts"
import { ReadinessStorageLive } from "./ReadinessStorage.ts"
import { SandboxPaymentsStorageLive } from "./SandboxPaymentsStorage.ts"
import { SandboxPspStorageLive } from "./SandboxPspStorage.ts"
import { SettingsStorageLive } from "./SettingsStorage.ts"
import { SubscriptionsStorageLive } from "./SubscriptionsStorage.ts"
import { TransactorStorageLive } from "./TransactorStorage.ts"
import { WebhookDeliveriesStorageLive } from "./WebhookDeliveriesStorage.ts"
import { WebhooksStorageLive } from "./WebhooksStorage.ts"
import { WithdrawalsStorageLive } from "./WithdrawalsStorage.ts"

export * as Database from "./Database.ts"
export { migrations } from "./migrations/index.ts"

/** The wallet's ports (a group of its own: one `mergeAll` of every port passes what TypeScript infers). */
const WalletStorageLive = Layer.mergeAll(
  LedgerStorageLive,
  WithdrawalsStorageLive,
  RefundsStorageLive,
  MedInfractionsStorageLive,
  DisputesStorageLive,
  SandboxPspStorageLive,
  PixClaimsStorageLive
)

/**
 * Every storage port of the core on the `SqlClient` in context, one module
 * per port. The same statements run on a PostgreSQL server and on PGlite.
 */
export const StorageLive = Layer.mergeAll(
  TransactorStorageLive,
  AccountsStorageLive,
  ApiClientsStorageLive,
  AccessTokensStorageLive,
  AttemptCountersStorageLive,
  SettingsStorageLive,
  WebhooksStorageLive,
  OutboxStorageLive,
  WebhookDeliveriesStorageLive,
  ChargesStorageLive,
  SandboxPaymentsStorageLive,
  FeeSchedulesStorageLive,
  ProductsStorageLive,
  CustomersStorageLive,
  CouponsStorageLive,
  PaymentMethodsStorageLive,
  CheckoutLinksStorageLive,
  NotificationsStorageLive,
  SubscriptionsStorageLive,
  ProposalsStorageLive,
  WalletStorageLive,
  NfseConfigsStorageLive,
  NotasStorageLive,
  ReadinessStorageLive
)
