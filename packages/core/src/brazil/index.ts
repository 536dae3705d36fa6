/**
 * Brazilian formats: Pix BR Code and its QR PNG, boleto barcode and line,
 * CPF/CNPJ, phones, CEP, UF, Pix end-to-end ids and the bank calendar.
 * Pure functions, no I/O; parsers return `Result` with tagged errors.
 */
export * from "./BankCalendar.ts"
export * from "./Boleto.ts"
export * from "./CalendarDate.ts"
export * from "./Contacts.ts"
export { crc16, crc16Hex } from "./Crc16.ts"
export * from "./Documents.ts"
export * from "./EndToEndId.ts"
export * from "./PixBrCode.ts"
export * from "./QrCode.ts"
export * from "./QrPng.ts"
export * from "./CityCodes.ts"
export * from "./Cards.ts"
export * from "./BoletoPdf.ts"
