import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildSchema, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { eventLine, subscriptionDocument, WATCHED_FIELDS } from '../scripts/event-line.js';

describe('pnpm watch lines (scripts/event-line.ts)', () => {
  it('shows a status change as before → after, with the table id', () => {
    const line = eventLine({
      id: 'e1',
      type: 'tables.status',
      time: '2030-06-14T18:00:00.000Z',
      subject: 't-1',
      data: { name: 'T1', previousStatus: 'free', status: 'occupied' },
    });
    expect(line).toBe('2030-06-14T18:00:00.000Z tables.status T1 free → occupied (table t-1)');
  });

  it('shows a cancelled booking with its reason, and a dash for what the event does not carry', () => {
    const line = eventLine({
      id: 'e2',
      type: 'bookings.cancelled',
      time: '2030-06-14T18:05:00.000Z',
      subject: 'b-1',
      data: { codice: 'PR-1', customerName: 'Rossi', covers: 3, state: 'annullata', motivo: 'rain' },
    });
    expect(line).toBe(
      '2030-06-14T18:05:00.000Z bookings.cancelled PR-1 Rossi ·3 - annullata "rain" (booking b-1)',
    );
  });

  it('shows waitlist changes: the quote when added, the tables when seated, the reason when left', () => {
    const base = { id: 'e3', time: '2030-06-14T18:10:00.000Z', subject: 'w-1' };
    const party = { customerName: 'Rossi', covers: 3, tableIds: [] };
    expect(
      eventLine({ ...base, type: 'waitlist.added', data: { ...party, position: 2, quotedMinutes: 25 } }),
    ).toBe('2030-06-14T18:10:00.000Z waitlist.added Rossi ·3 #2 quoted 25 min (waitlist w-1)');
    expect(eventLine({ ...base, type: 'waitlist.seated', data: { ...party, tableIds: ['T1', 'T2'] } })).toBe(
      '2030-06-14T18:10:00.000Z waitlist.seated Rossi ·3 at T1+T2 (waitlist w-1)',
    );
    expect(eventLine({ ...base, type: 'waitlist.left', data: { ...party, motivo: 'too long' } })).toBe(
      '2030-06-14T18:10:00.000Z waitlist.left Rossi ·3 "too long" (waitlist w-1)',
    );
  });

  it('subscribes with one document per field, each valid against the gateway’s subscription schema', () => {
    const schema = buildSchema(
      readFileSync(
        resolve(import.meta.dirname, '../gateway/src/subscriptions/generated/schema.graphql'),
        'utf8',
      ),
    );
    for (const field of Object.keys(WATCHED_FIELDS) as (keyof typeof WATCHED_FIELDS)[]) {
      expect(validate(schema, parse(subscriptionDocument(field))), field).toEqual([]);
    }
  });
});
