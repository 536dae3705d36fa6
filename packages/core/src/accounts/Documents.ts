// Placeholder removed once brazil/ lands: see isValidDocument below.
export const isValidDocument = (document: string): boolean => /^(\d{11}|[0-9A-Z]{12}\d{2})$/.test(document)
