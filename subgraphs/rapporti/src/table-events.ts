import { trustedTenantId } from '@coperto/auth';
import { tenantOfSubject, type CloudEvent } from '@coperto/bus';
import type { EventConsumer } from '@coperto/server-kit';
import type { DocumentStore } from '@coperto/store';
import { factsOf } from './event-facts.js';
import { bookingFactsCutoff, type PruningScheduler } from './pruning.js';
import { RapportiStore } from './rapporti-store.js';

/**
 * The durable consumer's name, shared by every rapporti instance (each event is handled by one of them); the
 * hosting process adds its store's scope in distributed mode (`rapporti_<MONGO_DATABASE>`).
 */
export const RAPPORTI_CONSUMER = 'rapporti';

/** Every restaurant event; the handler keeps the tables' status changes and the bookings. */
export const RAPPORTI_EVENTS_SUBJECT = 'tenant.*.restaurant.>';

export interface TableEventDeps {
  store: DocumentStore;
  now: () => Date;
  /** Starts each tenant's daily pruning of the booking facts. */
  pruning: Pick<PruningScheduler, 'ensureToday'>;
  historyPerTable?: number;
}

/**
 * The consumer that keeps each table's status history and each booking's latest state. Idempotent: a change is
 * stored under its event's id (a repeated event is a duplicate), a booking's state moves only forward by its
 * updatedAt, so an event delivered twice or out of order leaves what one in-order delivery leaves. A booking
 * that started longer ago than the pruning keeps (pruning.ts) is not kept again.
 */
export function tableEventConsumer(deps: TableEventDeps): EventConsumer {
  const { store, historyPerTable } = deps;
  return {
    durable: RAPPORTI_CONSUMER,
    subject: RAPPORTI_EVENTS_SUBJECT,
    async handle(event: CloudEvent, subject: string) {
      const tenant = tenantOfSubject(subject);
      const facts = factsOf(event);
      if (!tenant || !facts) return;
      const rapporti = new RapportiStore(store.forTenant(trustedTenantId(tenant)), historyPerTable);
      if (facts.kind === 'cambio') return rapporti.addChange(facts.cambio);
      if (facts.prenotazione.startsAt < bookingFactsCutoff(deps.now()).toISOString()) return;
      await rapporti.putBooking(facts.prenotazione);
      await deps.pruning.ensureToday(trustedTenantId(tenant));
    },
  };
}
