/**
 * Generated service days (service-day.e2e.test.ts): tables with the parties that sit at them, the bookings that
 * explain some of them and the bookings that never sit (no-shows, cancellations, bookings still to come), the
 * restaurant's turn times and the shape of its opening hours around the minutes the day is played in.
 *
 * The service runs on the real clock: every status change happens now. A booked party sits at its table in its
 * booking's window ([startsAt − 60 min, startsAt + stay)), so a booking it seats starts a little before now (a late
 * party: the table's first turn) or a little after (an early one: the table's last turn); either way the closest
 * booking time is unambiguous. Waitlist seatings hold their table for a turn time (15..30 min here), which ends
 * before an early party's booking starts (31..57 min ahead).
 */
import fc from 'fast-check';

/** A party at a table: the status changes the staff make for it. */
export interface TurnPlan {
  /** waitlist: seated from the waitlist (`siedi`); unbooked: a party no booking explains. */
  kind: 'waitlist' | 'unbooked';
  covers: number;
  /** Whether `occupied` carries the pax (a waitlist seating always does). */
  paxAtSeat: boolean;
  /** An `open` with the pax after seating. */
  paxLater: boolean;
  /** `occupied` again inside the turn. */
  reoccupy: boolean;
  /** Cents of each `payment_pending` (the last one is the check). */
  checks: number[];
  leaveAs: 'free' | 'dirty';
  /** After `dirty`, the table cleaned (`free`: no new turn). */
  cleaned: boolean;
  /** A `reserved` before the party sits (no turn). */
  reservedBefore: boolean;
}

/** A booking whose party sits: before now (late: its table's first turn) or after (early: its last turn). */
export interface BookedPlan {
  late: boolean;
  /** Minutes between the booking's time and now. */
  minutes: number;
  /** The booking's own durationMinutes (null: its covers' turn time). */
  ownDuration: number | null;
  covers: number;
  /** The booking also holds the next table (one party at two tables). */
  joinNext: boolean;
  turn: TurnPlan;
}

export interface TablePlan {
  seats: number;
  room: 0 | 1;
  turns: TurnPlan[];
  booked: BookedPlan | null;
}

/** A booking that no party of the day sits at. */
export interface OtherPlan {
  state: 'no_show' | 'annullata' | 'completata' | 'confermata' | 'pending';
  covers: number;
  /** Minutes from now (never within 5 of it: "due" is decided by the report's clock). */
  minute: number;
  /** The table it holds (no-shows and cancellations only: they release it at once), by index. */
  table: number | null;
}

export interface DayPlan {
  tables: TablePlan[];
  others: OtherPlan[];
  turnRows: Array<{ maxCovers: number; minutes: number }>;
  defaultMealMinutes: number;
  /** Opening hours around the played minutes (minutes): [.. earlier ..] gap [.. before ..] played [.. after ..]. */
  layout: { earlier: number; gap: number; before: number; after: number };
  /** Report range: the played date, `back` days before and `ahead` after. */
  range: { back: number; ahead: number };
  /** Which of the zones with a local hour near midday the restaurant is in. */
  zone: number;
  /** The last table is deactivated after the day (available seats are the active tables' now). */
  deactivateLast: boolean;
  /** A party still seated when the report is read (its stay counts up to then), at `table`. */
  stillSeated: { table: number; turn: TurnPlan } | null;
}

const turnArb: fc.Arbitrary<TurnPlan> = fc.record({
  kind: fc.constantFrom<TurnPlan['kind']>('waitlist', 'unbooked'),
  covers: fc.integer({ min: 1, max: 6 }),
  paxAtSeat: fc.boolean(),
  paxLater: fc.boolean(),
  reoccupy: fc.boolean(),
  checks: fc.array(fc.integer({ min: 0, max: 40_000 }), { maxLength: 2 }),
  leaveAs: fc.constantFrom<'free' | 'dirty'>('free', 'dirty'),
  cleaned: fc.boolean(),
  reservedBefore: fc.boolean(),
});

const bookedArb: fc.Arbitrary<BookedPlan> = fc.record({
  late: fc.boolean(),
  minutes: fc.integer({ min: 1, max: 57 }),
  ownDuration: fc.option(fc.integer({ min: 60, max: 150 })),
  covers: fc.integer({ min: 1, max: 8 }),
  joinNext: fc.boolean(),
  turn: turnArb,
});

const tableArb: fc.Arbitrary<TablePlan> = fc.record({
  seats: fc.integer({ min: 2, max: 6 }),
  room: fc.constantFrom<0 | 1>(0, 1),
  turns: fc.array(turnArb, { maxLength: 2 }),
  booked: fc.option(bookedArb, { freq: 2 }),
});

const otherArb: fc.Arbitrary<OtherPlan> = fc.record({
  state: fc.constantFrom<OtherPlan['state']>('no_show', 'annullata', 'completata', 'confermata', 'pending'),
  covers: fc.integer({ min: 1, max: 8 }),
  minute: fc.integer({ min: -1500, max: 1500 }),
  table: fc.option(fc.nat(3)),
});

export const dayArb: fc.Arbitrary<DayPlan> = fc.record({
  tables: fc.array(tableArb, { minLength: 1, maxLength: 4 }),
  others: fc.array(otherArb, { maxLength: 5 }),
  turnRows: fc
    .subarray([2, 4, 6])
    .chain((sizes) =>
      fc.tuple(
        ...sizes.map((maxCovers) =>
          fc.record({ maxCovers: fc.constant(maxCovers), minutes: fc.integer({ min: 15, max: 30 }) }),
        ),
      ),
    ),
  defaultMealMinutes: fc.integer({ min: 15, max: 30 }),
  layout: fc.record({
    earlier: fc.integer({ min: 30, max: 180 }),
    gap: fc.integer({ min: 0, max: 60 }),
    before: fc.integer({ min: 30, max: 240 }),
    after: fc.integer({ min: 30, max: 300 }),
  }),
  range: fc.record({ back: fc.nat(1), ahead: fc.nat(1) }),
  zone: fc.nat(),
  deactivateLast: fc.boolean(),
  stillSeated: fc.option(fc.record({ table: fc.nat(3), turn: turnArb })),
});

/** The turn time of a party of `covers` (capacity's rows; beyond the last, the last; none: the default). */
export function stayOf(plan: DayPlan, covers: number): number {
  const row = plan.turnRows.find((r) => covers <= r.maxCovers) ?? plan.turnRows.at(-1);
  return row?.minutes ?? plan.defaultMealMinutes;
}

/**
 * The plan made playable: a late booking starts at least 5 minutes before its window closes; a no-show or a
 * completed booking is in the past; bookings that do not release their table at once hold none; only the next
 * table may be joined, when it has no booking of its own; covers fit the tables.
 */
export function normalise(plan: DayPlan): DayPlan {
  const tables = plan.tables.map((t) => ({
    ...t,
    turns: t.turns.map((turn) => ({ ...turn, covers: Math.min(turn.covers, t.seats) })),
  }));
  tables.forEach((table, i) => {
    const booked = table.booked;
    if (!booked) return;
    const next = tables[i + 1];
    const joinNext = booked.joinNext && next !== undefined && next.booked === null && !joinedInto(tables, i);
    const seats = table.seats + (joinNext ? next!.seats : 0);
    const stay = booked.ownDuration ?? stayOf(plan, Math.min(booked.covers, seats));
    table.booked = {
      ...booked,
      joinNext,
      covers: Math.min(booked.covers, seats),
      minutes: booked.late ? Math.min(booked.minutes, stay - 5) : Math.max(31, booked.minutes),
    };
  });
  const others = plan.others.map((o) => {
    const past = o.state === 'no_show' || o.state === 'completata';
    const minute = past ? -Math.abs(o.minute) : o.minute;
    return {
      ...o,
      minute: Math.abs(minute) < 5 ? (minute < 0 ? -5 : 5) : minute,
      table:
        (o.state === 'no_show' || o.state === 'annullata') && o.table !== null
          ? o.table % tables.length
          : null,
    };
  });
  // A party still seated sits last at its table: never where an early party's booking is to take the last turn.
  const earlyAt = (i: number) => {
    const booked = tables[i]!.booked ?? (joinedInto(tables, i) ? tables[i - 1]!.booked : null);
    return booked !== null && !booked.late;
  };
  const free = tables.map((_, i) => i).filter((i) => !earlyAt(i));
  const stillSeated =
    plan.stillSeated && free.length > 0
      ? {
          table: free[plan.stillSeated.table % free.length]!,
          turn: { ...plan.stillSeated.turn, kind: 'unbooked' as const },
        }
      : null;
  if (stillSeated)
    stillSeated.turn.covers = Math.min(stillSeated.turn.covers, tables[stillSeated.table]!.seats);
  return { ...plan, tables, others, stillSeated };
}

/** Whether table i is the second table of the previous table's booking. */
export function joinedInto(tables: readonly TablePlan[], i: number): boolean {
  return i > 0 && tables[i - 1]!.booked?.joinNext === true;
}
