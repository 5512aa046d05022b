import { describe, expect, it } from 'vitest';
import { ValidationError } from '@coperto/errors';
import { checkPrenotazione, guestFields, patchedFields } from '../src/bookings/prenotazione-input.js';
import { newBookingRecord, publicPrenotazione } from '../src/bookings/prenotazione-record.js';
import { withoutGuestData } from '../src/privacy/guest-data-eraser.js';

const valid = { covers: 2, bookingDate: '2027-01-15T20:00', customerName: 'Rossi' };
const refusedFields = (input: Parameters<typeof checkPrenotazione>[0], required = true) => {
  try {
    checkPrenotazione(input, { required, zone: 'Europe/Rome' });
  } catch (error) {
    if (error instanceof ValidationError) return error.issues.map((issue) => issue.field);
    throw error;
  }
  return [];
};

describe("a booking's guest email and language", () => {
  it('accepts an email address (trimmed, lower-cased) and refuses one that is not, or too long', () => {
    expect(refusedFields({ ...valid, customerEmail: ' Rita@Example.COM ' })).toEqual([]);
    expect(guestFields({ customerEmail: ' Rita@Example.COM ' }).customerEmail).toBe('rita@example.com');
    expect(refusedFields({ ...valid, customerEmail: 'rita.example.com' })).toEqual(['customerEmail']);
    expect(refusedFields({ ...valid, customerEmail: 'rita @example.com' })).toEqual(['customerEmail']);
    expect(refusedFields({ ...valid, customerEmail: `${'r'.repeat(243)}@example.com` })).toEqual([
      'customerEmail',
    ]);
    expect(guestFields({ customerEmail: '  ' }).customerEmail).toBeNull();
  });

  it("takes language over lingua, defaults to the tenant's (it) on create and refuses null on a change", () => {
    expect(guestFields({ lingua: 'it', language: 'en' }).lingua).toBe('en');
    expect(guestFields({ lingua: 'en' }).lingua).toBe('en');
    expect(guestFields({}).lingua).toBe('it');
    expect(refusedFields({ lingua: null }, false)).toEqual(['lingua']);
    expect(refusedFields({ lingua: null, language: 'en' }, false)).toEqual([]);
    expect(patchedFields({ language: 'en', customerEmail: 'A@B.it' }, undefined)).toEqual({
      lingua: 'en',
      customerEmail: 'a@b.it',
    });
    expect(patchedFields({ customerEmail: null }, undefined)).toEqual({ customerEmail: null });
    expect(patchedFields({ notes: 'x' }, undefined)).not.toHaveProperty('lingua');
  });

  it('is stored and shown in the events under both language names; an older record shows the default', () => {
    const record = newBookingRecord(
      {
        id: 'b1',
        covers: 2,
        bookingDate: '2027-01-15T20:00:00',
        startsAt: '2027-01-15T19:00:00.000Z',
        localDate: '2027-01-15',
        customerName: 'Rossi',
        ...guestFields({ customerEmail: 'rossi@example.com', language: 'en' }),
        tableIds: [],
        combinationId: null,
        assegnazione: 'manual',
        notes: null,
        state: 'pending',
        durationMinutes: null,
        effectiveDurationMinutes: 120,
        externalId: null,
      },
      '2027-01-01T00:00:00.000Z',
    );
    expect(publicPrenotazione(record)).toMatchObject({
      customerEmail: 'rossi@example.com',
      lingua: 'en',
      language: 'en',
    });
    expect(withoutGuestData(record)).toMatchObject({
      customerEmail: null,
      customerPhone: null,
      lingua: 'en',
    });
    const { customerEmail: _e, lingua: _l, ...older } = record;
    expect(publicPrenotazione(older)).toMatchObject({ customerEmail: null, lingua: 'it', language: 'it' });
  });
});
