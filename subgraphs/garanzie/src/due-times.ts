import type { ServiceTokenIssuer } from '@coperto/auth';
import { AppError } from '@coperto/errors';
import { Scheduler, type DueJob, type JobResult } from '@coperto/scheduler';
import type { SubgraphClient } from '@coperto/server-kit';
import type { DocumentStore } from '@coperto/store';
import { GaranzieStore } from './garanzie-store.js';
import { GaranziaNonFornitaDocument } from './generated/prenotazione-calls.js';

/** The scheduler's collection of guarantee due times (one job per booking, keyed by the booking id). */
export const DUE_JOBS_COLLECTION = 'garanzie_scadenze';

export interface DueTimeDeps {
  store: DocumentStore;
  subgraphs: SubgraphClient;
  serviceTokens: ServiceTokenIssuer;
  now: () => Date;
  /** The longest wait between two polls (null: the scheduler's default). */
  pollMs?: number | null;
}

/**
 * A guarantee still `requested` at its due time cancels its booking (motivo `guarantee_not_provided`) through
 * prenotazione's `annullaPrenotazione`, with a payments token for that booking; the booking's `bookings.cancelled`
 * then releases the guarantee (its intent cancelled). Anything else (paid, settled, gone, the booking ended) is
 * skipped. A repeated run finds the booking cancelled already: prenotazione's same-state no-op.
 */
export async function dueTimeJob(deps: DueTimeDeps, job: DueJob): Promise<JobResult> {
  const bookingId = job.key;
  const guarantee = await new GaranzieStore(deps.store.forTenant(job.tenantId)).guarantee(bookingId);
  if (!guarantee) return { outcome: 'skipped', reason: 'no guarantee' };
  if (guarantee.stato !== 'requested') return { outcome: 'skipped', reason: `guarantee ${guarantee.stato}` };
  const { token } = await deps.serviceTokens.paymentsToken({ tenantId: job.tenantId, bookingId });
  try {
    await deps.subgraphs.request(
      'prenotazione',
      GaranziaNonFornitaDocument,
      { id: bookingId },
      `Bearer ${token}`,
    );
  } catch (error) {
    if (error instanceof AppError && ['INVALID_TRANSITION', 'NOT_FOUND'].includes(error.code)) {
      return { outcome: 'skipped', reason: 'booking ended' };
    }
    throw error;
  }
  return { outcome: 'done' };
}

/** The due-time scheduler garanzie runs (a worker of the hosting process). */
export function dueTimeScheduler(deps: DueTimeDeps): Scheduler {
  return new Scheduler({
    store: deps.store,
    collection: DUE_JOBS_COLLECTION,
    now: deps.now,
    ...(deps.pollMs ? { pollMs: deps.pollMs } : {}),
    handler: (job) => dueTimeJob(deps, job),
  });
}
