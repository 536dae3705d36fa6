/**
 * Every text of the hosted checkout page, in one place. Brazilian
 * Portuguese is the only language today; another is one more object of
 * the `PageTexts` shape (the compiler lists what it lacks), chosen by
 * `textsFor` from the request when there is a reason to.
 *
 * The names tests and assistive technology rely on are here too (issue 31's
 * contract): the method choices "Pix", "Boleto", "Cartão de crédito"; the
 * card fields; the button "Pagar"; "QR Code Pix" (and "QR Code Pix
 * Automático" for the composite code); "Pix copia e cola"; "Pagamento
 * confirmado".
 */
import type { HostedCharge, PaymentMethodInput } from "@billing/core"

/** Where the payer's bank stands on a Pix Automático recurrence. */
export type RecurrenceAuthorization = NonNullable<HostedCharge["pixAutomatico"]>["authorization"]

/** A field of the page's form, by the API's name for it, so the API's errors land next to it. */
export type FieldName =
  | "customer.name"
  | "customer.email"
  | "customer.documentNumber"
  | "customer.phone"
  | "customer.address.zipCode"
  | "customer.address.street"
  | "customer.address.number"
  | "customer.address.complement"
  | "customer.address.neighborhood"
  | "customer.address.city"
  | "customer.address.state"
  | "card.number"
  | "card.name"
  | "card.expiration"
  | "card.cvv"
  | "installments"
  | "couponCode"

export type RecurrenceType = "DAILY" | "WEEKLY" | "MONTHLY" | "QUARTERLY" | "SEMIANNUAL" | "YEARLY"

export interface PageTexts {
  /** The `lang` of the document. */
  readonly lang: string
  readonly locale: string
  readonly siteTitle: (merchant: string) => string
  readonly soldBy: string
  readonly summary: string
  /** A line of a charge that names nothing else. */
  readonly chargeLine: string
  readonly quantity: (n: number) => string
  readonly total: string
  readonly recurrence: (type: RecurrenceType, interval: number) => string
  readonly trial: (days: number) => string
  readonly buyerHeading: string
  readonly prefilledNote: string
  readonly addressHeading: string
  readonly addressNote: string
  readonly methodHeading: string
  readonly methods: Readonly<Record<PaymentMethodInput, string>>
  readonly fields: Readonly<Record<FieldName, string>>
  readonly hints: Partial<Readonly<Record<FieldName, string>>>
  readonly cardNeedsScript: string
  readonly pay: string
  readonly paying: string
  readonly copy: string
  readonly copied: string
  readonly errorsHeading: string
  readonly refused: (reason: string) => string
  readonly declineReasons: Readonly<Record<string, string>>
  readonly tokenizeFailed: string
  readonly networkFailed: string
  readonly pixHeading: string
  readonly pixQrAlt: string
  readonly pixCode: string
  readonly pixSteps: string
  readonly pixDeadline: (when: string) => string
  readonly pixAutomaticoHeading: string
  readonly pixAutomaticoQrAlt: string
  readonly pixAutomaticoSteps: string
  readonly authorizationHeading: string
  readonly authorization: Readonly<Record<RecurrenceAuthorization, string>>
  readonly boletoHeading: string
  readonly boletoLine: string
  readonly boletoDue: (date: string) => string
  readonly boletoPdf: string
  readonly waiting: string
  readonly paid: string
  readonly paidDetail: (amount: string) => string
  readonly trialStarted: string
  /** One option of the installments' select: `amounts` already in reais. */
  readonly installmentOption: (n: number, total: string, surcharge: string | null) => string
  readonly bumpsHeading: string
  readonly bumpPrice: (amount: string) => string
  readonly applyCoupon: string
  readonly couponApplied: (discount: string) => string
  readonly couponRefused: Readonly<Record<string, string>>
  readonly couponUnavailable: string
  readonly discount: string
  readonly cancel: string
  readonly confirmation: {
    readonly amount: string
    readonly method: string
    readonly date: string
    readonly paymentTypes: Readonly<Record<HostedCharge["paymentType"], string>>
    readonly cardInstallments: (n: number) => string
    readonly redirecting: string
    readonly backToShop: string
  }
  readonly gone: Readonly<Record<"paid" | "inactive" | "expired", { readonly title: string; readonly detail: string }>>
  readonly notFound: { readonly title: string; readonly detail: string }
  readonly tooMany: { readonly title: string; readonly detail: (seconds: number) => string }
  readonly failure: { readonly title: string; readonly detail: string }
}

const periods: Record<RecurrenceType, readonly [one: string, many: string]> = {
  DAILY: ["dia", "dias"],
  WEEKLY: ["semana", "semanas"],
  MONTHLY: ["mês", "meses"],
  QUARTERLY: ["trimestre", "trimestres"],
  SEMIANNUAL: ["semestre", "semestres"],
  YEARLY: ["ano", "anos"]
}

export const ptBR: PageTexts = {
  lang: "pt-BR",
  locale: "pt-BR",
  siteTitle: (merchant) => (merchant === "" ? "Pagamento" : `Pagamento a ${merchant}`),
  soldBy: "Vendido por",
  summary: "Resumo da compra",
  chargeLine: "Cobrança",
  quantity: (n) => `Quantidade: ${n}`,
  total: "Total",
  recurrence: (type, interval) => (interval === 1 ? `por ${periods[type][0]}` : `a cada ${interval} ${periods[type][1]}`),
  trial: (days) => (days === 1 ? "1 dia grátis" : `${days} dias grátis`),
  buyerHeading: "Seus dados",
  prefilledNote: "Dados informados pela loja.",
  addressHeading: "Endereço",
  addressNote: "Obrigatório para pagar com boleto.",
  methodHeading: "Forma de pagamento",
  methods: { pix: "Pix", boleto: "Boleto", creditcard: "Cartão de crédito", pix_automatico: "Pix Automático" },
  fields: {
    "customer.name": "Nome completo",
    "customer.email": "E-mail",
    "customer.documentNumber": "CPF ou CNPJ",
    "customer.phone": "Celular (opcional)",
    "customer.address.zipCode": "CEP",
    "customer.address.street": "Rua",
    "customer.address.number": "Número",
    "customer.address.complement": "Complemento (opcional)",
    "customer.address.neighborhood": "Bairro",
    "customer.address.city": "Cidade",
    "customer.address.state": "UF",
    "card.number": "Número do cartão",
    "card.name": "Nome impresso no cartão",
    "card.expiration": "Validade (MM/AA)",
    "card.cvv": "CVV",
    installments: "Parcelas",
    couponCode: "Cupom de desconto (opcional)"
  },
  hints: {
    "customer.documentNumber": "Somente números, 11 (CPF) ou 14 (CNPJ) dígitos.",
    "customer.phone": "Com DDD, por exemplo +55 11 98765-4321."
  },
  cardNeedsScript: "Para pagar com cartão, ative o JavaScript do navegador: o número do cartão é enviado só para a tokenização.",
  pay: "Pagar",
  paying: "Processando…",
  copy: "Copiar",
  copied: "Copiado",
  errorsHeading: "Confira os campos indicados.",
  refused: (reason) => `Pagamento recusado: ${reason}. Confira os dados ou use outro cartão e tente de novo.`,
  declineReasons: {
    card_declined: "o cartão foi recusado pelo emissor",
    insufficient_funds: "saldo ou limite insuficiente",
    expired_card: "o cartão está vencido",
    invalid_cvv: "o CVV não confere",
    fraud_suspected: "o emissor suspeitou de fraude"
  },
  tokenizeFailed: "Não foi possível validar o cartão.",
  networkFailed: "Não foi possível falar com o servidor. Verifique sua conexão e tente de novo.",
  pixHeading: "Pague com Pix",
  pixQrAlt: "QR Code Pix",
  pixCode: "Pix copia e cola",
  pixSteps: "Abra o app do seu banco, escolha Pix e leia o QR Code ou cole o código abaixo.",
  pixDeadline: (when) => `Pague até ${when}.`,
  pixAutomaticoHeading: "Pague com Pix Automático",
  pixAutomaticoQrAlt: "QR Code Pix Automático",
  pixAutomaticoSteps:
    "Abra o app do seu banco e leia o QR Code ou cole o código abaixo. Com ele você paga esta primeira cobrança e autoriza o Pix Automático das próximas, que o seu banco paga nas datas combinadas.",
  authorizationHeading: "Autorização do Pix Automático",
  authorization: {
    PENDING: "Aguardando a resposta do seu banco sobre o Pix Automático.",
    AUTHORIZED: "Seu banco autorizou o Pix Automático: as próximas cobranças serão pagas automaticamente.",
    REJECTED: "Seu banco recusou o Pix Automático: as próximas cobranças não serão pagas automaticamente. Fale com a loja para combinar outra forma de pagamento."
  },
  boletoHeading: "Pague com boleto",
  boletoLine: "Linha digitável",
  boletoDue: (date) => `Vencimento: ${date}.`,
  boletoPdf: "Baixar o boleto (PDF)",
  waiting: "Aguardando o pagamento.",
  paid: "Pagamento confirmado",
  paidDetail: (amount) => `Recebemos ${amount}. Obrigado!`,
  trialStarted: "Assinatura iniciada: o período grátis já começou.",
  installmentOption: (n, total, surcharge) =>
    n === 1 ? `À vista · ${total}` : surcharge === null ? `${n}x sem juros · total ${total}` : `${n}x · total ${total} (inclui ${surcharge} de juros)`,
  bumpsHeading: "Aproveite também",
  bumpPrice: (amount) => `+ ${amount}`,
  applyCoupon: "Aplicar cupom",
  couponApplied: (discount) => `Cupom aplicado: desconto de ${discount}.`,
  couponRefused: {
    COUPON_NOT_FOUND: "Cupom não encontrado.",
    COUPON_INACTIVE: "Este cupom não está ativo.",
    COUPON_NOT_STARTED: "Este cupom ainda não começou a valer.",
    COUPON_EXPIRED: "Este cupom expirou.",
    COUPON_EXHAUSTED: "Este cupom já foi usado o máximo de vezes.",
    COUPON_NOT_APPLICABLE: "Este cupom não vale para esta compra.",
    PRODUCT_NOT_ELIGIBLE: "Este cupom não vale para estes produtos.",
    MIN_AMOUNT_NOT_MET: "A compra não atinge o valor mínimo do cupom.",
    COUPON_ALREADY_USED: "Você já usou este cupom."
  },
  couponUnavailable: "Não foi possível validar o cupom agora; ele será conferido no pagamento.",
  discount: "Desconto",
  cancel: "Cancelar e voltar à loja",
  confirmation: {
    amount: "Valor",
    method: "Forma de pagamento",
    date: "Data",
    paymentTypes: { PIX: "Pix", BOLETO: "Boleto", CREDIT_CARD: "Cartão de crédito" },
    cardInstallments: (n) => (n === 1 ? "Cartão de crédito à vista" : `Cartão de crédito em ${n}x`),
    redirecting: "Você será levado de volta à loja em instantes.",
    backToShop: "Voltar para a loja"
  },
  gone: {
    paid: { title: "Este pagamento já foi feito", detail: "Este link de pagamento já foi usado e não aceita outro pagamento." },
    inactive: { title: "Link indisponível", detail: "Este link de pagamento foi desativado pela loja. Fale com ela para receber um novo." },
    expired: { title: "Cobrança encerrada", detail: "Esta cobrança expirou ou foi cancelada. Fale com a loja para receber uma nova." }
  },
  notFound: { title: "Página não encontrada", detail: "Não encontramos este link de pagamento. Confira o endereço recebido." },
  tooMany: { title: "Muitas tentativas", detail: (seconds) => `Recebemos muitas solicitações deste endereço. Tente de novo em ${seconds} segundos.` },
  failure: { title: "Algo deu errado", detail: "Não foi possível carregar esta página agora. Tente de novo em instantes." }
}

/** The texts of a request; Portuguese until another language exists. */
export const textsFor = (_acceptLanguage: string | undefined): PageTexts => ptBR
