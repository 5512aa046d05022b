/** Test data, created through the public REST API like a client would (in parallel, bounded). */
import { ApiError, mapLimit, type Api } from './api.js';

export interface Table {
  id: string;
  seats: number;
  salaId: string | null;
}

const SEATS = [2, 4, 4, 6, 8];

/**
 * `rooms` rooms, then `tables` tables spread over them round-robin (no room when `rooms` is 0), or with `blocks`
 * in consecutive blocks (the first tables/rooms in the first room, and so on: each room has every table size).
 */
export async function seedTables(
  api: Api,
  options: { rooms: number; tables: number; blocks?: boolean },
): Promise<Table[]> {
  const rooms = await mapLimit(
    Array.from({ length: options.rooms }, (_, i) => i),
    8,
    (i) =>
      api.call<{ id: string }>('POST', '/api/sale', { codice: `SALA${i + 1}`, descrizione: `Sala ${i + 1}` }),
  );
  return mapLimit(
    Array.from({ length: options.tables }, (_, i) => i),
    16,
    async (i) => {
      const room = options.blocks ? Math.floor((i * rooms.length) / options.tables) : i % rooms.length;
      const salaId = rooms.length > 0 ? rooms[room]!.id : null;
      const created = await api.call<{ id: string; seats: number }>('POST', '/api/tavoli', {
        name: `T${String(i + 1).padStart(3, '0')}`,
        seats: SEATS[i % SEATS.length]!,
        ...(salaId ? { salaId } : {}),
      });
      return { id: created.id, seats: created.seats, salaId };
    },
  );
}

/** The day every availability booking is on (June: no DST change that day in Europe/Rome). */
export const BOOKING_DAY = '2030-06-14';
const SLOTS = Array.from({ length: 13 }, (_, i) => 10 + i); // 10:00 … 22:00, one hour each

/**
 * `perTable` one-hour bookings on each table on BOOKING_DAY, each holding its table (tableIds), never
 * overlapping: table i skips 13 − perTable of the 13 hourly slots, chosen by i, so at any hour some tables
 * are free. Returns the number created.
 */
export async function seedDayBookings(api: Api, tables: readonly Table[], perTable: number): Promise<number> {
  const skip = SLOTS.length - perTable;
  const plan = tables.flatMap((table, i) => {
    const skipped = new Set(Array.from({ length: skip }, (_, k) => (i + k * 4) % SLOTS.length));
    return SLOTS.filter((_, s) => !skipped.has(s)).map((hour) => ({ table, hour }));
  });
  await mapLimit(plan, 16, ({ table, hour }, n) =>
    api.call('POST', '/api/prenotazioni', {
      covers: 2,
      bookingDate: `${BOOKING_DAY}T${String(hour).padStart(2, '0')}:00:00`,
      durationMinutes: 60,
      customerName: `Ospite ${n}`,
      tableIds: [table.id],
    }),
  );
  return plan.length;
}

/** Parties of auto-assigned bookings, cycled: mostly couples and fours, some larger tables. */
const PARTIES = [2, 2, 4, 3, 2, 6, 4, 5, 2, 8, 4, 7];
/** June in Europe/Rome (the bench's RESTAURANT_TIMEZONE) is UTC+2: the wall clock a booking's bookingDate takes. */
const ROME_SUMMER_MS = 2 * 3_600_000;

/**
 * `perDay` auto-assigned bookings on each day, parties of 2–8 over the day's slots (capacity's `startsAt`, June
 * dates), as guests book (POST /api/prenotazioni with autoAssign); a refusal (no table left) is counted, not an
 * error. The k-th booking of a day takes slot (k × stride) mod the slots: a stride sharing no factor with the
 * number of slots spreads them over every slot (7 over the default 28 slots uses 4 of them, as scenario 10 was
 * measured).
 */
export async function seedAutoAssigned(
  api: Api,
  daySlots: ReadonlyArray<ReadonlyArray<{ startsAt: string }>>,
  perDay: number,
  stride = 7,
): Promise<{ created: number; refused: number }> {
  const plan = daySlots.flatMap((slots) =>
    Array.from({ length: perDay }, (_, k) => ({
      startsAt: slots[(k * stride) % slots.length]!.startsAt,
      covers: PARTIES[k % PARTIES.length]!,
    })),
  );
  let refused = 0;
  await mapLimit(plan, 8, async ({ startsAt, covers }, n) => {
    try {
      await api.call('POST', '/api/prenotazioni', {
        autoAssign: true,
        bookingDate: new Date(Date.parse(startsAt) + ROME_SUMMER_MS).toISOString().slice(0, 19),
        covers,
        customerName: `Ospite ${n}`,
      });
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 409) throw error;
      refused++;
    }
  });
  return { created: plan.length - refused, refused };
}
