/** `/v1/sandbox`: a sandbox account's test clock. */
import { AdvanceClockInput, AdvanceClockResult, InvalidData, NotSandboxAccount, TestClockView } from "@billing/core"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { enveloped } from "../ErrorEnvelope.ts"
import { authenticated, requires } from "./Common.ts"

export class SandboxGroup extends HttpApiGroup.make("sandbox")
  .add(
    HttpApiEndpoint.get("clock", "/clock", {
      success: TestClockView,
      error: enveloped(NotSandboxAccount)
    })
      .annotateMerge(requires("wallet/read"))
      .annotate(OpenApi.Summary, "Read the account's test clock"),
    HttpApiEndpoint.post("advanceClock", "/clock/advance", {
      payload: AdvanceClockInput,
      success: AdvanceClockResult,
      error: [enveloped(InvalidData), enveloped(NotSandboxAccount)]
    })
      .annotateMerge(requires("wallet/write"))
      .annotate(OpenApi.Summary, "Advance the account's test clock, running every job due on the way")
  )
  .pipe(authenticated({ prefix: "/v1/sandbox", title: "Sandbox", description: "Test clocks of sandbox accounts" }))
{}
