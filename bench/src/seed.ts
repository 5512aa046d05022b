/** Test data, created through the public REST API like a client would (in parallel, bounded). */
import { mapLimit, type Api } from './api.js';

export interface Table {
  id: string;
  seats: number;
  salaId: string | null;
}

const SEATS = [2, 4, 4, 6, 8];

/** `rooms` rooms, then `tables` tables spread over them round-robin (no room when `rooms` is 0). */
export async function seedTables(api: Api, options: { rooms: number; tables: number }): Promise<Table[]> {
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
      const salaId = rooms.length > 0 ? rooms[i % rooms.length]!.id : null;
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
