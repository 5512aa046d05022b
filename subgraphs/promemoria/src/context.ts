import DataLoader from 'dataloader';
import { ForbiddenError } from '@coperto/errors';
import type { Scheduler } from '@coperto/scheduler';
import type { SubgraphDeps, SubgraphRequest } from '@coperto/server-kit';
import { reminderKey } from './plan.js';
import { currentRules } from './planner.js';
import { reminderView, type ReminderView } from './reminder-view.js';
import { PromemoriaStore } from './promemoria-store.js';

export type PromemoriaDeps = SubgraphDeps;

export interface PromemoriaContext {
  /** A booking's reminders under the current rules, earliest first: one store query per request for N bookings. */
  remindersOf: DataLoader<string, ReminderView[]>;
}

export async function createPromemoriaContext(
  deps: PromemoriaDeps,
  scheduler: Scheduler,
  request: SubgraphRequest,
): Promise<PromemoriaContext> {
  const viewer = await deps.verifier.verifyAuthorizationHeader(request.authorization);
  // Reminder status is staff data: a channel key or a guest token reads none of it.
  if (viewer.grant) throw new ForbiddenError('Reminders are for staff only');
  const store = new PromemoriaStore(deps.store.forTenant(viewer.tenantId));
  return {
    remindersOf: new DataLoader(async (bookingIds) => {
      const { rules } = await currentRules(store);
      const keys = bookingIds.flatMap((id) => rules.map((rule) => reminderKey(id, rule.hoursBefore)));
      const jobs = await scheduler.getMany(viewer.tenantId, keys);
      const byBooking = new Map<string, ReminderView[]>();
      for (const job of jobs) {
        const bookingId = job.key.slice(0, job.key.lastIndexOf('/'));
        byBooking.set(bookingId, [...(byBooking.get(bookingId) ?? []), reminderView(job)]);
      }
      return bookingIds.map((id) => (byBooking.get(id) ?? []).sort((a, b) => (a.dueAt < b.dueAt ? -1 : 1)));
    }),
  };
}
