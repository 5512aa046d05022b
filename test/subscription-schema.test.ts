import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildSchema } from 'graphql';
import { expect, it } from 'vitest';
import {
  EVENT_RECORDS,
  EXTENDED_RECORDS,
  subscriptionSchemaText,
} from '../scripts/print-subscription-schema.js';

const committed = readFileSync(
  resolve(import.meta.dirname, '../gateway/src/subscriptions/generated/schema.graphql'),
  'utf8',
);

it('the subscription schema is events.graphql plus the records copied from their subgraphs (pnpm schema)', () => {
  expect(committed).toBe(subscriptionSchemaText());
});

it("a record in events has its owner's fields, less the ones events never carry", () => {
  const schema = buildSchema(committed);
  const fields = (type: string) => Object.keys((schema.getType(type) as { getFields(): object }).getFields());
  expect(Object.keys(EVENT_RECORDS)).toContain('Prenotazione');
  // The owner's field (prenotazione's), one it leaves to another subgraph, and one only events have.
  expect(fields('Prenotazione')).toContain('customerEmail');
  expect(fields('Prenotazione')).not.toContain('tavoli');
  expect(fields('Prenotazione')).toContain('previousTableIds');
  expect(fields('Tavolo')).not.toContain('sala');
  expect(fields('Webhook')).not.toContain('secret');
});

it("a record only events carry that extends a subgraph's record gets its fields, less the ones left out", () => {
  const schema = buildSchema(committed);
  const fields = (type: string) => Object.keys((schema.getType(type) as { getFields(): object }).getFields());
  const ospiti = buildSchema(
    readFileSync(resolve(import.meta.dirname, '../subgraphs/ospiti/schema.graphql'), 'utf8'),
    { assumeValidSDL: true },
  );
  const ospite = Object.keys((ospiti.getType('Ospite') as { getFields(): object }).getFields());
  const leaveOut = EXTENDED_RECORDS.CambioOspite!.leaveOut!;
  // Its own fields (events.graphql), then the guest's, in the owner's order: the counts, never personal data.
  const own = ['id', 'campi', 'fields', 'unitoDa', 'mergedFrom'];
  expect(fields('CambioOspite')).toEqual([
    ...own,
    ...ospite.filter((f) => !own.includes(f) && !leaveOut.includes(f)),
  ]);
  expect(fields('CambioOspite')).toContain('lateCancellations');
  for (const personal of ['nome', 'telefono', 'email', 'allergie', 'note', 'consensoMarketing']) {
    expect(fields('CambioOspite')).not.toContain(personal);
  }
});
