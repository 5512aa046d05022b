import { trustedTenantId, type ServiceTokenIssuer } from '@coperto/auth';
import { tenantOfSubject, type CloudEvent } from '@coperto/bus';
import type { EventConsumer, SubgraphClient } from '@coperto/server-kit';
import type { DocumentStore } from '@coperto/store';
import { eraseRecords } from './erasure.js';
import { factsOf, tablePaymentOf } from './event-facts.js';
import { GuestLinker } from './linker.js';
import { OspitiStore } from './ospiti-store.js';
import { recordSpend } from './spend.js';

/** The durable consumer's name: every ospiti instance shares it (each event is handled by one of them). */
export const GUEST_CONSUMER = 'ospiti';

/** Every restaurant event; the handler keeps the bookings', the waitlist's and the tables' payments. */
export const GUEST_EVENTS_SUBJECT = 'tenant.*.restaurant.>';

export interface GuestEventDeps {
  store: DocumentStore;
  now: () => Date;
  subgraphs: SubgraphClient;
  serviceTokens: ServiceTokenIssuer;
  /** Wakes the outbox relay after a write that stored events (the guests' own). */
  onEventsWritten: () => void;
}

/** ospiti's own `Authorization` for erasing the tenant's records in prenotazione (role `privacy`). */
export function privacyAuthorization(serviceTokens: ServiceTokenIssuer, tenantId: string) {
  return async () => `Bearer ${(await serviceTokens.privacyToken({ tenantId })).token}`;
}

/**
 * The consumer that links bookings and waitlist entries to guests, keeps the guests' counts, and adds a table's
 * bill to the guest of the booking it was seating.
 */
export function guestEventConsumer(deps: GuestEventDeps): EventConsumer {
  return {
    durable: GUEST_CONSUMER,
    subject: GUEST_EVENTS_SUBJECT,
    async handle(event: CloudEvent, subject: string) {
      const tenant = tenantOfSubject(subject);
      if (!tenant) return;
      const store = new OspitiStore(deps.store.forTenant(trustedTenantId(tenant)), deps.onEventsWritten);
      const payment = tablePaymentOf(event);
      if (payment) return recordSpend(store, deps.now, payment);
      const facts = factsOf(event);
      if (!facts) return;
      const authorization = privacyAuthorization(deps.serviceTokens, tenant);
      const eraseLate = (late: typeof facts) =>
        late.tipo === 'prenotazione'
          ? eraseRecords({ subgraphs: deps.subgraphs, authorization }, [late.id], [])
          : eraseRecords({ subgraphs: deps.subgraphs, authorization }, [], [late.id]);
      await new GuestLinker(store, deps.now, eraseLate).apply(facts);
    },
  };
}
