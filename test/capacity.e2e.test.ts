import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken, newTenantId } from '@coperto/testkit';
import { MODES, startStack } from './support/modes.js';
import type { Stack } from './support/stack.js';

interface Slot {
  start: string;
  end: string;
  startsAt: string;
  endsAt: string;
  maxCovers: number;
  coversBooked: number;
  coversSeated: number;
  coversAvailable: number;
  arrivals: number;
}

const DEFAULT_DAY = [
  { open: '12:00', close: '15:00' },
  { open: '19:00', close: '23:00' },
];

/** Day of the week of a local date, 0 = Sunday. */
const weekdayOf = (date: string) => new Date(`${date}T12:00:00Z`).getUTCDay();

describe.each(MODES)('capacity (%s mode)', (mode) => {
  let stack: Stack;
  let staff: string;
  let admin: string;

  beforeAll(async () => {
    stack = await startStack(mode);
    const tenant = newTenantId();
    staff = await mintToken({ tenantId: tenant });
    admin = await mintToken({ tenantId: tenant, admin: true });
  });
  afterAll(async () => stack?.close());

  /** A fresh tenant with a staff and an administrator token. */
  const newTenant = async () => {
    const tenantId = newTenantId();
    return {
      staff: await mintToken({ tenantId }),
      admin: await mintToken({ tenantId, admin: true }),
    };
  };
  const putConfig = (body: unknown, as = admin) =>
    stack.api('PUT', '/api/capacity/config', { token: as, body });
  const createCategory = (body: unknown, as = admin) =>
    stack.api('POST', '/api/capacity/categories', { token: as, body });
  const slotsOf = async (date: string, as = staff) => {
    const res = await stack.api('GET', `/api/capacity/slots?date=${date}`, { token: as });
    expect(res.status).toBe(200);
    return res.body as Slot[];
  };

  describe('slot settings', () => {
    it('gives the defaults until an administrator saves settings', async () => {
      const tenant = await newTenant();
      const res = await stack.api('GET', '/api/capacity/config', { token: tenant.staff });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        slotMinutes: 15,
        openingHours: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, intervals: DEFAULT_DAY })),
        maxCoversPerSlot: 40,
        defaultMealMinutes: 120,
        timeZone: 'Europe/Rome',
        turnTimes: [],
        reseat: true,
        reseatFreezeMinutes: 60,
        shortenedMinMinutes: null,
        // One reminder a day before, until saved (decisions: capacity config promemoria|reminders, default [{24}]).
        promemoria: [{ orePrima: 24 }],
        reminders: [{ hoursBefore: 24 }],
        remindersUpdatedAt: null,
        customized: false,
        updatedAt: null,
      });
    });

    it('applies a new default stay to the next bookings within moments, not once a kept copy expires', async () => {
      const tenant = await newTenant();
      let minute = 0;
      const pad = (n: number) => String(n).padStart(2, '0');
      /** The stay a new booking without durationMinutes is held for (its effective duration), each at a new time. */
      const stayOfNewBooking = async () => {
        const res = await stack.graphql(
          tenant.staff,
          'mutation ($input: PrenotazioneInput!) { createPrenotazione(input: $input) { effectiveDurationMinutes } }',
          {
            input: {
              covers: 2,
              bookingDate: `2027-03-10T${pad(12 + Math.floor(minute / 60))}:${pad(minute++ % 60)}`,
              customerName: 'Rossi',
            },
          },
        );
        expect(res.body.errors, JSON.stringify(res.body)).toBeUndefined();
        return res.body.data.createPrenotazione.effectiveDurationMinutes as number;
      };
      expect(await stayOfNewBooking()).toBe(120);
      expect((await putConfig({ defaultMealMinutes: 75 }, tenant.admin)).status).toBe(200);
      // prenotazione forgets its copy when capacity's change event arrives (the outbox relay: milliseconds); its
      // copy is otherwise kept an hour (it was 10 s before the event was heard).
      const deadline = Date.now() + 5_000;
      let stay = await stayOfNewBooking();
      while (stay !== 75 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
        stay = await stayOfNewBooking();
      }
      expect(stay).toBe(75);
    });

    it('saves the fields sent, replaces only the weekdays sent, and reads them back', async () => {
      const tenant = await newTenant();
      const saved = await putConfig(
        {
          slotMinutes: 30,
          maxCoversPerSlot: 25,
          timeZone: 'europe/rome',
          openingHours: [
            { weekday: 1, intervals: [] },
            {
              weekday: 5,
              intervals: [
                { open: '19:00', close: '24:00' },
                { open: '11:30', close: '14:30' },
              ],
            },
          ],
          tenantId: 'someone-else',
        },
        tenant.admin,
      );
      expect(saved.status).toBe(200);
      expect(saved.body).toMatchObject({
        slotMinutes: 30,
        maxCoversPerSlot: 25,
        defaultMealMinutes: 120,
        timeZone: 'Europe/Rome',
        customized: true,
      });
      expect(saved.body.openingHours[1]).toEqual({ weekday: 1, intervals: [] });
      expect(saved.body.openingHours[5]).toEqual({
        weekday: 5,
        intervals: [
          { open: '11:30', close: '14:30' },
          { open: '19:00', close: '24:00' },
        ],
      });
      expect(saved.body.openingHours[0]).toEqual({ weekday: 0, intervals: DEFAULT_DAY });
      expect(Date.parse(saved.body.updatedAt)).not.toBeNaN();

      const read = await stack.api('GET', '/api/capacity/config', { token: tenant.staff });
      expect(read.body).toEqual(saved.body);

      const again = await putConfig({ defaultMealMinutes: 90, timeZone: 'America/New_York' }, tenant.admin);
      expect(again.body).toMatchObject({
        slotMinutes: 30,
        maxCoversPerSlot: 25,
        defaultMealMinutes: 90,
        timeZone: 'America/New_York',
      });
      expect(again.body.openingHours).toEqual(saved.body.openingHours);
    });

    it.each([
      [{ slotMinutes: 0 }, 'slotMinutes'],
      [{ slotMinutes: 241 }, 'slotMinutes'],
      [{ slotMinutes: 'quarter' }, 'slotMinutes'],
      [{ maxCoversPerSlot: -1 }, 'maxCoversPerSlot'],
      [{ defaultMealMinutes: 0 }, 'defaultMealMinutes'],
      [{ timeZone: 'Mars/Olympus' }, 'timeZone'],
      [{ timeZone: '+02:00' }, 'timeZone'],
      [{ slotMinutes: null }, 'slotMinutes'],
      [{ openingHours: [{ weekday: 1, intervals: [{ open: '7:00', close: '12:00' }] }] }, 'open'],
      [{ openingHours: [{ weekday: 1, intervals: [{ open: '12:00', close: '12:75' }] }] }, 'close'],
      [{ openingHours: [{ weekday: 1, intervals: [{ open: '23:00', close: '01:00' }] }] }, 'close'],
      [
        {
          openingHours: [
            {
              weekday: 1,
              intervals: [
                { open: '12:00', close: '15:00' },
                { open: '14:00', close: '16:00' },
              ],
            },
          ],
        },
        'intervals',
      ],
      [{ openingHours: [{ weekday: 7, intervals: [] }] }, 'weekday'],
      [{ openingHours: [{ intervals: [] }] }, 'weekday'],
    ])('refuses %j with 400 naming %s, and changes nothing', async (body, field) => {
      const tenant = await newTenant();
      const res = await putConfig(body, tenant.admin);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(JSON.stringify(res.body.error.details)).toContain(field);
      expect((await stack.api('GET', '/api/capacity/config', { token: tenant.staff })).body.customized).toBe(
        false,
      );
    });

    it('lets every staff member read but only an administrator change (403)', async () => {
      const denied = await putConfig({ slotMinutes: 20 }, staff);
      expect(denied.status).toBe(403);
      expect(denied.body.error.code).toBe('FORBIDDEN');
      const read = await stack.api('GET', '/api/capacity/config', { token: staff });
      expect(read.status).toBe(200);
      expect(read.body.slotMinutes).not.toBe(20);
    });

    it('is readable and writable through GraphQL as well', async () => {
      const tenant = await newTenant();
      const mutation = await stack.graphql(
        tenant.admin,
        'mutation { updateSlotConfig(input: { maxCoversPerSlot: 12 }) { maxCoversPerSlot customized } }',
      );
      expect(mutation.body.data.updateSlotConfig).toEqual({ maxCoversPerSlot: 12, customized: true });
      const forbidden = await stack.graphql(
        tenant.staff,
        'mutation { updateSlotConfig(input: { maxCoversPerSlot: 1 }) { maxCoversPerSlot } }',
      );
      expect(forbidden.body.errors[0].extensions.code).toBe('FORBIDDEN');
      const query = await stack.graphql(tenant.staff, '{ slotConfig { maxCoversPerSlot timeZone } }');
      expect(query.body.data.slotConfig).toEqual({ maxCoversPerSlot: 12, timeZone: 'Europe/Rome' });
    });
  });

  describe('production categories', () => {
    it('creates, lists by name, reads, updates and deletes a category', async () => {
      const tenant = await newTenant();
      const pizzeria = await createCategory({ name: '  Pizzeria ', capacityPerSlot: 30 }, tenant.admin);
      expect(pizzeria.status).toBe(201);
      expect(pizzeria.body).toMatchObject({ name: 'Pizzeria', capacityPerSlot: 30 });
      expect(pizzeria.body.id).toEqual(expect.any(String));
      expect(pizzeria.body.createdAt).toBe(pizzeria.body.updatedAt);
      const griglia = (await createCategory({ name: 'griglia', capacityPerSlot: 0 }, tenant.admin)).body;

      const list = await stack.api('GET', '/api/capacity/categories', { token: tenant.staff });
      expect(list.body.map((c: { name: string }) => c.name)).toEqual(['griglia', 'Pizzeria']);

      const id = pizzeria.body.id as string;
      const read = await stack.api('GET', `/api/capacity/categories/${id}`, { token: tenant.staff });
      expect(read.body).toEqual(pizzeria.body);
      const patched = await stack.api('PATCH', `/api/capacity/categories/${id}`, {
        token: tenant.admin,
        body: { capacityPerSlot: 45 },
      });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ id, name: 'Pizzeria', capacityPerSlot: 45 });
      const renamed = await stack.api('PATCH', `/api/capacity/categories/${id}`, {
        token: tenant.admin,
        body: { name: 'Forno' },
      });
      expect(renamed.body).toMatchObject({ name: 'Forno', capacityPerSlot: 45 });

      const deleted = await stack.api('DELETE', `/api/capacity/categories/${griglia.id}`, {
        token: tenant.admin,
      });
      expect(deleted.body).toEqual({ id: griglia.id, deleted: true });
      expect(
        (await stack.api('GET', `/api/capacity/categories/${griglia.id}`, { token: tenant.staff })).status,
      ).toBe(404);
      expect(
        (await stack.api('DELETE', `/api/capacity/categories/${griglia.id}`, { token: tenant.admin })).status,
      ).toBe(404);
      const after = await stack.api('GET', '/api/capacity/categories', { token: tenant.staff });
      expect(after.body.map((c: { name: string }) => c.name)).toEqual(['Forno']);
    });

    it('refuses a name already taken in the tenant (409, case-insensitive) but not in another tenant', async () => {
      const tenant = await newTenant();
      expect((await createCategory({ name: 'Pasticceria', capacityPerSlot: 5 }, tenant.admin)).status).toBe(
        201,
      );
      const duplicate = await createCategory({ name: ' pasticceria', capacityPerSlot: 9 }, tenant.admin);
      expect(duplicate.status).toBe(409);
      expect(duplicate.body.error).toMatchObject({ code: 'DUPLICATE', details: { field: 'name' } });

      const other = (await createCategory({ name: 'Friggitoria', capacityPerSlot: 5 }, tenant.admin)).body;
      const rename = await stack.api('PATCH', `/api/capacity/categories/${other.id}`, {
        token: tenant.admin,
        body: { name: 'PASTICCERIA' },
      });
      expect(rename.status).toBe(409);
      expect(rename.body.error.code).toBe('DUPLICATE');

      const elsewhere = await newTenant();
      expect(
        (await createCategory({ name: 'Pasticceria', capacityPerSlot: 5 }, elsewhere.admin)).status,
      ).toBe(201);
    });

    it.each([
      [{ capacityPerSlot: 5 }, 'name'],
      [{ name: '   ', capacityPerSlot: 5 }, 'name'],
      [{ name: 'x'.repeat(101), capacityPerSlot: 5 }, 'name'],
      [{ name: 'Crudi' }, 'capacityPerSlot'],
      [{ name: 'Crudi', capacityPerSlot: -1 }, 'capacityPerSlot'],
      [{ name: 'Crudi', capacityPerSlot: 2.5 }, 'capacityPerSlot'],
      [{ name: 'Crudi', capacityPerSlot: '10' }, 'capacityPerSlot'],
    ])('refuses %j with 400 naming %s', async (body, field) => {
      const res = await createCategory(body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(JSON.stringify(res.body.error.details)).toContain(field);
    });

    it('lets staff read categories but only an administrator write them (403)', async () => {
      const category = (await createCategory({ name: `Staff ${Math.random()}`, capacityPerSlot: 3 })).body;
      const writes: Array<[string, string, unknown]> = [
        ['POST', '/api/capacity/categories', { name: 'Nuova', capacityPerSlot: 1 }],
        ['PATCH', `/api/capacity/categories/${category.id}`, { capacityPerSlot: 99 }],
        ['DELETE', `/api/capacity/categories/${category.id}`, undefined],
      ];
      for (const [method, path, body] of writes) {
        const res = await stack.api(method, path, { token: staff, body });
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(res.body.error.code).toBe('FORBIDDEN');
      }
      const read = await stack.api('GET', `/api/capacity/categories/${category.id}`, { token: staff });
      expect(read.body).toEqual(category);
    });

    it("answers 404 for another tenant's category, even to its administrator", async () => {
      const category = (await createCategory({ name: `Privata ${Math.random()}`, capacityPerSlot: 3 })).body;
      const foreign = await newTenant();
      const attempts: Array<[string, unknown]> = [
        ['GET', undefined],
        ['PATCH', { capacityPerSlot: 1 }],
        ['DELETE', undefined],
      ];
      for (const [method, body] of attempts) {
        const res = await stack.api(method, `/api/capacity/categories/${category.id}`, {
          token: foreign.admin,
          body,
        });
        expect(res.status, method).toBe(404);
        expect(res.body.error.code).toBe('NOT_FOUND');
      }
      const list = await stack.api('GET', '/api/capacity/categories', { token: foreign.staff });
      expect(list.body).toEqual([]);
      expect(
        (await stack.api('GET', `/api/capacity/categories/${category.id}`, { token: staff })).body,
      ).toEqual(category);
    });
  });

  describe('slots', () => {
    const DATE = '2027-04-14';

    it('counts the covers of the active bookings arriving in each slot', async () => {
      const tenant = await newTenant();
      const saved = await putConfig(
        {
          slotMinutes: 30,
          maxCoversPerSlot: 10,
          openingHours: [{ weekday: weekdayOf(DATE), intervals: [{ open: '19:00', close: '21:00' }] }],
        },
        tenant.admin,
      );
      expect(saved.status).toBe(200);
      const book = async (time: string, covers: number, date = DATE) => {
        const res = await stack.api('POST', '/api/prenotazioni', {
          token: tenant.staff,
          body: { covers, bookingDate: `${date}T${time}`, customerName: `Ospite ${time}` },
        });
        expect(res.status).toBe(201);
        return res.body as { id: string };
      };
      await book('19:00', 4);
      await book('19:29', 3);
      await book('19:45', 2);
      await book('20:00', 12); // overbooked slot
      const cancelled = await book('20:30', 5);
      await book('18:00', 6); // before opening: in no slot
      await book('21:00', 6); // at closing: in no slot
      await book('19:00', 8, '2027-04-15'); // another day
      const annulla = await stack.api('POST', `/api/prenotazioni/${cancelled.id}/annulla`, {
        token: tenant.staff,
        body: { motivo: 'cambio programma' },
      });
      expect(annulla.status).toBe(200);

      const slots = await slotsOf(DATE, tenant.staff);
      expect(slots).toEqual([
        {
          start: `${DATE}T19:00:00`,
          end: `${DATE}T19:30:00`,
          startsAt: `${DATE}T17:00:00.000Z`,
          endsAt: `${DATE}T17:30:00.000Z`,
          maxCovers: 10,
          coversBooked: 7,
          coversAvailable: 3,
          // no production category limits the kitchen here: pacing alone says what is bookable
          kitchenCovers: null,
          coversBookable: 3,
          arrivals: 2,
          // the default meal of 120 minutes: 19:00 and 19:29 arrivals, and the 18:00 one until 20:00
          coversSeated: 13,
        },
        expect.objectContaining({
          start: `${DATE}T19:30:00`,
          coversBooked: 2,
          coversAvailable: 8,
          arrivals: 1,
          coversSeated: 15,
        }),
        expect.objectContaining({
          start: `${DATE}T20:00:00`,
          coversBooked: 12,
          coversAvailable: 0,
          arrivals: 1,
          coversSeated: 21,
        }),
        expect.objectContaining({
          start: `${DATE}T20:30:00`,
          coversBooked: 0,
          coversAvailable: 10,
          arrivals: 0,
          coversSeated: 21, // the cancelled 20:30 booking is not seated
        }),
      ]);
    });

    it('seats a booking for the duration stored when it was made, not the default meal of today', async () => {
      const tenant = await newTenant();
      const configure = (defaultMealMinutes: number) =>
        putConfig(
          {
            slotMinutes: 60,
            defaultMealMinutes,
            openingHours: [{ weekday: weekdayOf(DATE), intervals: [{ open: '19:00', close: '22:00' }] }],
          },
          tenant.admin,
        );
      expect((await configure(60)).status).toBe(200);
      const res = await stack.api('POST', '/api/prenotazioni', {
        token: tenant.staff,
        body: { covers: 4, bookingDate: `${DATE}T19:00`, customerName: 'Ospite stored' },
      });
      expect(res.status).toBe(201);
      // a longer default afterwards does not lengthen the stay fixed with the booking (60 minutes)
      expect((await configure(180)).status).toBe(200);
      const seated = (await slotsOf(DATE, tenant.staff)).map((s) => s.coversSeated);
      expect(seated).toEqual([4, 0, 0]);
    });

    it('counts the covers seated in each slot: own duration, the default meal, a party from the evening before', async () => {
      const tenant = await newTenant();
      const saved = await putConfig(
        {
          slotMinutes: 60,
          defaultMealMinutes: 90,
          openingHours: [{ weekday: weekdayOf(DATE), intervals: [{ open: '00:00', close: '02:00' }] }],
        },
        tenant.admin,
      );
      expect(saved.status).toBe(200);
      const book = async (bookingDate: string, covers: number, durationMinutes?: number) => {
        const res = await stack.api('POST', '/api/prenotazioni', {
          token: tenant.staff,
          body: { covers, bookingDate, customerName: `Ospite ${bookingDate}`, durationMinutes },
        });
        expect(res.status).toBe(201);
      };
      await book('2027-04-13T23:30:00', 5, 60); // the evening before, seated until 00:30
      await book(`${DATE}T00:15:00`, 2); // the default 90 minutes: until 01:45
      await book(`${DATE}T00:30:00`, 3, 30); // until 01:00: touching the next slot only
      const slots = await slotsOf(DATE, tenant.staff);
      expect(slots.map((s) => [s.start.slice(11, 16), s.coversBooked, s.coversSeated])).toEqual([
        ['00:00', 5, 10],
        ['01:00', 0, 2],
      ]);
    });

    it('gives the default slots of a day without bookings, and none on a closed day', async () => {
      const tenant = await newTenant();
      const slots = await slotsOf(DATE, tenant.staff);
      expect(slots).toHaveLength(28);
      expect(slots.every((s) => s.coversBooked === 0 && s.coversAvailable === 40)).toBe(true);
      await putConfig({ openingHours: [{ weekday: weekdayOf(DATE), intervals: [] }] }, tenant.admin);
      expect(await slotsOf(DATE, tenant.staff)).toEqual([]);
    });

    it('has the usual local slots on both DST switch days, an hour apart in UTC', async () => {
      const tenant = await newTenant();
      const before = await slotsOf('2026-03-28', tenant.staff);
      const spring = await slotsOf('2026-03-29', tenant.staff);
      const autumn = await slotsOf('2026-10-25', tenant.staff);
      const labels = (slots: Slot[]) => slots.map((s) => s.start.slice(11));
      expect(labels(spring)).toEqual(labels(before));
      expect(labels(autumn)).toEqual(labels(before));
      expect([before, spring, autumn].map((s) => s[0]!.startsAt)).toEqual([
        '2026-03-28T11:00:00.000Z',
        '2026-03-29T10:00:00.000Z',
        '2026-10-25T11:00:00.000Z',
      ]);
      await putConfig(
        { openingHours: [{ weekday: 0, intervals: [{ open: '00:00', close: '24:00' }] }] },
        tenant.admin,
      );
      expect(await slotsOf('2026-03-29', tenant.staff)).toHaveLength(92);
      expect(await slotsOf('2026-10-25', tenant.staff)).toHaveLength(100);
    });

    it.each(['tomorrow', '2027-02-30', '14/04/2027', ''])('refuses the date %j with 400', async (date) => {
      const res = await stack.api('GET', `/api/capacity/slots?date=${encodeURIComponent(date)}`, {
        token: staff,
      });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(JSON.stringify(res.body.error.details)).toContain('date');
    });

    it("never counts another tenant's bookings or uses its settings", async () => {
      const mine = await newTenant();
      const theirs = await newTenant();
      await putConfig({ maxCoversPerSlot: 5 }, theirs.admin);
      const res = await stack.api('POST', '/api/prenotazioni', {
        token: theirs.staff,
        body: { covers: 4, bookingDate: `${DATE}T12:00`, customerName: 'Altro' },
      });
      expect(res.status).toBe(201);
      const [theirFirst] = await slotsOf(DATE, theirs.staff);
      expect(theirFirst).toMatchObject({ coversBooked: 4, coversAvailable: 1 });
      const [myFirst] = await slotsOf(DATE, mine.staff);
      expect(myFirst).toMatchObject({ coversBooked: 0, coversAvailable: 40 });
      expect(
        (await stack.api('GET', '/api/capacity/config', { token: mine.staff })).body.maxCoversPerSlot,
      ).toBe(40);
    });
  });

  it('answers 401 with WWW-Authenticate without a valid token, on every route', async () => {
    const expired = await mintToken({ tenantId: newTenantId(), admin: true, expiresIn: -60 });
    const routes: Array<[string, string]> = [
      ['GET', '/api/capacity/config'],
      ['PUT', '/api/capacity/config'],
      ['GET', '/api/capacity/categories'],
      ['POST', '/api/capacity/categories'],
      ['GET', '/api/capacity/categories/x'],
      ['PATCH', '/api/capacity/categories/x'],
      ['DELETE', '/api/capacity/categories/x'],
      ['GET', '/api/capacity/slots?date=2027-04-14'],
    ];
    for (const [method, path] of routes) {
      for (const token of [undefined, expired]) {
        const res = await stack.api(method, path, { token, body: method === 'GET' ? undefined : {} });
        expect(res.status, `${method} ${path}`).toBe(401);
        expect(res.body.error.code).toBe('UNAUTHENTICATED');
        expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      }
    }
  });
});
