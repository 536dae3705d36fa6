/**
 * The engine as a library: `BillingLive` from `@billing/cli` and
 * `Billing.asAccount`, as `examples/embed.ts` uses them.
 */
import { BillingLive } from "@billing/cli"
import { Billing, cents } from "@billing/core"
import { Effect, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

describe("embedding with BillingLive and Billing.asAccount", () => {
  let runtime: ManagedRuntime.ManagedRuntime<any, any>
  const run = <A, E>(effect: Effect.Effect<A, E, any>) => runtime.runPromise(effect as Effect.Effect<A, E, never>)
  beforeAll(() => {
    runtime = ManagedRuntime.make(BillingLive())
  })
  afterAll(() => runtime.dispose())

  it("acts as an account, as a sub-account, and never across accounts", async () => {
    const master = await run(Billing.createAccount({ name: "Marketplace", document: "11444777000161", sandbox: true }))
    const seller = await run(Billing.createAccount({ name: "Vendedor", document: "52998224725", parentId: master.accountId }))
    const other = await run(Billing.createAccount({ name: "Outra Loja", document: "11222333000181", sandbox: true }))

    const sold = await run(Billing.createPixCharge({ amount: cents(500) }).pipe(Billing.asAccount(seller.accountId)))
    const asSeller = await run(Billing.getCharge(sold.chargeId, "detail").pipe(Billing.asAccount(seller.accountId)))
    expect(asSeller.body).toMatchObject({ chargeId: sold.chargeId, amount: 500, status: "PENDING" })
    // The master sees the charges of its sellers, as with its own token.
    const listed = await run(Billing.listCharges({}).pipe(Billing.asAccount(master.accountId)))
    expect(listed.data.map((charge) => charge.chargeId)).toContain(sold.chargeId)

    const elsewhere = await run(Effect.flip(Billing.getCharge(sold.chargeId, "detail").pipe(Billing.asAccount(other.accountId))))
    expect(elsewhere._tag).toBe("CHARGE_NOT_FOUND")
    const unknown = await run(Effect.flip(Billing.getCharge(sold.chargeId, "detail").pipe(Billing.asAccount("acc_nobody"))))
    expect(unknown._tag).toBe("ACCOUNT_NOT_FOUND")
  })
})
