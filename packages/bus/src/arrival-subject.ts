import type { CloudEvent } from './types.js';

const subjects = new WeakMap<CloudEvent, string>();

/**
 * Records the NATS subject an event object was delivered on. The buses call it on every event they hand
 * to a subscription (each delivery is a fresh object: decoded from the wire, or copied by the MemoryBus).
 */
export function markArrival<E extends CloudEvent>(event: E, subject: string): E {
  subjects.set(event, subject);
  return event;
}

/**
 * The subject the bus delivered this event on (`tenant.<tenantId>.restaurant.<type>`): what the publisher was
 * allowed to publish on, as opposed to what the body claims. Undefined for an object no bus delivered.
 */
export function arrivalSubject(event: CloudEvent): string | undefined {
  return subjects.get(event);
}
