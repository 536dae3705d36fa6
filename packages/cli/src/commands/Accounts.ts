/** `billing accounts create`: opens an account (or a sub-account) with API credentials. */
import { Billing } from "@billing/core"
import { Console, Effect, Option } from "effect"
import { Command, Flag } from "effect/cli"
import { usageError } from "../CliFailure.ts"
import { configFromEnv, EngineLive } from "../Engine.ts"
import { ProgressToStderr } from "./Shared.ts"

const create = Command.make("create", {
  name: Flag.String("name").pipe(Flag.withMetavar("NAME"), Flag.withDescription("the merchant's name")),
  document: Flag.String("document").pipe(Flag.withMetavar("CPF_OR_CNPJ"), Flag.withDescription("the merchant's CPF or CNPJ, with or without punctuation")),
  sandbox: Flag.Boolean("sandbox").pipe(Flag.withDescription("a sandbox account (SANDBOX_ ids, sandbox providers)"), Flag.withDefault(false)),
  scopes: Flag.String("scopes").pipe(
    Flag.withMetavar("S1,S2"),
    Flag.withDescription("scopes its credentials may ask for (default: all)"),
    Flag.optional
  ),
  parent: Flag.String("parent").pipe(Flag.withMetavar("ACCOUNT_ID"), Flag.withDescription("open a sub-account of this master account"), Flag.optional),
  email: Flag.String("email").pipe(Flag.withMetavar("EMAIL"), Flag.withDescription("where new.sale notices go"), Flag.optional),
  internal: Flag.Boolean("internal").pipe(
    Flag.withDescription("the operator's own account, not a merchant's: may use Pix Automático whatever its document"),
    Flag.withDefault(false)
  )
}, Effect.fn("Cli.accountsCreate")(function*(input) {
  const created = yield* Billing.createAccount({
    name: input.name,
    document: input.document,
    sandbox: input.sandbox,
    scopes: Option.getOrUndefined(Option.map(input.scopes, (s) => s.split(",").map((scope) => scope.trim()).filter((scope) => scope.length > 0))),
    parentId: Option.getOrUndefined(input.parent),
    email: Option.getOrUndefined(input.email),
    internal: input.internal
  }).pipe(
    // The engine refused what was typed (a bad document, an unknown scope): a usage error.
    Effect.mapError((error) => usageError(`${error._tag}: ${error.message}`))
  )
  yield* Console.log(JSON.stringify(created, null, 2))
}, Effect.provide(EngineLive(configFromEnv(process.env, { holder: "billing accounts create" }))), Effect.provide(ProgressToStderr))).pipe(
  Command.withDescription("Open an account (or a sub-account of --parent) and print { accountId, accountNumber, clientId, clientSecret } as JSON"),
  Command.withExamples([
    { command: "billing accounts create --name \"Minha Loja\" --document 11.444.777/0001-61 --sandbox", description: "a sandbox master account" },
    { command: "billing accounts create --name \"Operação\" --document 111.444.777-35 --internal", description: "an internal account of the operator" }
  ])
)

/** `billing accounts <create>`. */
export const accounts = Command.make("accounts").pipe(
  Command.withDescription("Manage accounts"),
  Command.withSubcommands([create])
)
