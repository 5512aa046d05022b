import type { TenantId } from '@coperto/auth';
import { DEFAULT_REMINDER_RULES, type ReminderRule } from '@coperto/domain';
import type { Scheduler } from '@coperto/scheduler';
import type { BookingRecord, PromemoriaStore } from './promemoria-store.js';
import { plannedReminders } from './plan.js';

/** What a reminder job carries (the rest is read when it is due). */
export interface ReminderPayload {
  bookingId: string;
  hoursBefore: number;
  [key: string]: unknown;
}

/** The tenant's rules, since when they hold (`''`: always) and the capacity config they came with (`''`: none). */
export interface CurrentRules {
  rules: readonly ReminderRule[];
  since: string;
  configUpdatedAt: string;
}

/** Planning passes of one booking at most when the rules keep changing under it. */
const MAX_PASSES = 5;

/** The tenant's rules as capacity's config last said them, or capacity's default until it said any. */
export async function currentRules(store: PromemoriaStore): Promise<CurrentRules> {
  const saved = await store.readRules();
  return saved
    ? { rules: saved.regole, since: saved.since ?? '', configUpdatedAt: saved.configUpdatedAt }
    : { rules: DEFAULT_REMINDER_RULES, since: '', configUpdatedAt: '' };
}

/**
 * Makes the scheduler's jobs of one booking what the rules say: each planned reminder scheduled (idempotent; a
 * moved start moves it), every other pending one of the booking cancelled (a cancelled booking drops them all).
 */
export async function syncReminders(
  scheduler: Scheduler,
  tenantId: TenantId,
  booking: BookingRecord,
  rules: CurrentRules,
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

/**
 * Plans one booking under the current rules and its newest facts, and again while either changed during a pass:
 * a booking event and a rules change handled at once (two instances) leave the booking planned under the newer
 * rules and facts, because the other handler stores what it read before it plans, so after any pass of ours
 * that read the older ones ended.
 */
export async function planBooking(
  store: PromemoriaStore,
  scheduler: Scheduler,
  tenantId: TenantId,
  booking: BookingRecord,
  first?: CurrentRules,
): Promise<void> {
  let facts = booking;
  let rules = first ?? (await currentRules(store));
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    await syncReminders(scheduler, tenantId, facts, rules);
    const [rulesAfter, factsAfter] = await Promise.all([currentRules(store), store.booking(facts.id)]);
    const sameFacts = factsAfter === null || factsAfter.updatedAt === facts.updatedAt;
    if (rulesAfter.configUpdatedAt === rules.configUpdatedAt && sameFacts) return;
    rules = rulesAfter;
    facts = factsAfter ?? facts;
  }
}
