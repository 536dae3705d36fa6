export { deliveryPass, WorkerLive, type WorkerOptions } from "./Worker.ts"
