import { describe, expect, it } from 'vitest';
import type { HistoryEntry, Intent } from './history.js';
import { checkOfferedTimesBookable } from './offered-times.js';

let clock = 0;
const entry = (intent: Intent, status: number, at: [number, number], tenant = 'A', response: unknown = {}) =>
  ({
    id: clock++,
    tenant,
    device: 'd',
    intent,
    method: 'X',
    path: '/',
    sentAt: at[0],
    answeredAt: at[1],
    status,
    response,
  }) as HistoryEntry;

/** A search (#0) at [0, 10], the booking of its offered time at [20, 30]. */
function history(bookStatus: number, between: HistoryEntry[] = []): HistoryEntry[] {
  clock = 0;
  const search = entry({ kind: 'search', start: '2031-03-14T20:00', covers: 2 }, 200, [0, 10]);
  const rest = between.map((e) => ({ ...e, id: clock++ }));
  const book = entry(
    { kind: 'autoBook', start: '2031-03-14T20:00:00', covers: 2, minutes: null, searchId: 0 },
    bookStatus,
    [20, 30],
    'A',
    { error: { code: 'NO_TABLE_AVAILABLE' } },
  );
  return [search, ...rest, book];
}

describe('offered times can be booked (the checker)', () => {
  it('flags a refusal with nothing in between, and no success', () => {
    expect(checkOfferedTimesBookable(history(409))).toHaveLength(1);
    expect(checkOfferedTimesBookable(history(201))).toEqual([]);
    expect(checkOfferedTimesBookable(history(503))).toEqual([]);
  });

  it("excuses a refusal when a write of the tenant ran in between, not another tenant's or a lock", () => {
    const write = entry(
      { kind: 'autoBook', start: '2031-03-14T20:00', covers: 2, minutes: null },
      201,
      [12, 18],
    );
    expect(checkOfferedTimesBookable(history(409, [write]))).toEqual([]);
    expect(checkOfferedTimesBookable(history(409, [{ ...write, tenant: 'B' }]))).toHaveLength(1);
    const lock = entry({ kind: 'lock', tableId: 't', deviceId: 'd', ttl: 300 }, 200, [12, 18]);
    expect(checkOfferedTimesBookable(history(409, [lock]))).toHaveLength(1);
    const before = entry({ kind: 'cancel', bookingId: 'b' }, 200, [-20, -5]);
    expect(checkOfferedTimesBookable(history(409, [before]))).toHaveLength(1);
  });

  it('excuses a settings change within the settings cache time before the search', () => {
    const settings = (at: [number, number]) =>
      entry({ kind: 'setSeating', reseat: true, turnTimes: [], shortenedMinMinutes: null }, 200, at);
    expect(checkOfferedTimesBookable(history(409, [settings([-5_000, -4_990])]))).toEqual([]);
    expect(checkOfferedTimesBookable(history(409, [settings([-15_000, -14_990])]))).toHaveLength(1);
  });
});
