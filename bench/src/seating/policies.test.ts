import { describe, expect, it } from 'vitest';
import { ApiError } from '../api.js';
import { briefError, errorCode } from './api-errors.js';
import { bookingBody, firstListed, reseatFor } from './policies.js';

const ask = {
  covers: 4,
  bookingDate: '2031-01-13T20:00:00',
  date: '2031-01-13',
  time: 20 * 60,
  firstTime: 18 * 60,
  lastTime: 21 * 60 + 30,
  turnMinutes: 105,
  flexibility: { toleranceMinutes: 30, shortestStayMinutes: 79 },
  customerName: 'Ospite 1',
};

describe('first-listed policy', () => {
  it('takes the first table listed, English or Italian field, else the first combination', () => {
    expect(
      firstListed({ availableTables: [{ id: 'a' }, { id: 'b' }], tavoliDisponibili: [{ id: 'x' }] }),
    ).toEqual({
      tableIds: ['a'],
    });
    expect(firstListed({ tavoliDisponibili: [{ id: 'x' }] })).toEqual({ tableIds: ['x'] });
    expect(firstListed({ availableTables: [], availableCombinations: [{ id: 'c1' }, { id: 'c2' }] })).toEqual(
      {
        combinationId: 'c1',
      },
    );
    expect(firstListed({ availableTables: [] })).toBeNull();
  });

  it('books the pick with the turn time as its duration; the auto policies ask for autoAssign only', () => {
    expect(bookingBody('first-listed', ask, { tableIds: ['a'] })).toEqual({
      covers: 4,
      bookingDate: ask.bookingDate,
      customerName: 'Ospite 1',
      state: 'confermata',
      durationMinutes: 105,
      tableIds: ['a'],
    });
    for (const policy of ['auto', 'auto-reseat'] as const) {
      const body = bookingBody(policy, ask);
      expect(body.autoAssign).toBe(true);
      expect(body).not.toHaveProperty('tableIds');
      expect(body).not.toHaveProperty('durationMinutes');
    }
    expect([reseatFor('first-listed'), reseatFor('auto'), reseatFor('auto-reseat')]).toEqual([
      false,
      false,
      true,
    ]);
  });
});

describe('REST errors', () => {
  it('reads the code and shortens the message', () => {
    const body = JSON.stringify({ error: { code: 'NO_TABLE_AVAILABLE', message: 'No table fits' } });
    const error = new ApiError(`POST /api/prenotazioni → 409: ${body}`, 409, body);
    expect(errorCode(error)).toBe('NO_TABLE_AVAILABLE');
    expect(briefError(error)).toBe('POST /api/prenotazioni → 409 NO_TABLE_AVAILABLE');
    expect(errorCode(new Error('x'))).toBeNull();
    expect(briefError(new Error('boom\nstack'))).toBe('boom');
  });
});
