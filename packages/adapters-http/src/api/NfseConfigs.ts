/** `/v1/invoices/notas/config`: issuer configurations of fiscal invoices (NFS-e). */
import {
  InternalError,
  InvalidData,
  MissingFields,
  NfConfigSyncFailed,
  NfseConfigInput,
  NfseConfigList,
  NfseConfigRemoved,
  NfseConfigView,
  NotaConfigNotFound
} from "@billing/core"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { enveloped } from "../ErrorEnvelope.ts"
import { authenticated, Id, requires } from "./Common.ts"

const ConfigIdParam = { configId: Id }

/** What saving a configuration can refuse; 500 `INTERNAL_ERROR` is the spec's answer to a missing regime field. */
const saveErrors = [
  enveloped(InvalidData),
  enveloped(MissingFields),
  enveloped(NfConfigSyncFailed),
  enveloped(NotaConfigNotFound),
  enveloped(InternalError)
] as const

export class NfseConfigsGroup extends HttpApiGroup.make("nfseConfigs")
  .add(
    HttpApiEndpoint.post("create", "/", {
      payload: NfseConfigInput,
      success: NfseConfigView.pipe(HttpApiSchema.status(201)),
      error: saveErrors
    })
      .annotateMerge(requires("nota.fiscal/write"))
      .annotate(OpenApi.Summary, "Create an issuer configuration (an `id` in the body updates that one)"),
    HttpApiEndpoint.get("list", "/", {
      success: NfseConfigList
    })
      .annotateMerge(requires("nota.fiscal/read"))
      .annotate(OpenApi.Summary, "List the issuer configurations and the account's defaults"),
    HttpApiEndpoint.get("get", "/:configId", {
      params: ConfigIdParam,
      success: NfseConfigView,
      error: enveloped(NotaConfigNotFound)
    })
      .annotateMerge(requires("nota.fiscal/read"))
      .annotate(OpenApi.Summary, "Get an issuer configuration"),
    HttpApiEndpoint.put("update", "/:configId", {
      params: ConfigIdParam,
      payload: NfseConfigInput,
      success: NfseConfigView,
      error: saveErrors
    })
      .annotateMerge(requires("nota.fiscal/write"))
      .annotate(OpenApi.Summary, "Update an issuer configuration (`prefeitura` is merged with what is stored)"),
    HttpApiEndpoint.delete("remove", "/:configId", {
      params: ConfigIdParam,
      success: NfseConfigRemoved,
      error: enveloped(NotaConfigNotFound)
    })
      .annotateMerge(requires("nota.fiscal/write"))
      .annotate(OpenApi.Summary, "Delete an issuer configuration")
  )
  .pipe(authenticated({
    prefix: "/v1/invoices/notas/config",
    title: "Fiscal configurations",
    description: "Issuer configurations of fiscal service invoices (NFS-e): tax fields, the issuer and its A1 certificate"
  }))
{}
