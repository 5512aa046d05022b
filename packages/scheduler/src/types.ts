import type { TenantId } from '@coperto/auth';
import type { OutboxMessage } from '@coperto/store';

/** JSON a job carries to its handler (what to do; the handler reads the rest from the store). */
export type JobPayload = Record<string, unknown>;

/**
 * - `pending`: waits for its due time (or a retry), or runs under a claim (`owner`, `leaseUntil`);
 * - `done`: the handler finished (`outcome` says whether it acted or found nothing to do);
 * - `cancelled`: dropped by `cancel` before it was done;
 * - `failed`: the handler failed `maxAttempts` times (`lastError`).
 */
export type JobState = 'pending' | 'done' | 'cancelled' | 'failed';

/**
 * One line of a job's history. Every claim adds `claimed`, then one of the others when its owner lives to record
 * it: `done`, `skipped`, `error` (retried later), or `lost` (the handler returned but the job was no longer this
 * claim's to finish: cancelled, rescheduled, or retaken after the lease ran out). A `claimed` line with no line
 * of its own after it is a claim whose owner died (or lost the store) before recording anything.
 */
export interface JobHistoryEntry {
  event: 'claimed' | 'done' | 'skipped' | 'error' | 'lost';
  claimId: string;
  owner: string;
  /** The job version the claim ran (a reschedule makes a new version). */
  version: number;
  at: string;
  /** `error`: the message; `skipped`: the reason. */
  detail?: string;
}

/** A job as stored (one record per key, in the scheduler's partition of the store, never a tenant's). */
export interface JobRecord {
  /** `<tenant>/<key>`: tenant ids hold no `/`, so two tenants' keys never meet. */
  id: string;
  tenant: string;
  key: string;
  dueAt: string;
  payload: JobPayload;
  state: JobState;
  /** +1 on every schedule that changes the due time or payload: a claim completes only its own version. */
  version: number;
  /** The running claim (null when none). */
  owner: string | null;
  claimId: string | null;
  /** While a claim runs: when it may be taken over. After a failure: when the retry may start. */
  leaseUntil: string | null;
  attempts: number;
  lastError: string | null;
  outcome: 'done' | 'skipped' | null;
  /** Why the handler skipped (e.g. `booking_started`), or null. */
  reason: string | null;
  doneAt: string | null;
  /** At most 2 lines per attempt of each version (bounded by `maxAttempts`). */
  history: JobHistoryEntry[];
  createdAt: string;
  updatedAt: string;
}

/** What a handler receives: the job as claimed, with the id its effects must carry. */
export interface DueJob {
  tenantId: TenantId;
  key: string;
  dueAt: string;
  payload: JobPayload;
  version: number;
  /**
   * Deterministic per (job key, due time): the same on every attempt and every instance, different after a
   * reschedule to another time. Effects carry it (event id, email Message-ID) so receivers drop repeats.
   */
  effectId: string;
  /** 1 on the first attempt. */
  attempt: number;
  /**
   * Aborted (reason: a `ClaimEndedError`) when the claim ends while the handler runs: the job was cancelled,
   * rescheduled or retaken, or the handler ran `maxRunMs`. Check it just before an effect's point of no return.
   */
  signal: AbortSignal;
}

/** What a handler reports. Events are stored with the job's `done` mark, in the same atomic write (outbox). */
export type JobResult =
  { outcome: 'done'; events?: readonly OutboxMessage[] } | { outcome: 'skipped'; reason: string };

/**
 * Runs one due job. Contract (README, "Done once in effect"): do the effect with `job.effectId` as its id, then
 * return; the scheduler marks the job done after the return (with the returned events, atomically). Throwing
 * retries the job later (the same `effectId`). Bound every I/O well below the scheduler's `leaseMs`.
 */
export type JobHandler = (job: DueJob) => Promise<JobResult>;

export interface ScheduleRequest {
  tenantId: TenantId;
  key: string;
  dueAt: Date | string;
  payload?: JobPayload;
}
