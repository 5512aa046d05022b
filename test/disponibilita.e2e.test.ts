import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mintToken, newTenantId } from '@coperto/testkit';
import { MODES, startStack } from './support/modes.js';
import type { Stack } from './support/stack.js';

interface OfferedTime {
  ora: string;
  time: string;
  dataOra: string;
  bookingDate: string;
  durataMinuti: number;
  durationMinutes: number;
  ridotto: boolean;
  shortened: boolean;
  postiLiberi: number;
  spotsOpen: number;
  tableIds: string[] | null;
  combinationId: string | null;
}

/**
 * Availability over times through the REST facade as a client uses it (docs/availability.md): the day's times
 * for a party, nearest first, pacing, shortened seatings, and the guarantee that an offered time can be booked.
 */
describe.each(MODES)('GET /api/disponibilita (%s mode)', (mode) => {
  let stack: Stack;
  let token: string;
  let admin: string;
  let day = 0;

  beforeAll(async () => {
    stack = await startStack(mode);
  });
  afterAll(async () => stack?.close());
  beforeEach(async () => {
    const tenant = newTenantId();
    token = await mintToken({ tenantId: tenant });
    admin = await mintToken({ tenantId: tenant, admin: true });
    day++;
  });

  const date = () => `2027-04-${String(day).padStart(2, '0')}`;
  const table = async (seats: number) =>
    (
      await stack.api('POST', '/api/tavoli', {
        token: admin,
        body: { name: `T${seats}-${Math.random()}`, seats },
      })
    ).body as { id: string };
  const configure = async (body: Record<string, unknown>) =>
    expect((await stack.api('PUT', '/api/capacity/config', { token: admin, body })).status).toBe(200);
  /** Dinner only, 19:00-23:00 every day: 16 slots of 15 minutes. */
  const dinner = () =>
    configure({
      openingHours: Array.from({ length: 7 }, (_, weekday) => ({
        weekday,
        intervals: [{ open: '19:00', close: '23:00' }],
      })),
    });
  const search = async (query: string) => {
    const res = await stack.api('GET', `/api/disponibilita?${query}`, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as {
      data: string;
      date: string;
      coperti: number;
      covers: number;
      postiTotali: number;
      spotsTotal: number;
      orari: OfferedTime[];
      times: OfferedTime[];
    };
  };
  const book = (body: Record<string, unknown>) =>
    stack.api('POST', '/api/prenotazioni', { token, body: { customerName: 'Guest', ...body } });

  it('answers every time of the day in order without ora, the nearest first with it, in both languages', async () => {
    await dinner();
    const t = await table(2);
    expect((await book({ covers: 2, bookingDate: `${date()}T20:00`, tableIds: [t.id] })).status).toBe(201);
    const all = await search(`data=${date()}&coperti=2`);
    expect(all).toMatchObject({
      data: date(),
      date: date(),
      coperti: 2,
      covers: 2,
      postiTotali: 1,
      spotsTotal: 1,
    });
    expect(all.orari).toEqual(all.times);
    // 120 minutes: 19:00..21:45 overlap the 20:00 booking except from 22:00
    expect(all.times.map((x) => x.time)).toEqual(['22:00', '22:15', '22:30', '22:45']);
    expect(all.times[0]).toEqual({
      ora: '22:00',
      time: '22:00',
      dataOra: `${date()}T22:00:00`,
      bookingDate: `${date()}T22:00:00`,
      durataMinuti: 120,
      durationMinutes: 120,
      ridotto: false,
      shortened: false,
      postiLiberi: 1,
      spotsOpen: 1,
      tableIds: [t.id],
      combinationId: null,
    });
    const near = await search(`date=${date()}&covers=2&time=22:20&limit=2`);
    expect(near.times.map((x) => x.time)).toEqual(['22:15', '22:30']);
    const capped = await search(`data=${date()}&coperti=2&limite=1`);
    expect(capped.times.map((x) => x.time)).toEqual(['22:00']);
  });

  it('refuses bad input with 400 naming the field', async () => {
    for (const [query, field] of [
      [`coperti=2`, 'date'],
      [`data=${date()}`, 'covers'],
      [`data=2027-02-30&coperti=2`, 'data'],
      [`data=${date()}&coperti=0`, 'coperti'],
      [`data=${date()}&coperti=2&ora=25:00`, 'ora'],
      [`data=${date()}&coperti=2&limite=51`, 'limite'],
    ] as const) {
      const res = await stack.api('GET', `/api/disponibilita?${query}`, { token });
      expect(res.status, query).toBe(400);
      const body = res.body as { error: { code: string; details: Array<{ field: string }> } };
      expect(body.error.code).toBe('VALIDATION_FAILED');
      expect(JSON.stringify(body.error.details), query).toContain(field);
    }
  });

  it('leaves out slots where pacing has no room for the party', async () => {
    await dinner();
    await configure({ maxCoversPerSlot: 4 });
    await table(4);
    await table(4);
    expect((await book({ covers: 3, bookingDate: `${date()}T19:00`, autoAssign: true })).status).toBe(201);
    const day = await search(`data=${date()}&coperti=2`);
    const times = day.times.map((x) => x.time);
    expect(times).not.toContain('19:00'); // 3 of 4 covers arrive at 19:00
    expect(times).toContain('19:15');
    // Two places for the party, one of them free while the 19:00 party sits.
    expect(day).toMatchObject({ postiTotali: 2, spotsTotal: 2 });
    expect(day.times.find((x) => x.time === '19:15')).toMatchObject({ postiLiberi: 1, spotsOpen: 1 });
    expect((await search(`data=${date()}&coperti=1`)).times.map((x) => x.time)).toContain('19:00');
  });

  it("asked for one room, offers only its places and counts pacing over every room's bookings, a new one at once", async () => {
    await dinner();
    await configure({ maxCoversPerSlot: 4 });
    const room = async (codice: string) =>
      ((await stack.api('POST', '/api/sale', { token: admin, body: { codice } })).body as { id: string }).id;
    const [a, b] = [await room(`A${day}`), await room(`B${day}`)];
    const inRoom = async (salaId: string) =>
      (
        (
          await stack.api('POST', '/api/tavoli', {
            token: admin,
            body: { name: `T-${salaId}`, seats: 4, salaId },
          })
        ).body as { id: string }
      ).id;
    const [ta, tb] = [await inRoom(a), await inRoom(b)];
    const before = await search(`data=${date()}&coperti=2&roomId=${a}`);
    expect(before).toMatchObject({ postiTotali: 1, spotsTotal: 1 });
    expect(before.times.map((x) => x.time)).toContain('19:00');
    expect(before.times.every((x) => x.tableIds?.join() === ta)).toBe(true);
    // Three covers arriving at 19:00 in the other room leave one of the slot's four: not enough for two.
    expect((await book({ covers: 3, bookingDate: `${date()}T19:00`, tableIds: [tb] })).status).toBe(201);
    const after = await search(`data=${date()}&coperti=2&roomId=${a}`);
    expect(after.times.map((x) => x.time)).not.toContain('19:00');
    expect(after.times.map((x) => x.time)).toContain('19:15');
  });

  it('offers a shortened seating until the table is needed back, and books it with that duration', async () => {
    await dinner();
    // set before the first search: prenotazione reads the settings at most 10 s old (docs/seating.md)
    await configure({ shortenedMinMinutes: 60 });
    const t = await table(2);
    expect((await book({ covers: 2, bookingDate: `${date()}T20:30`, tableIds: [t.id] })).status).toBe(201);
    const [short] = (await search(`data=${date()}&coperti=2&ora=19:15&limite=1`)).times;
    expect(short).toMatchObject({
      time: '19:15',
      ridotto: true,
      shortened: true,
      durataMinuti: 75,
      durationMinutes: 75,
    });
    const made = await book({
      covers: 2,
      bookingDate: short!.bookingDate,
      durationMinutes: short!.durationMinutes,
      autoAssign: true,
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ tableIds: [t.id], durationMinutes: 75 });
    // the capacity setting reads back, and null turns it off
    const config = await stack.api('GET', '/api/capacity/config', { token });
    expect(config.body).toMatchObject({ shortenedMinMinutes: 60 });
    await configure({ shortenedMinMinutes: null });
    expect((await stack.api('GET', '/api/capacity/config', { token })).body).toMatchObject({
      shortenedMinMinutes: null,
    });
    const off = await stack.api('PUT', '/api/capacity/config', {
      token: admin,
      body: { shortenedMinMinutes: 20 },
    });
    expect(off.status).toBe(400);
  });

  it('an offered time can be booked; taken meanwhile, the same booking is 409 NO_TABLE_AVAILABLE', async () => {
    await dinner();
    await table(4);
    const [first] = (await search(`data=${date()}&coperti=4&ora=20:00&limite=1`)).times;
    expect(first).toMatchObject({ time: '20:00' });
    const offered = { covers: 4, bookingDate: first!.bookingDate, autoAssign: true };
    expect((await book(offered)).status).toBe(201);
    const again = await book(offered);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: { code: 'NO_TABLE_AVAILABLE' } });
    const next = (await search(`data=${date()}&coperti=4&ora=20:00&limite=1`)).times;
    expect(next.map((x) => x.time)).not.toContain('20:00');
  });

  it('answers the same through GraphQL', async () => {
    await dinner();
    await table(2);
    const res = await stack.graphql(
      token,
      `query($date: LocalDate) { disponibilita(date: $date, covers: 2, time: "21:00", limit: 3) { date covers times { time shortened durationMinutes } } }`,
      { date: date() },
    );
    expect(res.body).toMatchObject({
      data: {
        disponibilita: {
          date: date(),
          covers: 2,
          times: [
            { time: '21:00', shortened: false, durationMinutes: 120 },
            { time: '20:45', shortened: false, durationMinutes: 120 },
            { time: '21:15', shortened: false, durationMinutes: 120 },
          ],
        },
      },
    });
  });
});
