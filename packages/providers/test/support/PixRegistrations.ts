/** Charges as the engine asks a Pix provider to register them, for the adapter's tests. */
import { Account, AccountId, cents, type PixRegistration } from "@billing/core"
import { randomBytes } from "node:crypto"
import { MERCHANT_CNPJ } from "./TestCertificates.ts"

/** The production account receiving every charge. */
export const receiver = new Account({
  id: AccountId.make("acc_1"),
  number: "1",
  name: "Loja Exemplo",
  document: MERCHANT_CNPJ,
  personType: "PJ",
  sandbox: false,
  parentId: null,
  pixKey: null,
  city: "São Paulo",
  email: null,
  internal: false,
  createdAt: new Date()
})

/** A txid as the engine makes one: `B` and 24 hex digits. */
export const newEngineTxid = () => `B${randomBytes(12).toString("hex").toUpperCase()}`

/** An immediate charge of R$ 12,34 due within the hour, unless `overrides` say otherwise. */
export const registration = (overrides: Partial<PixRegistration> = {}): PixRegistration => ({
  receiver,
  txid: newEngineTxid(),
  amount: cents(1234),
  expiresAt: new Date(Date.now() + 3_600_000),
  dueDate: null,
  description: null,
  payer: null,
  ...overrides
})
