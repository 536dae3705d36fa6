export { type ClaimableJob, drain, forkJobs, runJob } from "./ClaimableJob.ts"
export {
  chargesPass,
  deliveryPass,
  type JobName,
  type JobOptions,
  workerJob,
  workerJobs,
  WorkerLive,
  type WorkerOptions
} from "./Worker.ts"
