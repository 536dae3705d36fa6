/**
 * What a complete proposal needs (spec: Sub-account proposal; the real
 * provider's examples): the fields a PF or PJ form must have before it goes
 * to analysis, named as the client sends them (`address.postalCode`,
 * `owner[0].birthDate`), and the age rules of the people in it.
 */
import { saoPauloDate } from "../brazil/BankCalendar.ts"
import { type BirthDate, isoBirthDate, type ProposalAddress, type ProposalForm, type ProposalOwner } from "../domain/Proposal.ts"

const ADDRESS_FIELDS = ["postalCode", "street", "number", "neighborhood", "city", "state"] as const

/** A value counts as sent when present and, for text, not blank (the provider's clients send `""` for what they lack). */
const sent = (value: unknown): boolean => value !== undefined && !(typeof value === "string" && value.trim() === "")

const missingOf = (prefix: string, record: Readonly<Record<string, unknown>> | undefined, fields: ReadonlyArray<string>) =>
  fields.filter((field) => !sent(record?.[field])).map((field) => `${prefix}${field}`)

const addressMissing = (prefix: string, address: ProposalAddress | undefined) => missingOf(`${prefix}.`, address, ADDRESS_FIELDS)

const ownerMissing = (owner: ProposalOwner, i: number) => {
  const prefix = `owner[${i}].`
  return [
    ...missingOf(prefix, owner, ["documentNumber", "fullName", "phoneNumber", "email", "motherName", "birthDate", "isPoliticallyExposedPerson"]),
    ...addressMissing(`${prefix}address`, owner.address),
    ...missingOf(`${prefix}financialOwnerDetails.`, owner.financialOwnerDetails, ["ownerDeclaredIncome"])
  ]
}

/** The fields a `type` form still lacks; empty when it is complete. */
export const pendingFields = (type: "PF" | "PJ", form: ProposalForm): ReadonlyArray<string> =>
  type === "PF"
    ? [
      ...missingOf("", form, ["fullName", "motherName", "birthDate", "phoneNumber", "email", "isPoliticallyExposedPerson"]),
      ...addressMissing("address", form.address),
      ...missingOf("financialDetails.", form.financialDetails, ["declaredIncome", "occupation", "netWorth"])
    ]
    : [
      ...missingOf("", form, ["businessName", "businessEmail", "contactNumber", "companyType"]),
      ...addressMissing("businessAddress", form.businessAddress),
      ...(form.owner === undefined || form.owner.length === 0 ? ["owner"] : form.owner.flatMap(ownerMissing))
    ]

/** Age of majority in Brazil (Código Civil, art. 5). */
export const ADULT_AGE = 18

/** Whether someone born on `birthDate` is of age on the São Paulo day of `nowMillis` (born on 29 February: of age on 1 March). */
export const isAdult = (birthDate: BirthDate, nowMillis: number): boolean => {
  const [year, monthDay] = [Number(birthDate.slice(6)), isoBirthDate(birthDate).slice(5)]
  const today = saoPauloDate(nowMillis)
  const [thisYear, thisMonthDay] = [Number(today.slice(0, 4)), today.slice(5)]
  return thisYear - year > ADULT_AGE || (thisYear - year === ADULT_AGE && thisMonthDay >= monthDay)
}

/** Whether `birthDate` is a plausible birth: not in the future, not before 1900. */
export const isPlausibleBirth = (birthDate: BirthDate, nowMillis: number): boolean =>
  Number(birthDate.slice(6)) >= 1900 && isoBirthDate(birthDate) <= saoPauloDate(nowMillis)
