import { trustedTenantId } from '@coperto/auth';
import { isSubjectToken, type CloudEvent } from '@coperto/bus';
import type { EventConsumer } from '@coperto/server-kit';
import type { DocumentStore } from '@coperto/store';
import { factsOf } from './event-facts.js';
import { GuestLinker } from './linker.js';
import { OspitiStore } from './ospiti-store.js';

/** The durable consumer's name: every ospiti instance shares it (each event is handled by one of them). */
export const GUEST_CONSUMER = 'ospiti';

/** Every restaurant event; the handler keeps the bookings' and the waitlist's. */
export const GUEST_EVENTS_SUBJECT = 'tenant.*.restaurant.>';

/** The tenant an event was published for: its subject's (`tenant.<id>.restaurant.…`), never its body's. */
export function tenantOfSubject(subject: string): string | null {
  const [first, tenant, third] = subject.split('.');
  return first === 'tenant' && third === 'restaurant' && tenant && isSubjectToken(tenant) ? tenant : null;
}

/** The consumer that links bookings and waitlist entries to guests and keeps the guests' counts. */
export function guestEventConsumer(store: DocumentStore, now: () => Date): EventConsumer {
  return {
    durable: GUEST_CONSUMER,
    subject: GUEST_EVENTS_SUBJECT,
    async handle(event: CloudEvent, subject: string) {
      const tenant = tenantOfSubject(subject);
      const facts = factsOf(event);
      if (!tenant || !facts) return;
      await new GuestLinker(new OspitiStore(store.forTenant(trustedTenantId(tenant))), now).apply(facts);
    },
  };
}
