/**
 * What a sub-account proposal still lacks, named as the client sends it, and
 * the age rules of its people (spec: Sub-account proposal).
 */
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { BirthDate, ProposalForm } from "../../src/domain/Proposal.ts"
import { isAdult, isPlausibleBirth, pendingFields } from "../../src/rules/ProposalFields.ts"

const form = Schema.decodeUnknownSync(ProposalForm)
const birth = Schema.decodeUnknownSync(BirthDate)

const address = { postalCode: "01310-100", street: "Av. Paulista", number: "1000", neighborhood: "Bela Vista", city: "São Paulo", state: "SP" }
const person = {
  fullName: "Maria Silva",
  motherName: "Ana Silva",
  birthDate: "15-06-1990",
  phoneNumber: "+5511987654321",
  email: "maria@example.com",
  isPoliticallyExposedPerson: false,
  address,
  financialDetails: { declaredIncome: "A1", occupation: "B2", netWorth: "C3" }
}
const owner = {
  documentNumber: "52998224725",
  fullName: "João Souza",
  phoneNumber: "+5511912345678",
  email: "joao@example.com",
  motherName: "Rita Souza",
  birthDate: "01-02-1980",
  isPoliticallyExposedPerson: true,
  address,
  financialOwnerDetails: { ownerDeclaredIncome: "A2" }
}
const company = {
  businessName: "Loja Exemplo Ltda",
  businessEmail: "contato@example.com",
  contactNumber: "+551130000000",
  companyType: "ME",
  businessAddress: address,
  owner: [owner]
}

describe("pending fields of a PF form", () => {
  it("names every field an empty form lacks, in the form's order", () => {
    expect(pendingFields("PF", form({}))).toEqual([
      "fullName", "motherName", "birthDate", "phoneNumber", "email", "isPoliticallyExposedPerson",
      "address.postalCode", "address.street", "address.number", "address.neighborhood", "address.city", "address.state",
      "financialDetails.declaredIncome", "financialDetails.occupation", "financialDetails.netWorth"
    ])
  })

  it("has none for a complete form; a politically exposed person's answer false counts as sent", () => {
    expect(pendingFields("PF", form(person))).toEqual([])
  })

  it("counts a blank text as not sent, as the provider's clients send \"\" for what they lack", () => {
    expect(pendingFields("PF", form({ ...person, fullName: "  ", address: { ...address, street: "" } }))).toEqual(["fullName", "address.street"])
  })
})

describe("pending fields of a PJ form", () => {
  it("names the company's fields, its address's, and the partners when there are none", () => {
    const expected = [
      "businessName", "businessEmail", "contactNumber", "companyType",
      "businessAddress.postalCode", "businessAddress.street", "businessAddress.number", "businessAddress.neighborhood", "businessAddress.city", "businessAddress.state",
      "owner"
    ]
    expect(pendingFields("PJ", form({}))).toEqual(expected)
    expect(pendingFields("PJ", form({ owner: [] }))).toEqual(expected)
  })

  it("has none for a complete company, and does not ask a company for a person's fields", () => {
    expect(pendingFields("PJ", form(company))).toEqual([])
  })

  it("names each partner's missing fields by its place in the list", () => {
    expect(pendingFields("PJ", form({ ...company, owner: [owner, {}] }))).toEqual([
      "owner[1].documentNumber", "owner[1].fullName", "owner[1].phoneNumber", "owner[1].email", "owner[1].motherName", "owner[1].birthDate",
      "owner[1].isPoliticallyExposedPerson",
      "owner[1].address.postalCode", "owner[1].address.street", "owner[1].address.number", "owner[1].address.neighborhood", "owner[1].address.city",
      "owner[1].address.state",
      "owner[1].financialOwnerDetails.ownerDeclaredIncome"
    ])
  })
})

describe("age rules", () => {
  // Noon in São Paulo (UTC−3) on the given day.
  const noon = (iso: string) => Date.parse(`${iso}T15:00:00Z`)

  it("is of age from the 18th birthday on, in São Paulo's calendar", () => {
    expect(isAdult(birth("15-06-2008"), noon("2026-06-14"))).toBe(false)
    expect(isAdult(birth("15-06-2008"), noon("2026-06-15"))).toBe(true)
    // 01:00 UTC on 15 June is still 14 June, 22:00, in São Paulo.
    expect(isAdult(birth("15-06-2008"), Date.parse("2026-06-15T01:00:00Z"))).toBe(false)
    // 19 years old in a month before the birthday's.
    expect(isAdult(birth("15-06-2007"), noon("2026-01-10"))).toBe(true)
    // 17 years old in a month after the birthday's.
    expect(isAdult(birth("15-06-2009"), noon("2026-12-31"))).toBe(false)
  })

  it("makes someone born on 29 February of age on 1 March of a common year", () => {
    expect(isAdult(birth("29-02-2008"), noon("2026-02-28"))).toBe(false)
    expect(isAdult(birth("29-02-2008"), noon("2026-03-01"))).toBe(true)
  })

  it("takes births from 1900 up to today, and no later", () => {
    expect(isPlausibleBirth(birth("01-01-1900"), noon("2026-06-15"))).toBe(true)
    expect(isPlausibleBirth(birth("31-12-1899"), noon("2026-06-15"))).toBe(false)
    expect(isPlausibleBirth(birth("15-06-2026"), noon("2026-06-15"))).toBe(true)
    expect(isPlausibleBirth(birth("16-06-2026"), noon("2026-06-15"))).toBe(false)
  })
})
