import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildSchema } from 'graphql';
import { expect, it } from 'vitest';
import { EVENT_RECORDS, subscriptionSchemaText } from '../scripts/print-subscription-schema.js';

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
