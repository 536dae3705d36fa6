export { type ClaimableJob, drain, forkJobs, runJob } from "./ClaimableJob.ts"
export { DEFAULT_DISPATCHER, type DispatcherOptions, runDispatcher } from "./Dispatcher.ts"
export {
  chargesPass,
  deliveryPass,
  dispatcherOptions,
  type JobName,
  type JobOptions,
  workerJob,
  workerJobs,
  WorkerLive,
  type WorkerOptions
} from "./Worker.ts"
