/**
 * How the OpenAPI document describes amounts. On the wire every amount is a
 * JSON number of reais with at most two decimals, but Effect derives the JSON
 * Schema from the encoded side of the core's codecs: `Reais` (requests)
 * decodes a number or a numeric string, rendered as `anyOf` with "NaN", and
 * `ReaisJson` (responses) encodes to an opaque value, rendered as `{}`. Both
 * carry an identifier, so each is one component that this transform describes
 * as what clients send and receive.
 */

type Json = { readonly [key: string]: any }

const Amounts: Json = {
  // Component of `Reais`: numeric strings are accepted too, for lenient
  // clients, but the contract is a number.
  AmountEncoded: {
    type: "number",
    multipleOf: 0.01,
    minimum: 0.01,
    description: "Amount in reais: a number with at most two decimals, at least 0.01 (10.5, 10.50).",
    examples: [10.5]
  },
  // Component of `ReaisJson`: always printed with two decimals. No
  // `multipleOf`: validators checking it in binary floating point refuse
  // amounts such as 0.07, and a response is never refused.
  AmountJsonEncoded: {
    type: "number",
    description: "Amount in reais, printed with two decimals (10.00).",
    examples: [10]
  }
}

/** The OpenAPI transform of the API that describes the amount components as numbers. */
export const documentAmounts = (spec: Json): Json => ({
  ...spec,
  components: {
    ...spec.components,
    schemas: {
      ...spec.components.schemas,
      ...Object.fromEntries(
        Object.keys(spec.components.schemas).flatMap((name) => {
          // Effect numbers a component `_1`, `_2` when it derives more than one from one identifier.
          const amount = Amounts[name.replace(/_\d+$/, "")]
          return amount === undefined ? [] : [[name, amount]]
        })
      )
    }
  }
})
