/** `/v1/wallet`: the sandbox payment simulation. */
import { ChargeNotPayable, NotSandboxAccount } from "@billing/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { enveloped } from "../ErrorEnvelope.ts"
import { chargeErrors } from "./Charges.ts"
import { authenticated, ChargeIdParam, requires } from "./Common.ts"

export class WalletGroup extends HttpApiGroup.make("wallet")
  .add(
    HttpApiEndpoint.post("pay", "/pay/:chargeId", {
      params: ChargeIdParam,
      success: Schema.Struct({ chargeId: Schema.String, status: Schema.Literal("PROCESSING"), message: Schema.String }),
      error: [...chargeErrors, enveloped(NotSandboxAccount), enveloped(ChargeNotPayable)]
    })
      .annotateMerge(requires("wallet/write"))
      .annotate(OpenApi.Summary, "Pay a charge in the sandbox")
  )
  .pipe(authenticated({ prefix: "/v1/wallet", title: "Wallet", description: "Sandbox payment simulation" }))
{}
