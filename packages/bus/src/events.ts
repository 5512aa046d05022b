import { randomUUID } from 'node:crypto';
import type { TenantId } from '@coperto/auth';
import type { OutboxMessage } from '@coperto/store';
import { isSubjectToken } from './subject-matcher.js';
import { natsSubject, type CloudEvent, type RestaurantEventType } from './types.js';

export interface BuildEventInput<T> {
  tenantId: TenantId;
  /** The interface's event type, e.g. `tables.status`; it ends the NATS subject. */
  type: RestaurantEventType;
  /** CloudEvents `source`, e.g. `/subgraphs/tavolo`. */
  source: string;
  /** CloudEvents `subject`: the id of the record the event is about. */
  subject: string;
  /** The full record after the change. */
  data: T;
  /** Defaults to a random UUID. */
  id?: string;
  /** Defaults to now; normalised to ISO-8601 UTC. */
  time?: Date | string;
}

export interface BuiltEvent<T> {
  /** What the store keeps in the record's outbox and the relay publishes. */
  message: OutboxMessage;
  event: CloudEvent<T>;
}

/**
 * Builds the CloudEvents 1.0 envelope of a change and the outbox message carrying it (same id, published on
 * `tenant.<tenantId>.restaurant.<type>`). Pure apart from the default id and time. Throws a TypeError for a
 * tenant id that is not a single subject token (a `.`, `*` or `>` in it would leak into other tenants'
 * subjects) or for a time that is not a date.
 */
export function buildEvent<T>(input: BuildEventInput<T>): BuiltEvent<T> {
  if (!isSubjectToken(input.tenantId))
    throw new TypeError(`tenantId is not a subject token: ${input.tenantId}`);
  if (!input.type.split('.').every(isSubjectToken)) throw new TypeError(`Invalid event type: ${input.type}`);
  const time = input.time === undefined ? new Date() : new Date(input.time);
  if (Number.isNaN(time.getTime())) throw new TypeError(`Invalid event time: ${String(input.time)}`);
  const event: CloudEvent<T> = {
    specversion: '1.0',
    id: input.id ?? randomUUID(),
    source: input.source,
    type: input.type,
    subject: input.subject,
    time: time.toISOString(),
    datacontenttype: 'application/json',
    tenantid: input.tenantId,
    data: input.data,
  };
  return { event, message: { id: event.id, subject: natsSubject(input.tenantId, input.type), body: event } };
}
