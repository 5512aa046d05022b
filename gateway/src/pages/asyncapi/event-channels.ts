import type { RestaurantEventType } from '@coperto/bus';

/** One published event type: the record its `data` carries and what it means. */
export interface EventChannel {
  /**
   * The GraphQL type of `data` in the gateway's subscription schema (subscriptions/generated/schema.graphql), which
   * mirrors the subgraph type as the subgraph publishes it (gateway/test/subscription-schema-drift.test.ts).
   */
  record: string;
  /** When the event is published. */
  summary: string;
}

/**
 * Every event subject, one entry each: the AsyncAPI document (`GET /asyncapi.json`) has a channel, an operation
 * and a message per entry. Keyed by the bus's event types, so a new type fails typecheck until it is added here.
 */
export const EVENT_CHANNELS: Readonly<Record<RestaurantEventType, EventChannel>> = {
  'tables.status': {
    record: 'Tavolo',
    summary:
      'A table changed status (any of the six, from any status); data is the table after the change, with previousStatus.',
  },
  'bookings.created': {
    record: 'Prenotazione',
    summary: 'A booking was created (also by the batch upload); data is the booking.',
  },
  'bookings.updated': {
    record: 'Prenotazione',
    summary:
      'A booking was edited (PATCH), confirmed or moved to another state than annullata; data is the booking after the change.',
  },
  'bookings.cancelled': {
    record: 'Prenotazione',
    summary: 'A booking moved to annullata; data is the booking after the change.',
  },
  'waitlist.added': {
    record: 'VoceAttesa',
    summary: 'A party joined the waitlist; data is the entry with its position and quoted wait.',
  },
  'waitlist.notified': {
    record: 'VoceAttesa',
    summary: 'The party was told its table is ready; data is the entry.',
  },
  'waitlist.seated': {
    record: 'VoceAttesa',
    summary: 'The party was seated (its walk-in booking and tables are on the entry); data is the entry.',
  },
  'waitlist.left': {
    record: 'VoceAttesa',
    summary: 'The party left without being seated; data is the entry.',
  },
  'waitlist.cancelled': {
    record: 'VoceAttesa',
    summary: 'The entry was cancelled; data is the entry.',
  },
  'waitlist.erased': {
    record: 'VoceAttesa',
    summary:
      "The guest's name, phone and notes were erased from the entry (the guest's erasure); data is the erased entry: replace any copy kept.",
  },
  'guests.created': {
    record: 'CambioOspite',
    summary:
      'A guest profile was made (a booking or waitlist entry with a new phone or email); data is its id, the fields that have a value (names only) and its counts, never its personal data.',
  },
  'guests.updated': {
    record: 'CambioOspite',
    summary:
      "A guest profile changed (staff's edit, a contact or name filled in by linking, a visit, no-show, late cancellation or bill counted); data is its id, the fields that changed (names only) and its counts: read the profile for the values.",
  },
  'guests.merged': {
    record: 'CambioOspite',
    summary:
      'Another guest (mergedFrom) was merged into this one: its bookings, contacts and counts are here now and it is gone; data is the kept guest’s id, the fields that changed and its counts.',
  },
  'guests.erased': {
    record: 'CambioOspite',
    summary:
      "A guest was erased (the administrator's oblio, or the tenant's retention): erase every copy of its personal data; data is its id, the fields emptied and the counts kept.",
  },
  'reminders.due': {
    record: 'PromemoriaDovuto',
    summary:
      "A booking's reminder came due (promemoria, docs/reminders.md): once per reminder and start, for SMS or messaging integrations; data is the booking and its guest's manage link.",
  },
  'capacity.config.updated': {
    record: 'SlotConfig',
    summary:
      'The capacity settings changed (PUT /api/capacity/config); data is the settings after the change, with the reminder rules promemoria plans from (docs/reminders.md).',
  },
  'webhooks.disabled': {
    record: 'Webhook',
    summary:
      'A webhook endpoint was switched off after 5 days without a delivery that succeeded; data is the endpoint (never its secret).',
  },
};

/**
 * Record fields that only some events carry (absent, not null, in the others): the document does not require
 * them. A re-seated booking's bookings.updated carries the tables it had before the move.
 */
export const FIELDS_IN_SOME_EVENTS: Readonly<Record<string, readonly string[]>> = {
  Prenotazione: ['previousTableIds'],
};
