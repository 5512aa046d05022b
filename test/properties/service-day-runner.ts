/**
 * Plays a generated service day (service-day-program.ts) through the public REST API, in a tenant of its own, and
 * returns what the truth (service-day-truth.ts) is computed from: what the test did, with the times the service
 * recorded for each status change (read back from each table's history, `GET /api/tavoli/<id>/storico`).
 */
import { mintToken, newTenantId } from '@coperto/testkit';
import type { Stack } from '../support/stack.js';
import { joinedInto, type DayPlan, type TurnPlan } from './service-day-program.js';
import type { TruthBooking, TruthDay, TruthTable, TruthTurn } from './service-day-truth.js';

const MINUTE = 60_000;
/**
 * The longest pause made to let turns straddle a whole minute (at most one a minute: when a day's parties are
 * seated in the last 8 s of one).
 */
const CROSSING_WAIT_MS = 8_000;
const DAY = 1440 * MINUTE;
/** How long the events may take to reach rapporti (its consumer lags on a loaded machine). */
export const SETTLE_MS = 30_000;

/** Zones without daylight saving, whole and half hours: the test picks one whose local hour is near midday. */
const ZONES = [
  'Pacific/Honolulu',
  'America/Phoenix',
  'America/Bogota',
  'America/Sao_Paulo',
  'Atlantic/Cape_Verde',
  'UTC',
  'Africa/Lagos',
  'Africa/Johannesburg',
  'Europe/Moscow',
  'Asia/Dubai',
  'Asia/Karachi',
  'Asia/Kolkata',
  'Asia/Dhaka',
  'Asia/Bangkok',
  'Asia/Shanghai',
  'Asia/Tokyo',
  'Australia/Brisbane',
  'Pacific/Noumea',
];

/** Minutes `zone` is ahead of UTC at `at` (from Intl's wall clock, not the service's code). */
export function offsetOf(zone: string, at: number): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).formatToParts(at);
  const part = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'));
  return Math.round((wall - Math.floor(at / MINUTE) * MINUTE) / MINUTE);
}

/** A zone whose local time now is between 09:00 and 15:59 (so the day's services fit one local date). */
export function zoneNearMidday(pick: number, at: number): string {
  const fitting = ZONES.filter((zone) => {
    const hour = Math.floor(((((at / MINUTE + offsetOf(zone, at)) % 1440) + 1440) % 1440) / 60);
    return hour >= 9 && hour <= 15;
  });
  return fitting[pick % fitting.length]!;
}

/** A status change the test asked for: what it gave, and which turn it belongs to (-1: none). */
interface Asked {
  stato: string;
  pax: number | null;
  amount: number | null;
  turn: number;
}

export interface PlayedDay {
  tenant: string;
  admin: string;
  staff: string;
  zone: string;
  rooms: string[];
  day: Omit<TruthDay, 'now' | 'intervals' | 'dal' | 'al'>;
  /** The first and last recorded change (UTC ms). */
  span: { first: number; last: number };
}

type Ok = (method: string, path: string, body?: unknown, as?: string) => Promise<any>;

export async function playDay(stack: Stack, plan: DayPlan): Promise<PlayedDay> {
  const tenant = newTenantId();
  const staff = await mintToken({ tenantId: tenant });
  const admin = await mintToken({ tenantId: tenant, admin: true });
  const ok: Ok = async (method, path, body, as = staff) => {
    const res = await stack.api(method, path, { token: as, ...(body === undefined ? {} : { body }) });
    if (res.status >= 300) throw new Error(`${method} ${path} ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const zone = zoneNearMidday(plan.zone, Date.now());
  await ok(
    'PUT',
    '/api/capacity/config',
    { timeZone: zone, turnTimes: plan.turnRows, defaultMealMinutes: plan.defaultMealMinutes },
    admin,
  );
  const rooms: string[] = [];
  for (const codice of ['sala', 'dehors']) rooms.push((await ok('POST', '/api/sale', { codice })).id);
  const tables: TruthTable[] = [];
  for (const [i, t] of plan.tables.entries()) {
    const made = await ok('POST', '/api/tavoli', { name: `T${i}`, seats: t.seats, roomId: rooms[t.room] });
    tables.push({ id: made.id, seats: t.seats, active: true, roomId: rooms[t.room]! });
  }
  const bookings: TruthBooking[] = [];
  const now = Math.floor(Date.now() / MINUTE) * MINUTE;
  const book = async (at: number, covers: number, tableIds: string[], extra: object = {}) => {
    const made = await ok('POST', '/api/prenotazioni', {
      customerName: 'Ospite',
      covers,
      bookingDate: new Date(at).toISOString(),
      tableIds,
      ...extra,
    });
    const booking = { id: made.id, startsAt: at, covers, tableIds, state: made.state, walkIn: false };
    bookings.push(booking);
    return booking;
  };
  const moveTo = async (booking: TruthBooking, state: string) => {
    if (state === 'pending') return; // as made (pending, or confirmed at once)
    if (state === 'annullata') await ok('POST', `/api/prenotazioni/${booking.id}/annulla`, {});
    else {
      if (booking.state === 'pending') await ok('POST', `/api/prenotazioni/${booking.id}/conferma`, {});
      if (state !== 'confermata')
        await ok('POST', `/api/prenotazioni/${booking.id}/stato`, { nuovoStato: state });
    }
    booking.state = state;
  };
  // Bookings nobody sits at, first: those on a table release it at once (cancelled, no-show).
  for (const other of plan.others) {
    const tableIds = other.table === null ? [] : [tables[other.table]!.id];
    await moveTo(await book(now + other.minute * MINUTE, other.covers, tableIds), other.state);
  }
  // The bookings whose parties sit: a late one on its tables' first turn, an early one on their last.
  const seatedBookings = new Map<number, TruthBooking>();
  for (const [i, t] of plan.tables.entries()) {
    if (!t.booked) continue;
    const b = t.booked;
    const at = b.late ? now - b.minutes * MINUTE : now + MINUTE + b.minutes * MINUTE;
    const ids = [tables[i]!.id, ...(b.joinNext ? [tables[i + 1]!.id] : [])];
    const booking = await book(at, b.covers, ids, b.ownDuration ? { durationMinutes: b.ownDuration } : {});
    await moveTo(booking, 'confermata');
    seatedBookings.set(i, booking);
    if (b.joinNext) seatedBookings.set(i + 1, booking);
  }
  const asked = tables.map(() => [] as Asked[]);
  const turns: Array<Omit<TruthTurn, 'start' | 'end'>> = [];
  const status = async (
    table: number,
    stato: string,
    pax: number | null,
    amount: number | null,
    turn: number,
  ) => {
    await ok('PUT', `/api/tavoli/${tables[table]!.id}/status`, {
      status: stato,
      ...(pax === null ? {} : { pax }),
      ...(amount === null ? {} : { totalAmount: amount }),
    });
    asked[table]!.push({ stato, pax, amount, turn });
  };
  /** The steps of one turn at a table (each one request or two), in order. */
  const stepsOf = (
    table: number,
    party: TurnPlan,
    booking: TruthBooking | null,
    stays = false,
  ): Array<() => Promise<void>> => {
    const turn =
      turns.push({ tableId: tables[table]!.id, bookingId: booking?.id ?? null, pax: null, check: null }) - 1;
    const record = turns[turn]!;
    const givePax = (pax: number | null) => {
      if (pax !== null) record.pax = pax;
      return pax;
    };
    const steps: Array<() => Promise<void>> = [];
    if (party.reservedBefore) steps.push(() => status(table, 'reserved', null, null, -1));
    if (party.kind === 'waitlist' && !booking) {
      steps.push(async () => {
        const entry = await ok('POST', '/api/attesa', { customerName: 'Passante', covers: party.covers });
        const seated = await ok('POST', `/api/attesa/${entry.id}/siedi`, { tableIds: [tables[table]!.id] });
        const made = await ok('GET', `/api/prenotazioni/${seated.prenotazioneId}`);
        const walkIn = {
          id: made.id,
          startsAt: Date.parse(made.startsAt),
          covers: party.covers,
          tableIds: [tables[table]!.id],
          state: made.state,
          walkIn: true,
        };
        bookings.push(walkIn);
        record.bookingId = walkIn.id;
        // siedi sets the table occupied with the party's covers as pax.
        asked[table]!.push({ stato: 'occupied', pax: givePax(party.covers), amount: null, turn });
      });
    } else {
      steps.push(() => status(table, 'occupied', givePax(party.paxAtSeat ? party.covers : null), null, turn));
    }
    if (party.paxLater) steps.push(() => status(table, 'open', givePax(party.covers), null, turn));
    if (party.reoccupy) steps.push(() => status(table, 'occupied', null, null, turn));
    for (const cents of party.checks) {
      steps.push(() => {
        record.check = cents / 100;
        return status(table, 'payment_pending', null, cents / 100, turn);
      });
    }
    // A party still seated when the report is read: its turn has not ended.
    if (stays) return steps;
    steps.push(async () => {
      await status(table, party.leaveAs, null, null, turn);
      // A waitlist party's booking ends with it (its table is held for the next seating otherwise).
      const walkIn = bookings.find((b) => b.id === record.bookingId && b.walkIn);
      if (walkIn) await moveTo(walkIn, 'completata');
    });
    if (party.leaveAs === 'dirty' && party.cleaned) steps.push(() => status(table, 'free', null, null, -1));
    return steps;
  };
  /** Plays the tables' queues of steps round robin: the tables' changes interleave, as on a floor. */
  const roundRobin = async (queues: Array<Array<() => Promise<void>>>, afterFirstRound = async () => {}) => {
    for (let round = 0; queues.some((q) => q.length > 0); round++) {
      for (const q of queues) await q.shift()?.();
      if (round === 0) await afterFirstRound();
    }
  };
  /**
   * With the parties seated, a moment's pause when the clock is about to pass a whole minute: their turns then
   * straddle two of the one-minute services the test sets up (seat-minutes and checks split between them).
   */
  const acrossAMinute = async () => {
    const wait = MINUTE - (Date.now() % MINUTE);
    if (wait < CROSSING_WAIT_MS) await new Promise((resolve) => setTimeout(resolve, wait + 20));
  };
  const bookedTurn = (i: number) => plan.tables[i]!.booked ?? plan.tables[i - 1]!.booked!;
  const bookedOn = (late: boolean) =>
    plan.tables.map((_, i) => {
      const booking = seatedBookings.get(i);
      return booking && bookedTurn(i).late === late ? stepsOf(i, bookedTurn(i).turn, booking) : [];
    });
  await roundRobin(bookedOn(true), acrossAMinute);
  for (const [i, b] of seatedBookings)
    if (!joinedInto(plan.tables, i) && b.startsAt < now) await moveTo(b, 'completata');
  await roundRobin(
    plan.tables.map((t, i) => t.turns.flatMap((turn) => stepsOf(i, turn, null))),
    acrossAMinute,
  );
  await roundRobin(bookedOn(false), acrossAMinute);
  for (const [i, b] of seatedBookings)
    if (!joinedInto(plan.tables, i) && b.startsAt > now) await moveTo(b, 'completata');
  if (plan.stillSeated)
    await roundRobin([stepsOf(plan.stillSeated.table, plan.stillSeated.turn, null, true)], acrossAMinute);
  if (plan.deactivateLast) {
    await ok('PATCH', `/api/tavoli/${tables.at(-1)!.id}`, { attivo: false });
    tables.at(-1)!.active = false;
  }
  const recorded = await Promise.all(tables.map((t, i) => recordedTimes(ok, t.id, asked[i]!)));
  const times = recorded.flat();
  const truthTurns: TruthTurn[] = turns.map((turn, index) => {
    const table = tables.findIndex((t) => t.id === turn.tableId);
    const own = asked[table]!.map((a, k) => ({ ...a, at: recorded[table]![k]! })).filter(
      (a) => a.turn === index,
    );
    const last = own.at(-1)!;
    return {
      ...turn,
      start: own[0]!.at,
      end: last.stato === 'free' || last.stato === 'dirty' ? last.at : null,
    };
  });
  return {
    tenant,
    admin,
    staff,
    zone,
    rooms,
    day: {
      offsetMinutes: offsetOf(zone, times.length > 0 ? Math.min(...times) : Date.now()),
      turnRows: plan.turnRows,
      defaultMealMinutes: plan.defaultMealMinutes,
      tables,
      turns: truthTurns,
      bookings,
    },
    span:
      times.length > 0 ? { first: Math.min(...times), last: Math.max(...times) } : { first: now, last: now },
  };
}

/**
 * The times the service recorded for a table's changes, in the order the test made them: its history, once it
 * holds them all, must be exactly those changes (statuses, pax and amounts given).
 */
async function recordedTimes(ok: Ok, tableId: string, asked: readonly Asked[]): Promise<number[]> {
  const deadline = Date.now() + SETTLE_MS;
  for (;;) {
    const { storico } = await ok('GET', `/api/tavoli/${tableId}/storico?limite=500`);
    if (storico.length >= asked.length) {
      const oldestFirst = [...storico].reverse() as Array<{
        at: string;
        stato: string;
        pax: number | null;
        totalAmount: number | null;
      }>;
      const seen = oldestFirst.map((c) => c.stato);
      const wanted = asked.map((a) => a.stato);
      if (JSON.stringify(seen) !== JSON.stringify(wanted))
        throw new Error(
          `table ${tableId}'s history ${JSON.stringify(oldestFirst)} is not the changes made: ${wanted.join(', ')}`,
        );
      oldestFirst.forEach((c, k) => {
        const a = asked[k]!;
        if ((a.pax !== null && c.pax !== a.pax) || (a.amount !== null && c.totalAmount !== a.amount))
          throw new Error(
            `table ${tableId}'s change ${k} recorded ${JSON.stringify(c)} for ${JSON.stringify(a)}`,
          );
      });
      return oldestFirst.map((c) => Date.parse(c.at));
    }
    if (Date.now() > deadline)
      throw new Error(`table ${tableId}'s history has ${storico.length} of ${asked.length} changes`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The local date (YYYY-MM-DD) of an instant, `days` later. */
export function localDate(at: number, offsetMinutes: number, days = 0): string {
  return new Date(at + offsetMinutes * MINUTE + days * DAY).toISOString().slice(0, 10);
}
