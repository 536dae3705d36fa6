/**
 * Branded ids: the ids port makes each entity's id with the prefix clients
 * have always seen (`SANDBOX_` in front in the sandbox), its schema takes
 * back what the port made, and the type checker refuses one entity's id
 * where another's is expected (the `@ts-expect-error` lines fail the
 * project's `tsc` run if they ever compile).
 */
import { Effect, Schema } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect, it } from "vitest"
import {
  AccountIds,
  CartIds,
  ChargeId,
  ChargeIds,
  CheckoutLinkIds,
  CheckoutSessionIds,
  CouponIds,
  CustomerIds,
  DebtIds,
  DebtPaymentIds,
  DisputeIds,
  type IdKind,
  InvoiceIds,
  JournalEntryIds,
  LedgerLineIds,
  MedInfractionIds,
  NfseConfigIds,
  NotaIds,
  PaymentMethodIds,
  PixClaimIds,
  PriceIds,
  ProductIds,
  ReceivableIds,
  RefundIds,
  RequestIds,
  SubscriptionId,
  SubscriptionIds,
  SubscriptionItemIds,
  TransferIds,
  WebhookDeliveryIds,
  WebhookIds,
  WithdrawalIds
} from "../../src/domain/Ids.ts"
import { Ids } from "../../src/ports/Ids.ts"
import type { Subscriptions } from "../../src/ports/Subscriptions.ts"

/** The prefixes ids were made with before they were branded (`ids.make("cha")` and so on): what clients hold. */
const prefixes: ReadonlyArray<readonly [IdKind<string>, string]> = [
  [AccountIds, "acc"],
  [ChargeIds, "cha"],
  [SubscriptionIds, "sub"],
  [SubscriptionItemIds, "item"],
  [InvoiceIds, "inv"],
  [NotaIds, "inv"],
  [NfseConfigIds, "nfc"],
  [CustomerIds, "cus"],
  [RefundIds, "ref"],
  [ProductIds, "prod"],
  [PriceIds, "price"],
  [CouponIds, "coup"],
  [PaymentMethodIds, "pm"],
  [WebhookIds, "uwh"],
  [WebhookDeliveryIds, "whe"],
  [DisputeIds, "dis"],
  [MedInfractionIds, "med"],
  [PixClaimIds, "clm"],
  [CheckoutLinkIds, "pl"],
  [CheckoutSessionIds, "cs"],
  [CartIds, "cart"],
  [WithdrawalIds, "wdr"],
  [TransferIds, "trf"],
  [DebtIds, "sdb"],
  [DebtPaymentIds, "dsp"],
  [JournalEntryIds, "jrn"],
  [LedgerLineIds, "txn"],
  [ReceivableIds, "rcv"],
  [RequestIds, "req"]
]

const run = <A>(effect: Effect.Effect<A, never, Ids>) =>
  effect.pipe(Effect.provide(Ids.layer), Effect.provide(TestClock.layer()), Effect.runPromise)

describe("branded ids", () => {
  it("are made by the port with each entity's own prefix, and SANDBOX_ in front for a sandbox account", () =>
    run(Effect.gen(function*() {
      const ids = yield* Ids
      for (const [kind, prefix] of prefixes) {
        expect(yield* ids.make(kind)).toMatch(new RegExp(`^${prefix}_[0-9a-z]{21}$`))
        expect(yield* ids.make(kind, { sandbox: true })).toMatch(new RegExp(`^SANDBOX_${prefix}_[0-9a-z]{21}$`))
      }
    })))

  it("are taken back by their schema unchanged, as storage and HTTP decode them", () =>
    run(Effect.gen(function*() {
      const ids = yield* Ids
      const charge = yield* ids.make(ChargeIds, { sandbox: true })
      expect(Schema.decodeUnknownSync(ChargeId)(charge)).toBe(charge)
      expect(Schema.is(ChargeId)(charge)).toBe(true)
      // The brand is the type checker's alone: any string decodes, so an unknown id still answers the resource's 404.
      expect(Schema.decodeUnknownSync(SubscriptionId)("sub_unknown")).toBe("sub_unknown")
      expect(() => Schema.decodeUnknownSync(ChargeId)(42)).toThrow()
    })))

  it("keep a charge id out of where a subscription id is expected", () =>
    run(Effect.gen(function*() {
      const ids = yield* Ids
      const charge = yield* ids.make(ChargeIds)
      const subscription = yield* ids.make(SubscriptionIds)
      const locked: Array<string> = []
      const lock: Subscriptions["Service"]["lock"] = (id) => Effect.sync(() => void locked.push(id))
      yield* lock(subscription)
      // @ts-expect-error a ChargeId is not a SubscriptionId
      yield* lock(charge)
      // @ts-expect-error nor is a plain string: ids come from the port or from decoding
      yield* lock("sub_1")
      // The checks are the compiler's: at run time an id is the string it always was.
      expect(locked).toEqual([subscription, charge, "sub_1"])
    })))
})
