/** Every handler group of `BillingApi`, assembled with the middleware they need. */
import { Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { BillingApi } from "../api/Api.ts"
import { AuthenticationLive, InvalidInputLive, InvalidTokenRequestLive } from "../Middleware.ts"
import { AuthHandlers } from "./Auth.ts"
import { BoletoPdfHandlers } from "./BoletoPdf.ts"
import { ChangelogHandlers } from "./Changelog.ts"
import { ChargesHandlers } from "./Charges.ts"
import { CheckoutLinksHandlers } from "./CheckoutLinks.ts"
import { CheckoutPaymentHandlers } from "./CheckoutPayment.ts"
import { CheckoutSessionsHandlers } from "./CheckoutSessions.ts"
import { CouponsHandlers } from "./Coupons.ts"
import { AlwaysVerdictLive, CouponValidationHandlers } from "./CouponValidation.ts"
import { CustomersHandlers } from "./Customers.ts"
import { DocumentsCopyHandlers } from "./DocumentsCopy.ts"
import { NfseConfigsHandlers } from "./NfseConfigs.ts"
import { NotasHandlers } from "./Notas.ts"
import { PaymentMethodsHandlers } from "./PaymentMethods.ts"
import { ProductsHandlers } from "./Products.ts"
import { ProposalsHandlers } from "./Proposals.ts"
import { SandboxHandlers } from "./Sandbox.ts"
import { SubscriptionsHandlers } from "./Subscriptions.ts"
import { WalletHandlers } from "./Wallet.ts"
import { WebhooksHandlers } from "./Webhooks.ts"

/** Every route of the API with its middleware, needing only the engine's services. */
export const ApiLive = HttpApiBuilder.layer(BillingApi, { openapiPath: "/v1/openapi.json" }).pipe(
  Layer.provide([
    AuthHandlers,
    WebhooksHandlers,
    ChargesHandlers,
    WalletHandlers,
    ProductsHandlers,
    CustomersHandlers,
    CouponsHandlers,
    CouponValidationHandlers,
    PaymentMethodsHandlers,
    BoletoPdfHandlers,
    CheckoutLinksHandlers,
    CheckoutSessionsHandlers,
    SubscriptionsHandlers,
    CheckoutPaymentHandlers,
    SandboxHandlers,
    ProposalsHandlers,
    DocumentsCopyHandlers,
    ChangelogHandlers,
    NfseConfigsHandlers,
    NotasHandlers
  ]),
  Layer.provide([AuthenticationLive, InvalidInputLive, InvalidTokenRequestLive, AlwaysVerdictLive])
)
