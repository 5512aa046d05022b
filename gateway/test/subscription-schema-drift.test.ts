import { readFileSync } from 'node:fs';
import { buildSchema, isEnumType, isObjectType, type GraphQLNamedType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { apiSchemaOf } from '../src/pages/openapi/api-schema.js';
import { SUBSCRIPTION_SCHEMA_FILE } from '../src/subscriptions/subscription-schema.js';

/**
 * The subscription schema re-states the records the events carry under the supergraph's type names (so that
 * normalised client caches merge them). Every such type must match the supergraph's: the same enum values,
 * and for objects the same fields with the same types, less the fields events never carry and plus the few
 * that only events have. A field added to a subgraph's type fails here until it is added to
 * gateway/src/subscriptions/schema.graphql or listed below.
 */
const NOT_IN_EVENTS: Readonly<Record<string, readonly string[]>> = {
  // Resolved by other subgraphs, or computed by prenotazione at query time: query them over HTTP. `storico|history`:
  // the rapporti subgraph's.
  Tavolo: ['sala', 'prenotazioni', 'storico', 'history'],
  // `gestione|manage` (a guest token) is only in the answer to the channel that made the booking, never in an event.
  // `promemoria|reminders`: the promemoria subgraph's. `garanzia|guarantee`: the garanzie subgraph's (its clientSecret is for staff and the guest only).
  Prenotazione: [
    'tavoli',
    'effectiveDurationMinutes',
    'endsAt',
    'ospite',
    'guest',
    'gestione',
    'manage',
    'promemoria',
    'reminders',
    'garanzia',
    'guarantee',
  ],
  // The guest: the ospiti subgraph's.
  VoceAttesa: ['ospite', 'guest'],
  // Shown only in the answer that made it.
  Webhook: ['secret'],
};
const ONLY_IN_EVENTS: Readonly<Record<string, readonly string[]>> = {
  Tavolo: ['previousStatus'],
  Prenotazione: ['previousTableIds'],
};

const supergraph = apiSchemaOf(readFileSync(new URL('../../supergraph.graphql', import.meta.url), 'utf8'));
const subscriptions = buildSchema(readFileSync(SUBSCRIPTION_SCHEMA_FILE, 'utf8'));

/** The types of the subscription schema that the supergraph also has (the records the events carry). */
function sharedTypes(): string[] {
  return Object.keys(subscriptions.getTypeMap()).filter(
    (name) =>
      !name.startsWith('__') &&
      !['Query', 'Subscription', 'String', 'Boolean', 'ID', 'Int', 'Float'].includes(name) &&
      supergraph.getType(name) !== undefined,
  );
}

/** `field: Type` of an object type, or the values of an enum. */
function shape(type: GraphQLNamedType | undefined | null, leaveOut: readonly string[] = []): string[] {
  if (isObjectType(type)) {
    return Object.values(type.getFields())
      .filter((f) => !leaveOut.includes(f.name))
      .map((f) => `${f.name}: ${String(f.type)}`)
      .sort();
  }
  if (isEnumType(type))
    return type
      .getValues()
      .map((v) => v.name)
      .sort();
  return [];
}

describe("the subscription schema's record types", () => {
  it('are the records the events carry, under the supergraph names', () => {
    expect(sharedTypes().sort()).toEqual(
      [
        'Assegnazione',
        'CanalePrenotazione',
        'BookingState',
        'Lingua',
        'OpeningDay',
        'OpeningInterval',
        'Prenotazione',
        'ReminderRule',
        'SlotConfig',
        'StatoAttesa',
        'TableLock',
        'TableShape',
        'TableStatus',
        'Tavolo',
        'TurnTime',
        'VoceAttesa',
        'Webhook',
      ].sort(),
    );
  });

  it.each(sharedTypes())('%s matches the supergraph', (name) => {
    const ours = shape(subscriptions.getType(name), ONLY_IN_EVENTS[name]);
    const theirs = shape(supergraph.getType(name), NOT_IN_EVENTS[name]);
    expect(ours.length).toBeGreaterThan(0);
    expect(ours).toEqual(theirs);
  });
});
