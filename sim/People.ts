/**
 * The simulated buyers: names, e-mails and CPFs drawn from the seed, and
 * the one address every boleto buyer gives. CPFs carry their real check
 * digits, so the engine's validation takes them as any real one.
 */
import * as Random from "./Random.ts"

/** The CPF of nine base digits: the two check digits appended (mod 11, a remainder of 10 counting as 0). */
export const cpfOf = (base: ReadonlyArray<number>): string => {
  const check = (digits: ReadonlyArray<number>) => {
    const weight = digits.length + 1
    const sum = digits.reduce((total, d, i) => total + d * (weight - i), 0)
    return ((sum * 10) % 11) % 10
  }
  const first = check(base)
  return [...base, first, check([...base, first])].join("")
}

/** A CPF whose base is not one digit repeated (those are refused as invalid). */
const randomCpf = (random: Random.Random) => {
  for (;;) {
    const base = Array.from({ length: 9 }, () => Random.int(random, 0, 9))
    if (new Set(base).size > 1) return cpfOf(base)
  }
}

const FIRST = ["Ana", "Bruno", "Carla", "Diego", "Elisa", "Fábio", "Gabriela", "Hugo", "Isabel", "João"]
const LAST = ["Souza", "Lima", "Pereira", "Costa", "Almeida", "Ribeiro", "Martins", "Rocha"]

export interface Buyer {
  readonly name: string
  readonly email: string
  readonly documentNumber: string
  readonly address: {
    readonly street: string
    readonly number: string
    readonly neighborhood: string
    readonly city: string
    readonly state: string
    readonly zipCode: string
    /** Florianópolis' IBGE code: a fiscal note's DPS names the taker's city by it. */
    readonly cityCode: string
  }
}

/** The `n`th buyer of a run. */
export const buyer = (random: Random.Random, n: number): Buyer => {
  const first = Random.pick(random, FIRST)
  const last = Random.pick(random, LAST)
  return {
    name: `${first} ${last}`,
    email: `cliente${n}@example.com`,
    documentNumber: randomCpf(random),
    address: { street: "Rua das Flores", number: String(n), neighborhood: "Centro", city: "Florianópolis", state: "SC", zipCode: "88010000", cityCode: "4205407" }
  }
}

/** Valid CNPJs of the merchants (check digits as in the engine's own tests); the first is also the operator's, its PSP key. */
export const MERCHANT_DOCUMENTS = ["11444777000161", "11222333000181", "45723174000110", "07526557000100"] as const
