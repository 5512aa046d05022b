import type { CloudEvent } from './types.js';

const subjects = new WeakMap<CloudEvent, string>();
const sequences = new WeakMap<CloudEvent, number>();

/**
 * Records the NATS subject an event object was delivered on and, when the bus stores events, its position in
 * the store (the JetStream stream sequence; the in-process log's). The buses call it on every event they hand
 * to a subscription (each delivery is a fresh object: decoded from the wire, or copied by the MemoryBus).
 */
export function markArrival<E extends CloudEvent>(event: E, subject: string, sequence?: number): E {
  subjects.set(event, subject);
  if (sequence !== undefined) sequences.set(event, sequence);
  return event;
}

/**
 * The subject the bus delivered this event on (`tenant.<tenantId>.restaurant.<type>`): what the publisher was
 * allowed to publish on, as opposed to what the body claims. Undefined for an object no bus delivered.
 */
export function arrivalSubject(event: CloudEvent): string | undefined {
  return subjects.get(event);
}

/**
 * Where the delivered event sits in the bus's store (`EventBus.replay` and `follow` read the same order): a
 * later event has a larger number. Undefined when the bus stores nothing (a MemoryBus without a replay log
 * hands on the number of the event it was given, so a fan-out keeps it).
 */
export function arrivalSequence(event: CloudEvent): number | undefined {
  return sequences.get(event);
}
