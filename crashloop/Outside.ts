/**
 * What the crash loop's processes talk to, living in the loop's own process
 * so that it outlives every kill: the fake PSP of the BCB API Pix (Efí's
 * profile, whose send-Pix route pays withdrawals out), the fake Mercado
 * Pago, the fake Sefin Nacional, and the merchant's webhook receiver; and
 * the providers file naming the three fakes, written with the test PKI's certificate to a folder of its
 * own, as an operator writes theirs. The fakes are the provider issues' own
 * (`packages/providers/test/support`), holding every request to the
 * provider's contract.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { FAKE_ACCESS_TOKEN, FAKE_PUBLIC_KEY, startFakeMercadoPago } from "../packages/providers/test/support/FakeMercadoPago.ts"
import { startFakePsp } from "../packages/providers/test/support/FakePsp.ts"
import { startFakeSefin } from "../packages/providers/test/support/FakeSefin.ts"
import { makeTestPki, MERCHANT_CNPJ } from "../packages/providers/test/support/TestCertificates.ts"
import { startReceiver } from "../test/support/Receiver.ts"

/** The PSP's name in the providers file: its callbacks arrive at `/psp/pix/fake-efi/…`. */
export const PSP_NAME = "fake-efi"

const PSP_SECRET_ENV = "CRASH_LOOP_PSP_SECRET"
const MERCADOPAGO_TOKEN_ENV = "CRASH_LOOP_MERCADOPAGO_TOKEN"

/** The fakes, the receiver and the providers file; `env` is what each process needs to read the file. */
export const startOutside = async (publicUrl: string) => {
  const pki = makeTestPki()
  const psp = await startFakePsp(pki, { profile: "efi", pixKey: MERCHANT_CNPJ })
  const mercadoPago = await startFakeMercadoPago()
  const sefin = await startFakeSefin(pki)
  const receiver = await startReceiver()
  const folder = mkdtempSync(join(tmpdir(), "billing-crash-loop-"))
  writeFileSync(join(folder, "client.crt"), pki.client.certPem)
  writeFileSync(join(folder, "client.key"), pki.client.keyPem)
  writeFileSync(join(folder, "ca.pem"), pki.caPem)
  const providersFile = join(folder, "providers.json")
  writeFileSync(providersFile, JSON.stringify({
    publicUrl,
    pix: [{
      name: PSP_NAME,
      profile: "efi",
      baseUrl: psp.baseUrl,
      tokenUrl: psp.tokenUrl,
      clientId: "client-1",
      clientSecret: { env: PSP_SECRET_ENV },
      pixKey: MERCHANT_CNPJ,
      tls: { cert: "client.crt", key: "client.key", ca: "ca.pem" }
    }],
    card: { provider: "mercadopago", accessToken: { env: MERCADOPAGO_TOKEN_ENV }, publicKey: FAKE_PUBLIC_KEY, baseUrl: mercadoPago.baseUrl },
    nfse: {
      provider: "nacional",
      ambiente: "producao-restrita",
      baseUrl: sefin.baseUrl,
      danfseUrl: sefin.danfseUrl,
      parametersUrl: sefin.parametersUrl,
      ca: "ca.pem"
    }
  }))
  return {
    pki,
    psp,
    mercadoPago,
    sefin,
    receiver,
    env: { BILLING_PROVIDERS_FILE: providersFile, [PSP_SECRET_ENV]: "secret-1", [MERCADOPAGO_TOKEN_ENV]: FAKE_ACCESS_TOKEN },
    /** The PSP settles what it had in processing: sends paid out, as a PSP does once the SPI answers. */
    settleSends: () => {
      for (const sent of psp.book.sent.values()) if (sent.status === "EM_PROCESSAMENTO") sent.status = "REALIZADO"
    },
    close: async () => {
      await Promise.all([psp.close(), mercadoPago.close(), sefin.close(), receiver.close()])
      rmSync(folder, { recursive: true, force: true })
    }
  }
}

export type Outside = Awaited<ReturnType<typeof startOutside>>
