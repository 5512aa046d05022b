import { trustedTenantId } from '@coperto/auth';
import { tenantOfSubject, type CloudEvent } from '@coperto/bus';
import type { Scheduler } from '@coperto/scheduler';
import type { EventConsumer } from '@coperto/server-kit';
import type { DocumentStore } from '@coperto/store';
import { bookingFactsOf } from './booking-facts.js';
import { planBooking } from './planner.js';
import { PromemoriaStore } from './promemoria-store.js';

/** The durable consumer's name: every promemoria instance shares it (each event is handled by one of them). */
export const REMINDER_CONSUMER = 'promemoria';

/** The booking events (created, updated, cancelled) of every tenant. */
export const REMINDER_EVENTS_SUBJECT = 'tenant.*.restaurant.bookings.>';

/** Keeps each booking's facts and plans its reminders from its events (idempotent: at least once is fine). */
export function reminderEventConsumer(store: DocumentStore, scheduler: Scheduler): EventConsumer {
  return {
    durable: REMINDER_CONSUMER,
    subject: REMINDER_EVENTS_SUBJECT,
    async handle(event: CloudEvent, subject: string) {
      const tenant = tenantOfSubject(subject);
      const facts = bookingFactsOf(event);
      if (!tenant || !facts) return;
      const tenantId = trustedTenantId(tenant);
      const promemoria = new PromemoriaStore(store.forTenant(tenantId));
      const booking = await promemoria.saveBooking(facts);
      if (!booking) return;
      await planBooking(promemoria, scheduler, tenantId, booking);
    },
  };
}
