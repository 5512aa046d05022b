import type { ServiceTokenIssuer } from '@coperto/auth';
import { Scheduler, type DueJob, type JobResult } from '@coperto/scheduler';
import type { SubgraphClient } from '@coperto/server-kit';
import type { DocumentStore } from '@coperto/store';
import { latest } from './counts.js';
import { bookingsAhead, eraseGuest } from './erasure.js';
import { privacyAuthorization } from './guest-events.js';
import { changeGuest } from './guest-writes.js';
import type { CollegamentoRecord, OspiteRecord } from './ospite-record.js';
import { OspitiStore } from './ospiti-store.js';

/** The scheduler's collection of retention runs (one job per tenant and day, `conservazione/<YYYY-MM-DD>`). */
export const RETENTION_JOBS_COLLECTION = 'ospiti_conservazione';

/** Guests erased per run at most; a run that found this many continues a minute later. */
export const RETENTION_BATCH = 200;

export const RETENTION_INTERVAL_MS = 24 * 60 * 60 * 1000;
export const RETENTION_CONTINUE_MS = 60 * 1000;

/** The instant `months` calendar months before `now` (UTC): a guest last active before it is erased. */
export function retentionCutoff(now: Date, months: number): Date {
  const cutoff = new Date(now);
  cutoff.setUTCMonth(cutoff.getUTCMonth() - months);
  return cutoff;
}

/** A guest's last activity: the latest change of its records and start of its bookings, else when it was made. */
export function lastActivity(guest: OspiteRecord, links: readonly CollegamentoRecord[]): string {
  let last: string | null = guest.ultimaAttivita ?? null;
  for (const link of links) last = latest(last, latest(link.aggiornatoAt, link.startsAt));
  return last ?? guest.createdAt;
}

/** The day's run of a tenant: `conservazione/<YYYY-MM-DD>`, and `/<n>` for the n-th continuation. */
export function retentionKey(at: Date, continuation = 0): string {
  const day = `conservazione/${at.toISOString().slice(0, 10)}`;
  return continuation === 0 ? day : `${day}/${continuation}`;
}

export interface RetentionDeps {
  store: DocumentStore;
  subgraphs: SubgraphClient;
  serviceTokens: ServiceTokenIssuer;
  now: () => Date;
  /** Wakes the outbox relay after a write that stored events (guests.erased). */
  onEventsWritten: () => void;
}

/** What one run did (for the job's history and the tests). */
export interface RetentionRun {
  erased: number;
  /** Guests found active after all (their records said so) or with a booking still to come. */
  kept: number;
  /** Whether the batch was full: more may wait. */
  more: boolean;
}

/**
 * One retention run for a tenant: erases (as an administrator's oblio would, erasure.ts) up to RETENTION_BATCH
 * guests with no activity since `retentionMonths` ago. A guest with an active booking still to come is kept.
 */
export async function runRetention(deps: RetentionDeps, tenantId: string): Promise<RetentionRun | null> {
  const store = new OspitiStore(deps.store.forTenant(tenantId as DueJob['tenantId']), deps.onEventsWritten);
  const months = (await store.settings())?.retentionMonths ?? null;
  if (months === null) return null;
  const now = deps.now();
  const cutoff = retentionCutoff(now, months).toISOString();
  const candidates = await store.inactiveGuests(cutoff, RETENTION_BATCH);
  const erasure = {
    store,
    subgraphs: deps.subgraphs,
    now: deps.now,
    authorization: privacyAuthorization(deps.serviceTokens, tenantId),
  };
  const run: RetentionRun = { erased: 0, kept: 0, more: candidates.length === RETENTION_BATCH };
  for (const guest of candidates) {
    const links = await store.linksOf(guest.id);
    const last = lastActivity(guest, links);
    if (last >= cutoff || bookingsAhead(links, now).length > 0) {
      // Its stored activity was behind (a guest stored before it was kept): recorded, it is no candidate again.
      await changeGuest(store, guest.id, deps.now, (g) =>
        g.ultimaAttivita === last ? null : { ...g, ultimaAttivita: last },
      );
      run.kept++;
      continue;
    }
    await eraseGuest(erasure, guest);
    run.erased++;
  }
  return run;
}

/**
 * The retention scheduler ospiti runs (a worker of the hosting process). A tenant's runs form one chain: setting
 * `retentionMonths` schedules today's run at once (`scheduleToday`); each run schedules the next day's 24 hours
 * later, or a continuation a minute later when its batch was full; a run that finds retention switched off
 * ends the chain. Runs are idempotent: a repeated one finds the erased guests erased.
 */
export class RetentionScheduler {
  readonly scheduler: Scheduler;

  constructor(private readonly deps: RetentionDeps) {
    this.scheduler = new Scheduler({
      store: deps.store,
      collection: RETENTION_JOBS_COLLECTION,
      now: deps.now,
      handler: (job) => this.handle(job),
    });
  }

  init = () => this.scheduler.init();
  start = () => this.scheduler.start();
  stop = () => this.scheduler.stop();

  async scheduleToday(tenantId: DueJob['tenantId']): Promise<void> {
    const now = this.deps.now();
    await this.scheduler.schedule({ tenantId, key: retentionKey(now), dueAt: now });
  }

  private async handle(job: DueJob): Promise<JobResult> {
    const run = await runRetention(this.deps, job.tenantId);
    if (!run) return { outcome: 'skipped', reason: 'retention off' };
    const now = this.deps.now();
    const continuation = typeof job.payload['continuation'] === 'number' ? job.payload['continuation'] : 0;
    const next =
      run.more && run.erased + run.kept > 0
        ? {
            key: retentionKey(new Date(job.dueAt), continuation + 1),
            dueAt: new Date(now.getTime() + RETENTION_CONTINUE_MS),
            payload: { continuation: continuation + 1 },
          }
        : (() => {
            const dueAt = new Date(now.getTime() + RETENTION_INTERVAL_MS);
            return { key: retentionKey(dueAt), dueAt, payload: {} };
          })();
    await this.scheduler.schedule({ tenantId: job.tenantId, ...next });
    return { outcome: 'done' };
  }
}
