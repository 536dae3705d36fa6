/**
 * The buyer's address as a charge records it: complete (street, number,
 * neighbourhood, city and state; a boleto and a fiscal note print it), the
 * IBGE city code resolved from the CEP when absent.
 */
import { cityCodeOfCep } from "../brazil/CityCodes.ts"
import type { AddressInput } from "../domain/Customer.ts"
import type { ChargeAddress } from "../domain/Charge.ts"

/** The parts a complete address cannot lack, in the order a refusal names them. */
const REQUIRED_PARTS = ["street", "number", "neighborhood", "city", "state"] as const

/** `address` as a charge records it, or the first part it lacks. */
export const chargeAddressOf = (address: AddressInput): { readonly address: ChargeAddress } | { readonly missing: (typeof REQUIRED_PARTS)[number] } => {
  const missing = REQUIRED_PARTS.find((part) => !address[part]?.trim())
  if (missing !== undefined) return { missing }
  // `zipCode` and `state` arrive decoded (`AddressInput`): 8 digits, an upper-case UF.
  return {
    address: {
      street: address.street!.trim(),
      number: address.number!.trim(),
      complement: address.complement ?? null,
      neighborhood: address.neighborhood!.trim(),
      city: address.city!.trim(),
      state: address.state!,
      zipCode: address.zipCode,
      cityCode: address.cityCode ?? cityCodeOfCep(address.zipCode) ?? null
    }
  }
}

/** `address` as a charge records it, or null when there is none or it is incomplete. */
export const completeAddressOrNull = (address: AddressInput | undefined): ChargeAddress | null => {
  if (address === undefined) return null
  const recorded = chargeAddressOf(address)
  return "address" in recorded ? recorded.address : null
}
