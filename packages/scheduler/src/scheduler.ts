import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { sleep } from '@coperto/async';
import { trustedTenantId, type TenantId } from '@coperto/auth';
import type { DocumentStore } from '@coperto/store';
import { JobStore } from './job-store.js';
import { keepLease } from './lease.js';
import { claimDecision, effectIdOf, nextPollDelay, retryDelay } from './rules.js';
import type { JobHandler, JobHistoryEntry, JobRecord, JobResult, ScheduleRequest } from './types.js';

export interface SchedulerOptions {
  store: DocumentStore;
  /** The collection of this scheduler's jobs (one per capability, e.g. `promemoria_jobs`). */
  collection: string;
  handler: JobHandler;
  now?: () => Date;
  /** This instance's name in claims and history. Default `<host>:<pid>:<random>`. */
  owner?: string;
  /** How long a claim keeps other instances off a job: a killed owner's job is retaken after it. Default 60 s. */
  leaseMs?: number;
  /** How often a running claim renews its lease (a live owner keeps its job however long it runs). Default leaseMs / 3. */
  renewMs?: number;
  /** The longest a handler keeps its lease: then renewals stop and its signal is aborted. Default 5 × leaseMs. */
  maxRunMs?: number;
  /** Jobs claimed per poll (they run concurrently). Default 20. */
  batchSize?: number;
  /** The longest sleep between polls. Default 5 s. */
  pollMs?: number;
  /** Attempts before a job is `failed`. Default 10. */
  maxAttempts?: number;
  /** First retry wait, doubling up to `retryMaxMs`. Defaults 5 s and 15 min. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** Told of a failed poll or handler (the loop never stops on one). */
  onError?: (error: unknown, job?: JobRecord) => void;
}

/** What one poll did. */
export interface PollResult {
  claimed: number;
  done: number;
  skipped: number;
  failed: number;
  /** Claims whose job was cancelled, rescheduled or retaken before they could record their end. */
  lost: number;
}

/**
 * A durable scheduler of keyed jobs (README): jobs live in the store, any number of instances poll them, each
 * due job is claimed by one instance under a lease and marked done after its handler returned.
 */
export class Scheduler {
  readonly owner: string;
  private readonly jobs: JobStore;
  private readonly now: () => Date;
  private readonly leaseMs: number;
  private readonly renewMs: number;
  private readonly maxRunMs: number;
  private readonly batchSize: number;
  private readonly pollMs: number;
  private readonly maxAttempts: number;
  private readonly retryBaseMs: number;
  private readonly retryMaxMs: number;
  private claims = 0;
  private loop: Promise<void> | null = null;
  private wake: AbortController | null = null;
  private running = false;
  private kicked = false;

  constructor(private readonly options: SchedulerOptions) {
    this.jobs = new JobStore(options.store, options.collection);
    this.now = options.now ?? (() => new Date());
    this.owner = options.owner ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
    this.leaseMs = options.leaseMs ?? 60_000;
    this.renewMs = options.renewMs ?? Math.max(1, Math.floor(this.leaseMs / 3));
    this.maxRunMs = options.maxRunMs ?? 5 * this.leaseMs;
    this.batchSize = options.batchSize ?? 20;
    this.pollMs = options.pollMs ?? 5_000;
    this.maxAttempts = options.maxAttempts ?? 10;
    this.retryBaseMs = options.retryBaseMs ?? 5_000;
    this.retryMaxMs = options.retryMaxMs ?? 15 * 60_000;
  }

  /** Creates the collection's indexes (idempotent). */
  init(): Promise<void> {
    return this.jobs.ensureIndexes();
  }

  /**
   * Schedules the job `key` of the tenant at `dueAt` (idempotent: the same time and payload change nothing, a
   * done job stays done). Another time or payload re-arms it as a new version, whatever its state.
   */
  async schedule(request: ScheduleRequest): Promise<JobRecord> {
    const dueAt = new Date(request.dueAt);
    if (Number.isNaN(dueAt.getTime())) throw new TypeError(`Invalid due time: ${String(request.dueAt)}`);
    const job = await this.jobs.upsert(
      request.tenantId,
      request.key,
      dueAt.toISOString(),
      request.payload ?? {},
      this.now().toISOString(),
    );
    if (job.state === 'pending' && job.dueAt <= new Date(this.now().getTime() + this.pollMs).toISOString())
      this.kick();
    return job;
  }

  /** Drops a pending job (true), or leaves a done, cancelled or failed one as it is (false). */
  cancel(tenantId: TenantId, key: string): Promise<boolean> {
    return this.jobs.cancel(tenantId, key, this.now().toISOString());
  }

  get(tenantId: TenantId, key: string): Promise<JobRecord | null> {
    return this.jobs.get(tenantId, key);
  }

  /** The tenant's jobs of these keys that exist, in no order (one store query whatever the number). */
  getMany(tenantId: TenantId, keys: readonly string[]): Promise<JobRecord[]> {
    return this.jobs.getMany(tenantId, keys);
  }

  /** The tenant's jobs whose key starts with `prefix` (at most 1000), by key. */
  list(tenantId: TenantId, prefix: string): Promise<JobRecord[]> {
    return this.jobs.list(tenantId, prefix);
  }

  /** Claims up to `batchSize` due jobs and runs them; resolves when each has been recorded. */
  async poll(): Promise<PollResult> {
    const now = this.now();
    const candidates = await this.jobs.claimable(now.toISOString(), this.batchSize);
    const claimed: JobRecord[] = [];
    for (const candidate of candidates) {
      if (claimDecision(candidate, now) !== 'claim') continue;
      const entry = this.entry('claimed', candidate.version, this.nextClaimId(), now);
      const leaseUntil = new Date(now.getTime() + this.leaseMs).toISOString();
      const job = await this.jobs.claim(candidate, entry, leaseUntil);
      if (job) claimed.push(job);
    }
    const result: PollResult = { claimed: claimed.length, done: 0, skipped: 0, failed: 0, lost: 0 };
    const ends = await Promise.all(claimed.map((job) => this.run(job)));
    for (const end of ends) result[end]++;
    return result;
  }

  /** Polls in the background: at once (catch-up of overdue jobs), then as `nextPollDelay` says. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.runLoop();
  }

  /** Stops polling; resolves once the jobs in hand are recorded. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.abort();
    await this.loop;
    this.loop = null;
  }

  /** Polls now instead of at the next wake-up (no effect when not started). */
  kick(): void {
    this.kicked = true;
    this.wake?.abort();
  }

  private async runLoop(): Promise<void> {
    while (this.running) {
      let delay = this.pollMs;
      this.kicked = false;
      try {
        const result = await this.poll();
        const earliest = await this.jobs.earliestDue(this.now().toISOString());
        delay = nextPollDelay({
          now: this.now(),
          fullBatch: result.claimed >= this.batchSize,
          earliest,
          pollMs: this.pollMs,
          minMs: 10,
        });
      } catch (error) {
        this.options.onError?.(error);
      }
      if (!this.running) break;
      if (this.kicked) continue;
      this.wake = new AbortController();
      await sleep(delay, this.wake.signal);
    }
  }

  /** Runs the handler for a claimed job and records its end. */
  private async run(job: JobRecord): Promise<'done' | 'skipped' | 'failed' | 'lost'> {
    let result: JobResult;
    const lease = keepLease({
      renew: async (leaseUntil) => (await this.jobs.renew(job, leaseUntil)) !== null,
      now: this.now,
      leaseMs: this.leaseMs,
      renewMs: this.renewMs,
      maxRunMs: this.maxRunMs,
      leaseUntil: job.leaseUntil!,
      onError: (error) => this.options.onError?.(error, job),
    });
    try {
      result = await this.options.handler({
        tenantId: trustedTenantId(job.tenant),
        key: job.key,
        dueAt: job.dueAt,
        payload: job.payload,
        version: job.version,
        effectId: effectIdOf(job.id, job.dueAt),
        attempt: job.attempts,
        signal: lease.signal,
      });
    } catch (error) {
      await lease.stop();
      this.options.onError?.(error, job);
      return this.recordFailure(job, error);
    }
    await lease.stop();
    const reason = result.outcome === 'skipped' ? result.reason : null;
    const entry = this.entry(result.outcome, job.version, job.claimId!, this.now(), reason ?? undefined);
    const events = result.outcome === 'done' ? (result.events ?? []) : [];
    const finished = await this.jobs.finish(job, entry, { outcome: result.outcome, reason }, events);
    if (finished) return result.outcome;
    await this.jobs.recordLost(job, this.entry('lost', job.version, job.claimId!, this.now()));
    return 'lost';
  }

  private async recordFailure(job: JobRecord, error: unknown): Promise<'failed' | 'lost'> {
    const now = this.now();
    const message = error instanceof Error ? error.message : String(error);
    const entry = this.entry('error', job.version, job.claimId!, now, message.slice(0, 500));
    const retryAt = new Date(now.getTime() + retryDelay(job.attempts, this.retryBaseMs, this.retryMaxMs));
    const final = job.attempts >= this.maxAttempts;
    const released = await this.jobs.fail(job, entry, retryAt.toISOString(), final);
    if (released) return 'failed';
    await this.jobs.recordLost(job, this.entry('lost', job.version, job.claimId!, now));
    return 'lost';
  }

  private entry(
    event: JobHistoryEntry['event'],
    version: number,
    claimId: string,
    at: Date,
    detail?: string,
  ): JobHistoryEntry {
    return {
      event,
      claimId,
      owner: this.owner,
      version,
      at: at.toISOString(),
      ...(detail === undefined ? {} : { detail }),
    };
  }

  private nextClaimId(): string {
    return `${this.owner}#${++this.claims}`;
  }
}
