import { describe, expect, it } from 'vitest';
import { ApiError, type Api } from '../api.js';
import type { BookingRequest, Demand, WalkIn } from './demand.js';
import { replayEvening } from './replay.js';
import { restaurant } from './restaurant.js';
import type { VirtualClock } from './virtual-clock.js';

/**
 * The replay driver's decisions (what it calls, when, and how it counts), against a scripted service: the
 * service's own behaviour is what scenario 8 measures on the real thing; here only the driver is under test.
 */
function scriptedService(quotes: Record<string, number>) {
  const calls: string[] = [];
  let clockMs = 0;
  let tableFree = false;
  const clock: VirtualClock = {
    async set(ms) {
      if (ms < clockMs) throw new Error('clock went back');
      clockMs = ms;
    },
    read: async () => clockMs,
  };
  const refuse = (path: string, code: string) => {
    const body = JSON.stringify({ error: { code } });
    return new ApiError(`POST ${path} → 409: ${body}`, 409, body);
  };
  const minute = () => new Date(clockMs).toISOString().slice(11, 16);
  const api: Api = {
    baseUrl: 'http://scripted',
    token: 't',
    async call<T>(method: string, path: string, body?: unknown): Promise<T> {
      calls.push(`${minute()} ${method} ${path}`);
      const b = (body ?? {}) as Record<string, unknown>;
      if (path === '/api/tavoli/verifica-disponibilita') return { availableTables: [{ id: 't1' }] } as T;
      if (method === 'POST' && path === '/api/prenotazioni') {
        return { id: String(b.customerName), tableIds: ['t1'] } as T;
      }
      if (method === 'GET' && path.startsWith('/api/prenotazioni/')) return { tableIds: ['t1'] } as T;
      if (path.endsWith('/stato') && b.nuovoStato === 'completata') tableFree = true;
      if (method === 'POST' && path === '/api/attesa') {
        const name = String(b.customerName);
        return { id: name, quotedMinutes: quotes[name] ?? 0 } as T;
      }
      if (path.endsWith('/siedi')) {
        if (!tableFree) throw refuse(path, 'NO_TABLE_AVAILABLE');
        tableFree = false;
        return { id: 'x', prenotazioneId: `seated-${path.split('/')[3]}`, tableIds: ['t1'] } as T;
      }
      return {} as T;
    },
  };
  return { api, clock, calls };
}

const booking = (id: number, over: Partial<BookingRequest>): BookingRequest => ({
  kind: 'booking',
  id,
  covers: 2,
  requestAt: -1440,
  time: 19 * 60,
  cancelAt: null,
  noShow: false,
  stay: 60,
  flexibility: { toleranceMinutes: 0, shortestStayMinutes: 90 },
  ...over,
});
const walkIn = (id: number, over: Partial<WalkIn>): WalkIn => ({
  kind: 'walk-in',
  id,
  covers: 2,
  arriveAt: 19 * 60,
  patience: 30,
  stay: 60,
  ...over,
});

describe('seating replay driver', () => {
  it('books, cancels, seats, marks no-shows, and seats, balks or loses walk-ins by the rules', async () => {
    const demand: Demand = {
      bookings: [
        booking(0, {}),
        booking(1, { requestAt: -2000, cancelAt: -100 }),
        booking(2, { time: 20 * 60, noShow: true }),
      ],
      walkIns: [
        walkIn(0, { arriveAt: 19 * 60 + 10, patience: 45 }), // quoted 40: waits for the 20:00 departure
        walkIn(1, { arriveAt: 19 * 60 + 20, patience: 20 }), // quoted 45 > 20: balks
        walkIn(2, { arriveAt: 19 * 60 + 30, patience: 10 }), // quoted 10: gives up at 19:30 + 10 + 15
      ],
      requestedSeatMinutes: 0,
    };
    const service = scriptedService({ 'Walk-in 0': 40, 'Walk-in 1': 45, 'Walk-in 2': 10 });
    const result = await replayEvening({
      api: service.api,
      clock: service.clock,
      spec: restaurant(),
      demand,
      policy: 'first-listed',
      date: '2031-01-13',
      timeZone: 'Europe/Rome',
      readDay: async () => [],
    });
    expect(result).toMatchObject({ requests: 3, booked: 3, refused: 0, cancelled: 1, noShows: 1, errors: 0 });
    expect(result.walkIns).toEqual([
      { covers: 2, quotedMinutes: 40, outcome: 'seated', waitedMinutes: 50 },
      { covers: 2, quotedMinutes: 45, outcome: 'balked', waitedMinutes: null },
      { covers: 2, quotedMinutes: 10, outcome: 'reneged', waitedMinutes: null },
    ]);
    const at = (hhmm: string) => service.calls.filter((c) => c.startsWith(hhmm)).map((c) => c.slice(6));
    // Rome is UTC+1 in January: 19:00 local = 18:00Z.
    expect(at('18:00')).toEqual(['GET /api/prenotazioni/Ospite 0', 'PUT /api/tavoli/t1/status']);
    expect(at('18:20')).toEqual(['POST /api/attesa', 'POST /api/attesa/Walk-in 1/annulla']);
    expect(at('18:55')).toEqual(['POST /api/attesa/Walk-in 2/annulla']);
    expect(at('19:00')).toEqual([
      'POST /api/prenotazioni/Ospite 0/stato',
      'PUT /api/tavoli/t1/status',
      'POST /api/attesa/Walk-in 0/siedi',
    ]);
    expect(at('19:15')).toEqual(['POST /api/prenotazioni/Ospite 2/stato']);
    // The seated walk-in leaves after its stay, like a booked party.
    expect(at('20:00')).toEqual([
      'POST /api/prenotazioni/seated-Walk-in 0/stato',
      'PUT /api/tavoli/t1/status',
    ]);
  });

  it('reports walk-ins as not run when the waitlist API is missing, and goes on', async () => {
    const service = scriptedService({});
    const call = service.api.call.bind(service.api);
    service.api.call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
      if (path === '/api/attesa') {
        const text = JSON.stringify({ error: { code: 'NOT_FOUND' } });
        throw new ApiError(`POST /api/attesa → 404: ${text}`, 404, text);
      }
      return call<T>(method, path, body);
    };
    const result = await replayEvening({
      api: service.api,
      clock: service.clock,
      spec: restaurant(),
      demand: {
        bookings: [booking(0, {})],
        walkIns: [walkIn(0, {}), walkIn(1, {})],
        requestedSeatMinutes: 0,
      },
      policy: 'first-listed',
      date: '2031-01-13',
      timeZone: 'Europe/Rome',
      readDay: async () => [],
    });
    expect(result.waitlistMissing).toBe('POST /api/attesa → 404 NOT_FOUND');
    expect(result.walkIns.map((w) => w.outcome)).toEqual(['failed', 'failed']);
    expect(result).toMatchObject({ booked: 1, errors: 0 });
  });
});
