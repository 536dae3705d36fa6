/**
 * The engine as a library inside another Node service: open an account, then
 * create and read a Pix charge as that account. Nothing to set up: with no
 * `databaseUrl` or `dataDir` it runs on an in-memory PGlite.
 *
 *   bash scripts/node.sh node examples/embed.ts
 */
import { BillingLive } from "@billing/cli"
import { Billing, cents, Money } from "@billing/core"
import { Effect } from "effect"

const program = Effect.gen(function*() {
  const shop = yield* Billing.createAccount({ name: "Minha Loja", document: "11444777000161", sandbox: true })
  const asShop = Billing.asAccount(shop.accountId)
  const created = yield* Billing.createPixCharge({ amount: cents(1990) }).pipe(asShop)
  const { body: charge } = yield* Billing.getCharge(created.chargeId, "detail").pipe(asShop)
  console.log(`account ${shop.accountNumber}: charge ${charge.chargeId} of R$ ${Money.toDecimalString(charge.amount)} is ${charge.status}`)
  console.log(`pix copy-and-paste: ${created.emv}`)
})

Effect.runPromise(program.pipe(Effect.provide(BillingLive())))
