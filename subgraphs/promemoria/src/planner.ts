import type { TenantId } from '@coperto/auth';
import type { Scheduler } from '@coperto/scheduler';
import type { BookingRecord, PromemoriaStore } from './promemoria-store.js';
import { DEFAULT_RULES, plannedReminders, type ReminderRule } from './plan.js';

/** What a reminder job carries (the rest is read when it is due). */
export interface ReminderPayload {
  bookingId: string;
  hoursBefore: number;
  [key: string]: unknown;
}

/** The tenant's rules and since when they hold (`''`: the default, always). */
export async function currentRules(
  store: PromemoriaStore,
): Promise<{ rules: readonly ReminderRule[]; since: string }> {
  const saved = await store.readSettings();
  return saved ? { rules: saved.regole, since: saved.updatedAt } : { rules: DEFAULT_RULES, since: '' };
}

/**
 * Makes the scheduler's jobs of one booking what the rules say: each planned reminder scheduled (idempotent; a
 * moved start moves it), every other pending one of the booking cancelled (a cancelled booking drops them all).
 */
export async function syncReminders(
  scheduler: Scheduler,
  tenantId: TenantId,
  booking: BookingRecord,
  rules: { rules: readonly ReminderRule[]; since: string },
): Promise<void> {
  const notBefore = booking.startSetAt > rules.since ? booking.startSetAt : rules.since;
  const planned = plannedReminders(booking, rules.rules, notBefore);
  const keys = new Set(planned.map((p) => p.key));
  for (const reminder of planned) {
    const payload: ReminderPayload = { bookingId: booking.id, hoursBefore: reminder.hoursBefore };
    await scheduler.schedule({ tenantId, key: reminder.key, dueAt: reminder.dueAt, payload });
  }
  for (const job of await scheduler.list(tenantId, `${booking.id}/`))
    if (!keys.has(job.key) && job.state === 'pending') await scheduler.cancel(tenantId, job.key);
}
