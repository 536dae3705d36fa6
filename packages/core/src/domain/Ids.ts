/**
 * Every entity's id: a string branded with the entity's name, so the type
 * checker refuses a charge id where a subscription id is expected, and the
 * prefix the ids port writes in front of it (`cha_…`, `SANDBOX_cha_…`).
 *
 * An id is made in one of two ways only: by the `Ids` port from its kind
 * (`ids.make(ChargeIds, { sandbox })`), or by decoding through its schema what
 * storage reads and clients send. Nothing casts a string to one.
 */
import { Schema } from "effect"

/**
 * What the ids port needs to make an entity's id: the prefix it starts with
 * and the schema whose constructor brands it.
 */
export interface IdKind<A extends string> {
  readonly prefix: string
  readonly schema: Schema.Codec<A, string> & { readonly make: (raw: string) => A }
}

const kind = <A extends string>(prefix: string, schema: IdKind<A>["schema"]): IdKind<A> => ({ prefix, schema })

/** An account (`acc_…`); the public handle is its `number`. */
export const AccountId = Schema.String.pipe(Schema.brand("AccountId"))
export type AccountId = typeof AccountId.Type
export const AccountIds = kind("acc", AccountId)

export const ChargeId = Schema.String.pipe(Schema.brand("ChargeId"))
export type ChargeId = typeof ChargeId.Type
export const ChargeIds = kind("cha", ChargeId)

export const SubscriptionId = Schema.String.pipe(Schema.brand("SubscriptionId"))
export type SubscriptionId = typeof SubscriptionId.Type
export const SubscriptionIds = kind("sub", SubscriptionId)

/** An item of a subscription (a price it bills). */
export const SubscriptionItemId = Schema.String.pipe(Schema.brand("SubscriptionItemId"))
export type SubscriptionItemId = typeof SubscriptionItemId.Type
export const SubscriptionItemIds = kind("item", SubscriptionItemId)

/** A subscription's invoice: what one cycle (or a plan change) bills. */
export const InvoiceId = Schema.String.pipe(Schema.brand("InvoiceId"))
export type InvoiceId = typeof InvoiceId.Type
export const InvoiceIds = kind("inv", InvoiceId)

/**
 * A nota fiscal (NFS-e). Its ids have always been made with `inv`, the
 * invoice's prefix: ids already handed to clients keep their form, and the
 * brand, not the prefix, is what keeps the two apart.
 */
export const NotaId = Schema.String.pipe(Schema.brand("NotaId"))
export type NotaId = typeof NotaId.Type
export const NotaIds = kind("inv", NotaId)

/** An account's NFS-e configuration (`nfc_…`). */
export const NfseConfigId = Schema.String.pipe(Schema.brand("NfseConfigId"))
export type NfseConfigId = typeof NfseConfigId.Type
export const NfseConfigIds = kind("nfc", NfseConfigId)

export const CustomerId = Schema.String.pipe(Schema.brand("CustomerId"))
export type CustomerId = typeof CustomerId.Type
export const CustomerIds = kind("cus", CustomerId)

export const RefundId = Schema.String.pipe(Schema.brand("RefundId"))
export type RefundId = typeof RefundId.Type
export const RefundIds = kind("ref", RefundId)

export const ProductId = Schema.String.pipe(Schema.brand("ProductId"))
export type ProductId = typeof ProductId.Type
export const ProductIds = kind("prod", ProductId)

export const PriceId = Schema.String.pipe(Schema.brand("PriceId"))
export type PriceId = typeof PriceId.Type
export const PriceIds = kind("price", PriceId)

export const CouponId = Schema.String.pipe(Schema.brand("CouponId"))
export type CouponId = typeof CouponId.Type
export const CouponIds = kind("coup", CouponId)

/** A card kept on file. */
export const PaymentMethodId = Schema.String.pipe(Schema.brand("PaymentMethodId"))
export type PaymentMethodId = typeof PaymentMethodId.Type
export const PaymentMethodIds = kind("pm", PaymentMethodId)

/** A merchant's webhook endpoint (`uwh_…`). */
export const WebhookId = Schema.String.pipe(Schema.brand("WebhookId"))
export type WebhookId = typeof WebhookId.Type
export const WebhookIds = kind("uwh", WebhookId)

/** One delivery of an event to a webhook (`whe_…`). */
export const WebhookDeliveryId = Schema.String.pipe(Schema.brand("WebhookDeliveryId"))
export type WebhookDeliveryId = typeof WebhookDeliveryId.Type
export const WebhookDeliveryIds = kind("whe", WebhookDeliveryId)

export const DisputeId = Schema.String.pipe(Schema.brand("DisputeId"))
export type DisputeId = typeof DisputeId.Type
export const DisputeIds = kind("dis", DisputeId)

/** A MED infraction (a Pix payer's claim of fraud). */
export const MedInfractionId = Schema.String.pipe(Schema.brand("MedInfractionId"))
export type MedInfractionId = typeof MedInfractionId.Type
export const MedInfractionIds = kind("med", MedInfractionId)

/** A Pix key claim (portability or ownership). */
export const PixClaimId = Schema.String.pipe(Schema.brand("PixClaimId"))
export type PixClaimId = typeof PixClaimId.Type
export const PixClaimIds = kind("clm", PixClaimId)

/** A checkout link (`pl_…`, a payment link). */
export const CheckoutLinkId = Schema.String.pipe(Schema.brand("CheckoutLinkId"))
export type CheckoutLinkId = typeof CheckoutLinkId.Type
export const CheckoutLinkIds = kind("pl", CheckoutLinkId)

export const CheckoutSessionId = Schema.String.pipe(Schema.brand("CheckoutSessionId"))
export type CheckoutSessionId = typeof CheckoutSessionId.Type
export const CheckoutSessionIds = kind("cs", CheckoutSessionId)

/** The cart a subscription was bought with, shared by its first charge. */
export const CartId = Schema.String.pipe(Schema.brand("CartId"))
export type CartId = typeof CartId.Type
export const CartIds = kind("cart", CartId)

/** A withdrawal to the account's bank (`wdr_…`) or a transfer to another account (`trf_…`). */
export const WithdrawalId = Schema.String.pipe(Schema.brand("WithdrawalId"))
export type WithdrawalId = typeof WithdrawalId.Type
export const WithdrawalIds = kind("wdr", WithdrawalId)
export const TransferIds = kind("trf", WithdrawalId)

/** A debt of an account to the platform (`sdb_…`): a split reversal it could not pay, an opening fee. */
export const DebtId = Schema.String.pipe(Schema.brand("DebtId"))
export type DebtId = typeof DebtId.Type
export const DebtIds = kind("sdb", DebtId)

/** The ledger reference of a payment of debts (`dsp_…`). */
export const DebtPaymentId = Schema.String.pipe(Schema.brand("DebtPaymentId"))
export type DebtPaymentId = typeof DebtPaymentId.Type
export const DebtPaymentIds = kind("dsp", DebtPaymentId)

/** A ledger entry (`jrn_…`). */
export const JournalEntryId = Schema.String.pipe(Schema.brand("JournalEntryId"))
export type JournalEntryId = typeof JournalEntryId.Type
export const JournalEntryIds = kind("jrn", JournalEntryId)

/** One line of a ledger entry (`txn_…`). */
export const LedgerLineId = Schema.String.pipe(Schema.brand("LedgerLineId"))
export type LedgerLineId = typeof LedgerLineId.Type
export const LedgerLineIds = kind("txn", LedgerLineId)

/** What a receiver of a charge is to be paid (`rcv_…`). */
export const ReceivableId = Schema.String.pipe(Schema.brand("ReceivableId"))
export type ReceivableId = typeof ReceivableId.Type
export const ReceivableIds = kind("rcv", ReceivableId)

/** An HTTP request, when the client sent no id of its own. */
export const RequestId = Schema.String.pipe(Schema.brand("RequestId"))
export type RequestId = typeof RequestId.Type
export const RequestIds = kind("req", RequestId)
