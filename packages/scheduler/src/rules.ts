import { createHash } from 'node:crypto';
import type { JobPayload, JobRecord } from './types.js';

/** Why a stored job can or cannot be claimed at `now` (the claim's conditional update re-checks it atomically). */
export type ClaimDecision = 'claim' | 'not-due' | 'leased' | 'finished';

/** Whether an instance may claim `job` at `now`: pending, due, and no live lease or retry wait. */
export function claimDecision(
  job: Pick<JobRecord, 'state' | 'dueAt' | 'leaseUntil'>,
  now: Date,
): ClaimDecision {
  if (job.state !== 'pending') return 'finished';
  const at = now.toISOString();
  if (job.dueAt > at) return 'not-due';
  if (job.leaseUntil !== null && job.leaseUntil > at) return 'leased';
  return 'claim';
}

/**
 * How long to sleep before the next poll: at once after a full batch (more may be due), else until the earliest
 * claimable job, never longer than `pollMs` (another instance may schedule sooner) nor shorter than `minMs`.
 */
export function nextPollDelay(input: {
  now: Date;
  fullBatch: boolean;
  earliest: string | null;
  pollMs: number;
  minMs?: number;
}): number {
  if (input.fullBatch) return 0;
  if (input.earliest === null) return input.pollMs;
  const wait = Date.parse(input.earliest) - input.now.getTime();
  return Math.min(input.pollMs, Math.max(input.minMs ?? 0, wait));
}

/** The wait before retry `attempt` + 1 after a failure: doubling from `baseMs`, at most `maxMs`. */
export function retryDelay(attempt: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
}

/** What `schedule` does to the stored job (null: none yet). */
export type ScheduleChange = 'insert' | 'unchanged' | 'rearm';

/**
 * Same due time and payload: nothing changes (done stays done, a running claim keeps running). Otherwise the job
 * becomes pending again under a new version, whatever its state (a moved booking's reminder is a new effect).
 */
export function scheduleChange(
  existing: Pick<JobRecord, 'dueAt' | 'payload' | 'state'> | null,
  dueAt: string,
  payload: JobPayload,
): ScheduleChange {
  if (!existing) return 'insert';
  const same = existing.dueAt === dueAt && canonicalJson(existing.payload) === canonicalJson(payload);
  return same && existing.state !== 'cancelled' ? 'unchanged' : 'rearm';
}

/** A job's record id: `<tenant>/<key>`. */
export function jobId(tenant: string, key: string): string {
  return `${tenant}/${key}`;
}

/**
 * The effect id of (job id, due time), UUID-shaped (RFC 9562 version 8, from SHA-256): the same for every
 * attempt, so an event id or a Message-ID derived from it lets receivers drop a repeat.
 */
export function effectIdOf(id: string, dueAt: string): string {
  const hex = createHash('sha256').update(`${id}\n${dueAt}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** JSON with object keys sorted, so two payloads compare by content, not key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}
