// Independent checkers used only by tests; they ship no type declarations.
declare module "boleto-brasileiro-validator" {
  const validator: {
    boleto: (code: string, strict?: boolean) => boolean
    boletoBancario: (code: string, strict?: boolean) => boolean
  }
  export default validator
}
declare module "pngjs" {
  export const PNG: { sync: { read: (buffer: Buffer) => { width: number; height: number; data: Buffer } } }
}
declare module "qrcode" {
  const QRCode: { toDataURL: (text: string, options?: { errorCorrectionLevel?: "L" | "M" | "Q" | "H" }) => Promise<string> }
  export default QRCode
}
