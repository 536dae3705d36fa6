export * from "./Allocation.ts"
export * from "./Money.ts"
export * from "./Rounding.ts"
