import type { TenantId } from '@coperto/auth';
import { Scheduler, type DueJob, type JobResult } from '@coperto/scheduler';
import type { DocumentStore } from '@coperto/store';
import { RapportiStore } from './rapporti-store.js';
import { MAX_REPORT_DAYS } from './services.js';

/** The scheduler's collection of pruning runs (one job per tenant and day, `potatura/<YYYY-MM-DD>`). */
export const PRUNING_JOBS_COLLECTION = 'rapporti_potature';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * How long a booking's facts are kept after its start: two of a report's longest ranges (MAX_REPORT_DAYS), so
 * that the last twelve months can always be compared with the twelve before them (docs/reports.md, "Bounds").
 */
export const BOOKING_FACTS_DAYS = 2 * MAX_REPORT_DAYS;

/** Bookings that started before this instant are let go (bookings still to come never are). */
export function bookingFactsCutoff(now: Date): Date {
  return new Date(now.getTime() - BOOKING_FACTS_DAYS * DAY_MS);
}

/** The day's run of a tenant: key `potatura/<YYYY-MM-DD>` (UTC), due at that day's start (UTC midnight). */
export function pruningJob(at: Date): { key: string; dueAt: Date } {
  const day = at.toISOString().slice(0, 10);
  return { key: `potatura/${day}`, dueAt: new Date(`${day}T00:00:00.000Z`) };
}

/**
 * The most tenants one process remembers having scheduled today (`PruningScheduler.ensureToday`); beyond it the
 * first remembered goes (its next booking event of the day schedules again: the same job, one more write).
 */
export const PRUNING_TENANTS_KEPT = 10_000;

export interface PruningDeps {
  store: DocumentStore;
  now: () => Date;
  /** The bound of the tenants remembered as scheduled today (default PRUNING_TENANTS_KEPT). */
  maxTenants?: number;
}

/**
 * The daily pruning of `rapporti_prenotazioni` (a worker of the hosting process, on `@coperto/scheduler` as ospiti's
 * retention): each tenant's run deletes the facts of bookings that started more than BOOKING_FACTS_DAYS ago and
 * schedules the next day's. A tenant's chain starts with the first booking event a process keeps for it each day
 * (`ensureToday`): the job's time is the day's start, so starting it again is the same job (the scheduler's keyed
 * upsert changes nothing), whichever replica asks. Runs are idempotent.
 */
export class PruningScheduler {
  readonly scheduler: Scheduler;
  /** The tenants this process already scheduled today (cleared when the day changes; oldest first, bounded). */
  private readonly scheduled = new Set<string>();
  private scheduledDay = '';
  private evictions = 0;
  private readonly maxTenants: number;

  constructor(private readonly deps: PruningDeps) {
    this.maxTenants = deps.maxTenants ?? PRUNING_TENANTS_KEPT;
    this.scheduler = new Scheduler({
      store: deps.store,
      collection: PRUNING_JOBS_COLLECTION,
      now: deps.now,
      handler: (job) => this.handle(job),
    });
  }

  init = () => this.scheduler.init();
  start = () => this.scheduler.start();
  stop = () => this.scheduler.stop();

  /** Makes sure the tenant's run of today exists (one scheduler write per tenant and day in this process). */
  async ensureToday(tenantId: TenantId): Promise<void> {
    const job = pruningJob(this.deps.now());
    if (job.key !== this.scheduledDay) {
      this.evictions += this.scheduled.size;
      this.scheduled.clear();
      this.scheduledDay = job.key;
    }
    if (this.scheduled.has(tenantId)) return;
    await this.scheduler.schedule({ tenantId, ...job });
    this.scheduled.add(tenantId);
    if (this.scheduled.size > this.maxTenants) {
      this.scheduled.delete(this.scheduled.values().next().value!);
      this.evictions += 1;
    }
  }

  /** The tenants remembered as scheduled today, the bound, and how many went (for it, or at the day's end). */
  stats(): { entries: number; capacity: number; evictions: number } {
    return { entries: this.scheduled.size, capacity: this.maxTenants, evictions: this.evictions };
  }

  private async handle(job: DueJob): Promise<JobResult> {
    const now = this.deps.now();
    const store = new RapportiStore(this.deps.store.forTenant(job.tenantId));
    const pruned = await store.pruneBookings(bookingFactsCutoff(now));
    const next = pruningJob(new Date(Date.parse(job.dueAt) + DAY_MS));
    await this.scheduler.schedule({ tenantId: job.tenantId, ...next });
    return pruned > 0 ? { outcome: 'done' } : { outcome: 'skipped', reason: 'nothing to prune' };
  }
}
