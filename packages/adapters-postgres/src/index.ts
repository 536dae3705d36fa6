export * as Database from "./Database.ts"
export { StorageLive } from "./Storage.ts"
export { migrations } from "./migrations/index.ts"
