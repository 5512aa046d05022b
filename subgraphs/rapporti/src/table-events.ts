import { trustedTenantId } from '@coperto/auth';
import { isSubjectToken, type CloudEvent } from '@coperto/bus';
import type { EventConsumer } from '@coperto/server-kit';
import type { DocumentStore } from '@coperto/store';
import { factsOf } from './event-facts.js';
import { RapportiStore } from './rapporti-store.js';

/**
 * The durable consumer's name, shared by every rapporti instance (each event is handled by one of them); the
 * hosting process adds its store's scope in distributed mode (`rapporti_<MONGO_DATABASE>`).
 */
export const RAPPORTI_CONSUMER = 'rapporti';

/** Every restaurant event; the handler keeps the tables' status changes and the bookings. */
export const RAPPORTI_EVENTS_SUBJECT = 'tenant.*.restaurant.>';

/** The tenant an event was published for: its subject's (`tenant.<id>.restaurant.…`), never its body's. */
export function tenantOfSubject(subject: string): string | null {
  const [first, tenant, third] = subject.split('.');
  return first === 'tenant' && third === 'restaurant' && tenant && isSubjectToken(tenant) ? tenant : null;
}

/**
 * The consumer that keeps each table's status history and each booking's latest state. Idempotent: a change is
 * stored under its event's id (a repeated event is a duplicate), a booking's state moves only forward by its
 * updatedAt, so an event delivered twice or out of order leaves what one in-order delivery leaves.
 */
export function tableEventConsumer(store: DocumentStore, historyPerTable?: number): EventConsumer {
  return {
    durable: RAPPORTI_CONSUMER,
    subject: RAPPORTI_EVENTS_SUBJECT,
    async handle(event: CloudEvent, subject: string) {
      const tenant = tenantOfSubject(subject);
      const facts = factsOf(event);
      if (!tenant || !facts) return;
      const rapporti = new RapportiStore(store.forTenant(trustedTenantId(tenant)), historyPerTable);
      if (facts.kind === 'cambio') await rapporti.addChange(facts.cambio);
      else await rapporti.putBooking(facts.prenotazione);
    },
  };
}
