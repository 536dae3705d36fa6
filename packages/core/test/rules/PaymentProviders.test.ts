/**
 * Which provider each payment method's money moves through, written by
 * hand from the spec's payment methods: Pix and Pix Automático through the
 * PSP, cards through the acquirer, boletos through the bank; the city and
 * the mailer move no payment method's money.
 */
import { describe, expect, it } from "vitest"
import { methodsOf, providerOf, ProviderKind } from "../../src/rules/PaymentProviders.ts"

describe("payment providers", () => {
  it("sends each payment method through its provider", () => {
    expect(providerOf("pix")).toBe("pix")
    expect(providerOf("pix_automatico")).toBe("pix")
    expect(providerOf("creditcard")).toBe("card")
    expect(providerOf("boleto")).toBe("boleto")
  })

  it("lists the methods of each provider, in the spec's order, and none for the city and the mailer", () => {
    expect(methodsOf("pix")).toEqual(["pix", "pix_automatico"])
    expect(methodsOf("card")).toEqual(["creditcard"])
    expect(methodsOf("boleto")).toEqual(["boleto"])
    expect(methodsOf("nfse")).toEqual([])
    expect(methodsOf("mail")).toEqual([])
  })

  it("knows the five outside services a production account needs", () => {
    expect([...ProviderKind.literals].sort()).toEqual(["boleto", "card", "mail", "nfse", "pix"])
  })
})
