export type * from './types.js';
export { Scheduler, type SchedulerOptions, type PollResult } from './scheduler.js';
export { SCHEDULER_PARTITION } from './job-store.js';
export { ClaimEndedError } from './lease.js';
