import { Layer } from "effect"
import { ChargesStorageLive } from "./ChargesStorage.ts"
import { CheckoutLinksStorageLive } from "./CheckoutLinksStorage.ts"
import { CouponsStorageLive } from "./CouponsStorage.ts"
import { CustomersStorageLive } from "./CustomersStorage.ts"
import { NotificationsStorageLive } from "./NotificationsStorage.ts"
import { PaymentMethodsStorageLive } from "./PaymentMethodsStorage.ts"
import { ProductsStorageLive } from "./ProductsStorage.ts"
import { FoundationStorageLive } from "./Storage.ts"

export * as Database from "./Database.ts"
export { migrations } from "./migrations/index.ts"

/** Every Storage service of the core, built on the `SqlClient` in context. */
export const StorageLive = Layer.mergeAll(FoundationStorageLive, ChargesStorageLive, ProductsStorageLive, CustomersStorageLive, CouponsStorageLive, PaymentMethodsStorageLive, CheckoutLinksStorageLive, NotificationsStorageLive)
