/**
 * The HTTP contract of the engine: `/auth/token` and the `/v1` surface, one
 * group per file beside this one. Handlers live in `../handlers`; the OpenAPI
 * 3.1 document served at `/v1/openapi.json` is derived from this value.
 */
import { flow } from "effect"
import { HttpApi, OpenApi } from "effect/http-api"
import { AuthGroup } from "./Auth.ts"
import { BoletoPdfGroup } from "./BoletoPdf.ts"
import { ChangelogGroup } from "./Changelog.ts"
import { ChargesGroup } from "./Charges.ts"
import { CheckoutLinksGroup } from "./CheckoutLinks.ts"
import { CheckoutPaymentGroup } from "./CheckoutPayment.ts"
import { CheckoutSessionsGroup } from "./CheckoutSessions.ts"
import { CouponsGroup } from "./Coupons.ts"
import { CouponValidationGroup } from "./CouponValidation.ts"
import { CustomersGroup } from "./Customers.ts"
import { DocumentsCopyGroup } from "./DocumentsCopy.ts"
import { NfseConfigsGroup } from "./NfseConfigs.ts"
import { NotasGroup } from "./Notas.ts"
import { documentAmounts } from "./OpenApiAmounts.ts"
import { API_GUIDE } from "./OpenApiGuide.ts"
import { documentExamples } from "./OpenApiExamples.ts"
import { documentAuthentication } from "./OpenApiSecurity.ts"
import { documentWebhooks } from "./OpenApiWebhooks.ts"
import { PaymentMethodsGroup } from "./PaymentMethods.ts"
import { ProductsGroup } from "./Products.ts"
import { ProposalsGroup } from "./Proposals.ts"
import { SandboxGroup } from "./Sandbox.ts"
import { SubscriptionsGroup } from "./Subscriptions.ts"
import { WalletGroup } from "./Wallet.ts"
import { WebhooksGroup } from "./Webhooks.ts"

export class BillingApi extends HttpApi.make("billing")
  .add(AuthGroup)
  .add(WebhooksGroup)
  .add(ChargesGroup)
  .add(WalletGroup)
  .add(ProductsGroup)
  .add(CustomersGroup)
  .add(CouponsGroup)
  .add(CouponValidationGroup)
  .add(PaymentMethodsGroup)
  .add(BoletoPdfGroup)
  .add(CheckoutLinksGroup)
  .add(CheckoutSessionsGroup)
  .add(SubscriptionsGroup)
  .add(CheckoutPaymentGroup)
  .add(SandboxGroup)
  .add(ProposalsGroup)
  .add(DocumentsCopyGroup)
  .add(ChangelogGroup)
  .add(NfseConfigsGroup)
  .add(NotasGroup)
  .annotateMerge(OpenApi.annotations({
    title: "Billing engine",
    version: "1.0.0",
    description: API_GUIDE,
    // Public routes are served relative to wherever the engine runs.
    servers: [{ url: "/", description: "This server" }],
    // Webhooks before amounts, whose components they share; examples last: they are drawn from the schemas the other transforms wrote.
    transform: flow(documentAuthentication, documentWebhooks, documentAmounts, documentExamples)
  }))
{}
