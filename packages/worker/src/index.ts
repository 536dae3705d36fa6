export { chargesPass, deliveryPass, WorkerLive, type WorkerOptions } from "./Worker.ts"
