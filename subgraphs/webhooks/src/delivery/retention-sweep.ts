import { retentionCutoff, sweepDue } from '../rules/retention.js';
import type { WebhooksStore } from '../webhooks-store.js';

export interface RetentionSweeper {
  /**
   * Removes the tenant's finished deliveries older than the retention period, at most once an hour per tenant and
   * instance; never waits for it (the intake goes on) and never throws (a failed sweep is reported and retried at
   * the tenant's next event an hour later).
   */
  maybeSweep(tenant: WebhooksStore): void;
}

/**
 * The delivery log's bound: swept on each tenant's own events, so a tenant whose log grows (it has events) is the one
 * swept, and a tenant without events adds nothing to sweep. Waiting deliveries are never removed (their retries end
 * within 28 hours, then they are finished and age out like the others).
 */
export function createRetentionSweeper(now: () => Date, onError: (error: unknown) => void): RetentionSweeper {
  const lastSwept = new Map<string, number>();
  return {
    maybeSweep(tenant) {
      const at = now();
      if (!sweepDue(lastSwept.get(tenant.tenantId), at)) return;
      lastSwept.set(tenant.tenantId, at.getTime());
      tenant.deliveries
        .deleteMany({ stato: { $in: ['consegnata', 'fallita'] }, updatedAt: { $lt: retentionCutoff(at) } })
        .catch(onError);
    },
  };
}
