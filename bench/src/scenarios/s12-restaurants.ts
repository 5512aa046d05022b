/**
 * Scenario 12's restaurants and the waiter mix over them. A restaurant is a room with its tables and its bookings
 * of one day (a day of its own: restaurant i's day is DAY + i days), seeded through the public API (REST and
 * /graphql). The same restaurants either each under a tenant of its own or all under one tenant (as rooms of one
 * chain): the mix reads and writes the same rows of a restaurant per request in both cases.
 */
import { createApi, mapLimit, type Api } from '../api.js';
import type { RequestSpec } from '../load-types.js';

export const TABLES_PER_RESTAURANT = 10;
/** At most 5 (one an hour from 18:00). */
export const BOOKINGS_PER_RESTAURANT = 5;
/** Restaurant 0's day; restaurant i's is i days later. */
const DAY = Date.UTC(2031, 2, 14);
/** The batch endpoint's limit. */
const BATCH_ITEMS = 500;

export interface Restaurant {
  token: string;
  roomId: string;
  day: string;
  tableIds: string[];
  bookingIds: string[];
}

export const dayOf = (index: number) => new Date(DAY + index * 86_400_000).toISOString().slice(0, 10);

/** The room and its tables: the tables in one GraphQL document (aliased mutations, run in order). */
async function seedRoom(api: Api, index: number): Promise<{ roomId: string; tableIds: string[] }> {
  const room = await api.call<{ id: string }>('POST', '/api/sale', {
    codice: `SALA${index}`,
    descrizione: `Sala ${index}`,
  });
  const fields = Array.from(
    { length: TABLES_PER_RESTAURANT },
    (_, t) => `t${t}: createTavolo(input: { name: "T${t + 1}", seats: 4, salaId: $sala }) { id }`,
  );
  const answer = await api.call<{ data?: Record<string, { id: string }>; errors?: unknown[] }>(
    'POST',
    '/graphql',
    { query: `mutation SeedTables($sala: ID!) { ${fields.join(' ')} }`, variables: { sala: room.id } },
  );
  if (!answer.data || answer.errors)
    throw new Error(`s12: tables of room ${index}: ${JSON.stringify(answer)}`);
  const tableIds = Array.from({ length: TABLES_PER_RESTAURANT }, (_, t) => answer.data![`t${t}`]!.id);
  return { roomId: room.id, tableIds };
}

/** The bookings of `indexes`' days (BOOKINGS_PER_RESTAURANT each) through the batch endpoint, ids by restaurant. */
async function seedBookings(api: Api, indexes: readonly number[]): Promise<string[][]> {
  const items = indexes.flatMap((index) =>
    Array.from({ length: BOOKINGS_PER_RESTAURANT }, (_, b) => ({
      covers: 2,
      bookingDate: `${dayOf(index)}T${18 + b}:00:00`,
      customerName: `Ospite ${index}-${b}`,
    })),
  );
  const ids: string[] = [];
  for (let start = 0; start < items.length; start += BATCH_ITEMS) {
    const chunk = items.slice(start, start + BATCH_ITEMS);
    const answer = await api.call<{ created: number; results: Array<{ id?: string | null }> }>(
      'POST',
      '/api/prenotazioni/batch',
      { items: chunk },
    );
    if (answer.created !== chunk.length) throw new Error(`s12: batch at ${start}: ${answer.created} created`);
    ids.push(...answer.results.map((r) => r.id!));
  }
  return indexes.map((_, i) => ids.slice(i * BOOKINGS_PER_RESTAURANT, (i + 1) * BOOKINGS_PER_RESTAURANT));
}

/** Restaurants `indexes`, all under `token`'s tenant. */
async function seedUnder(baseUrl: string, token: string, indexes: readonly number[], inFlight: number) {
  const api = createApi(baseUrl, token);
  const rooms = await mapLimit(indexes, inFlight, (index) => seedRoom(api, index));
  const bookings = await seedBookings(api, indexes);
  return indexes.map((index, i): Restaurant => ({
    token,
    day: dayOf(index),
    ...rooms[i]!,
    bookingIds: bookings[i]!,
  }));
}

/** `count` restaurants, each under a tenant of its own (`tokens[i]`). */
export async function seedTenants(baseUrl: string, tokens: readonly string[], inFlight = 16) {
  return (await mapLimit(tokens, inFlight, (token, i) => seedUnder(baseUrl, token, [i], 1))).flat();
}

/** `count` restaurants, all under `token`'s tenant (a chain of rooms). */
export function seedChain(baseUrl: string, token: string, count: number, inFlight = 16) {
  const indexes = Array.from({ length: count }, (_, i) => i);
  return seedUnder(baseUrl, token, indexes, inFlight);
}

/**
 * The waiter app's mix over `restaurants`: its room's table list, a status change, one table, its day's bookings,
 * its room, a booking's notes moved forward. Request n of the run is table n mod (restaurants × tables)'s: every
 * `{{…}}` of one request reads the same n (http-load.ts), so the token and the ids always belong to one restaurant.
 */
export function mixOf(restaurants: readonly Restaurant[]): RequestSpec[] {
  const perTable = restaurants.flatMap((r) =>
    r.tableIds.map((id, i) => ({ r, id, booking: r.bookingIds[i % BOOKINGS_PER_RESTAURANT]! })),
  );
  const choices = {
    auth: perTable.map(({ r }) => `Bearer ${r.token}`),
    room: perTable.map(({ r }) => r.roomId),
    day: perTable.map(({ r }) => r.day),
    table: perTable.map(({ id }) => id),
    booking: perTable.map(({ booking }) => booking),
  };
  const headers = { authorization: '{{auth}}' };
  return [
    { method: 'GET', path: '/api/tavoli?salaId={{room}}', headers, choices },
    {
      method: 'PUT',
      path: '/api/tavoli/{{table}}/status',
      headers,
      body: '{"status":"occupied","orderId":"o-{{n}}"}',
      choices,
    },
    { method: 'GET', path: '/api/tavoli/{{table}}', headers, choices },
    { method: 'GET', path: '/api/prenotazioni?dal={{day}}&al={{day}}', headers, choices },
    { method: 'GET', path: '/api/sale/{{room}}', headers, choices },
    {
      method: 'PATCH',
      path: '/api/prenotazioni/{{booking}}',
      headers,
      body: '{"notes":"nota {{n}}"}',
      choices,
    },
  ];
}
