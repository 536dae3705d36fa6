/**
 * Shape of a CPF (11 digits) or CNPJ (14 characters, the first 12 may be
 * letters since July 2026). Only the shape: the check digits are verified by
 * the Brazilian formats module once it lands (issue 3), which will replace
 * this function.
 */
export const isValidDocument = (document: string): boolean => /^(\d{11}|[0-9A-Z]{12}\d{2})$/.test(document)
