/**
 * Removes accents and keeps the characters a BR Code merchant name or city
 * may carry (letters, digits, space and a few marks), as the BCB manual
 * recommends for interoperability between bank apps.
 */
export const toBrCodeText = (text: string): string =>
  text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9 .,\-&/]/g, "")
    .replace(/\s+/g, " ")
    .trim()
