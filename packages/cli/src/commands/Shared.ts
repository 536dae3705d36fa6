/** What the commands share: progress lines, integers from the environment. */
import { Database } from "@billing/adapters-postgres"
import { Billing } from "@billing/core"
import { loadProvidersFile, type ProvidersConfig, type ProvidersFileInvalid } from "@billing/providers"
import { Console, Effect, Layer } from "effect"
import { usageError } from "../CliFailure.ts"

/** Progress of slow steps on stderr, so that stdout stays what scripts parse (the JSON of `accounts create`). */
export const ProgressToStderr = Layer.succeed(Database.Progress)((line: string) => Console.error(line))

/** An integer setting from the environment, or `fallback` when unset. */
export const intFromEnv = (name: string, fallback: number, valid: (n: number) => boolean, what: string) =>
  Effect.suspend(() => {
    const raw = process.env[name]
    if (raw === undefined || raw === "") return Effect.succeed(fallback)
    const value = Number(raw)
    return Number.isInteger(value) && valid(value) ? Effect.succeed(value) : Effect.fail(usageError(`invalid ${what} ${raw} in ${name}`))
  })

/**
 * The worker's claim lease (`BILLING_CLAIM_LEASE_SECONDS`, 1 to 3600, one
 * minute by default): how soon the rows of a stopped worker return to the others.
 */
export const ClaimLeaseFromEnv = Layer.effect(
  Billing.ClaimLease,
  Effect.map(intFromEnv("BILLING_CLAIM_LEASE_SECONDS", 60, (n) => n >= 1 && n <= 3600, "claim lease"), (seconds) => seconds * 1000)
)

/**
 * The providers file of `BILLING_PROVIDERS_FILE`, loaded and checked (a bad
 * one stops the command in one line); undefined when the variable is not
 * set (the sandbox alone: production accounts are refused).
 */
export const providersFromEnv: Effect.Effect<ProvidersConfig | undefined, ProvidersFileInvalid> = Effect.suspend(() => {
  const file = process.env.BILLING_PROVIDERS_FILE
  return file === undefined || file === "" ? Effect.succeed(undefined) : loadProvidersFile(file)
})
