import type { TenantId } from '@coperto/auth';
import { buildEvent, type RestaurantEventType, type WaitlistEventType } from '@coperto/bus';
import type { OutboxMessage } from '@coperto/store';
import { publicPrenotazione, type PrenotazioneRecord } from './bookings/prenotazione-record.js';
import { publicEntry, type QueuePlace, type WaitlistRecord } from './waitlist/waitlist-record.js';

/** CloudEvents `source` of every event this subgraph writes. */
const EVENT_SOURCE = 'coperto/prenotazione';

/** A booking's event (bookings.*): the record as the events show it, plus `extra` fields. */
export type BookingEvent = (
  type: RestaurantEventType,
  record: PrenotazioneRecord,
  extra?: Record<string, unknown>,
) => OutboxMessage;

/** A waitlist entry's event (waitlist.*): the entry with its place in the queue, when it has one. */
export type WaitlistEvent = (
  type: WaitlistEventType,
  record: WaitlistRecord,
  place: QueuePlace | null,
) => OutboxMessage;

/** The tenant's booking events, stored in the record's outbox by the write that makes them. */
export function bookingEvents(tenantId: TenantId): BookingEvent {
  return (type, record, extra = {}) =>
    buildEvent({
      tenantId,
      type,
      source: EVENT_SOURCE,
      subject: record.id,
      // Every event's data has each field of the documented record (AsyncAPI): previousTableIds is null except
      // on a re-seating move, which passes the tables it left.
      data: { ...publicPrenotazione(record), previousTableIds: null, ...extra },
    }).message;
}

/** The tenant's waitlist events. */
export function waitlistEvents(tenantId: TenantId): WaitlistEvent {
  return (type, record, place) =>
    buildEvent({
      tenantId,
      type,
      source: EVENT_SOURCE,
      subject: record.id,
      data: publicEntry(record, place),
    }).message;
}
