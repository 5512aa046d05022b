/**
 * Generated programs: small lists of operations, each sent by one of a few devices of two tenants. Each device
 * sends its operations one after the other; all devices run at once, so their requests interleave for real on
 * the service. Tables and bookings are named by index (resolved when the program runs), so a program shrinks
 * to fewer and simpler operations and still means something.
 */
import fc from 'fast-check';

export const TABLES_PER_TENANT = 3;
export const STATUSES = ['free', 'occupied', 'open', 'dirty', 'reserved', 'payment_pending'] as const;
/** Local start times of the one evening every program books (a fresh tenant per program, so it is always empty). */
export const SLOTS = [
  '2031-03-14T19:00',
  '2031-03-14T20:00',
  '2031-03-14T20:30',
  '2031-03-14T22:00',
] as const;
export const DURATIONS = [60, 90, 120] as const;

export type Op =
  | { kind: 'lock'; table: number; ttl: number }
  | { kind: 'unlock'; table: number }
  | { kind: 'forceUnlock'; table: number }
  | { kind: 'status'; table: number; status: (typeof STATUSES)[number]; withDevice: boolean }
  | { kind: 'patchTable'; table: number; seats: number; withDevice: boolean }
  | { kind: 'deleteTable'; table: number }
  | { kind: 'createBooking'; tables: number[]; slot: number; duration: number | null }
  | { kind: 'moveBooking'; booking: number; slot: number | null; tables: number[] | null }
  | { kind: 'confirm'; booking: number }
  | { kind: 'cancel'; booking: number }
  | { kind: 'batch'; items: Array<{ externalId: number; tables: number[]; slot: number }> }
  | { kind: 'checkThenBook'; slot: number; duration: number; covers: number }
  | { kind: 'pause'; ms: number }
  /** The floor through /graphql, answered from the gateway's read cache when it can. */
  | { kind: 'floorRead' }
  | SeatingOp;

/**
 * Seating operations (seating.e2e.test.ts; a few in faults.e2e.test.ts): join two tables into a combination,
 * book with `autoAssign`, book a combination, change the turn times and re-seating; hold tables with an option,
 * convert or release it; add a walk-in party to the waitlist, notify, seat (chosen tables or the suggested fit)
 * or cancel it. The interleavings suite never generates them.
 */
export type SeatingOp =
  | { kind: 'createCombination'; tables: number[]; maxCovers: number }
  | { kind: 'autoBook'; slot: number; covers: number; duration: number | null }
  | { kind: 'bookCombination'; combination: number; slot: number; covers: number }
  | { kind: 'setSeating'; reseat: boolean; preset: number }
  /**
   * The day's times for a party nearest to a slot (GET /api/disponibilita), then a booking of the first offered;
   * `repeat` times in a row (each search after the previous booking), so that the evening fills up.
   */
  | { kind: 'searchThenBook'; slot: number; covers: number; repeat: number }
  /** The availability check for a party of 5–7, then a booking of the first combination it offered. */
  | { kind: 'checkThenBookCombination'; slot: number; duration: number; covers: number }
  /** Hold tables with an option: chosen tables, or `tables: null` for autoAssign. */
  | { kind: 'createOption'; tables: number[] | null; slot: number; covers: number; ttl: number }
  /** Turn the n-th option of the tenant into a booking (`opzioneId`). */
  | { kind: 'convertOption'; option: number }
  | { kind: 'releaseOption'; option: number }
  | { kind: 'waitAdd'; covers: number }
  | { kind: 'waitNotify'; entry: number }
  /** Seat the n-th waitlist entry: on chosen tables, or `tables: null` for the suggested fit. */
  | { kind: 'waitSeat'; entry: number; tables: number[] | null }
  | { kind: 'waitCancel'; entry: number; left: boolean };

/** Turn-time rows a program switches between (none = the default meal duration for everyone). */
export const TURN_TIME_PRESETS: ReadonlyArray<ReadonlyArray<{ maxCovers: number; minutes: number }>> = [
  [],
  [
    { maxCovers: 2, minutes: 60 },
    { maxCovers: 8, minutes: 90 },
  ],
  [
    { maxCovers: 4, minutes: 120 },
    { maxCovers: 12, minutes: 150 },
  ],
];
/** Shortened seatings a program switches between with the turn times (by preset index): off, 30, 60 minutes. */
export const SHORTENED_PRESETS: ReadonlyArray<number | null> = [null, 30, 60];
/** Combinations join two of the tenant's 4-seat tables: minCovers 5, maxCovers 5..7. */
export const COMBINATION_MIN_COVERS = 5;

/** One operation and the device (0..devices-1) that sends it. Device 0 and 1 belong to tenant A, 2 to B, 3 to A. */
export interface Step {
  device: number;
  op: Op;
}

export const tenantOfDevice = (device: number): 0 | 1 => (device === 2 ? 1 : 0);

const table = fc.integer({ min: 0, max: TABLES_PER_TENANT - 1 });
const tables = fc.uniqueArray(table, { minLength: 1, maxLength: 2 });
const slot = fc.integer({ min: 0, max: SLOTS.length - 1 });
const booking = fc.nat(7);

export const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  {
    arbitrary: fc.record({ kind: fc.constant('lock' as const), table, ttl: fc.constantFrom(300, 300, 2) }),
    weight: 6,
  },
  { arbitrary: fc.record({ kind: fc.constant('unlock' as const), table }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('forceUnlock' as const), table }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant('status' as const),
      table,
      status: fc.constantFrom(...STATUSES),
      withDevice: fc.boolean(),
    }),
    weight: 5,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('patchTable' as const),
      table,
      seats: fc.integer({ min: 2, max: 8 }),
      withDevice: fc.boolean(),
    }),
    weight: 2,
  },
  { arbitrary: fc.record({ kind: fc.constant('deleteTable' as const), table }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant('createBooking' as const),
      tables,
      slot,
      duration: fc.option(fc.constantFrom(...DURATIONS), { nil: null }),
    }),
    weight: 5,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('moveBooking' as const),
      booking,
      slot: fc.option(slot, { nil: null }),
      tables: fc.option(tables, { nil: null }),
    }),
    weight: 3,
  },
  { arbitrary: fc.record({ kind: fc.constant('confirm' as const), booking }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('cancel' as const), booking }), weight: 2 },
  {
    arbitrary: fc.record({
      kind: fc.constant('batch' as const),
      items: fc.array(fc.record({ externalId: fc.nat(2), tables, slot }), { minLength: 1, maxLength: 3 }),
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('checkThenBook' as const),
      slot,
      duration: fc.constantFrom(...DURATIONS),
      covers: fc.integer({ min: 1, max: 4 }),
    }),
    weight: 4,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('pause' as const), ms: fc.integer({ min: 1, max: 40 }) }),
    weight: 1,
  },
  { arbitrary: fc.record({ kind: fc.constant('floorRead' as const) }), weight: 3 },
);

export const stepArbitrary = (devices: number): fc.Arbitrary<Step> =>
  fc.record({ device: fc.integer({ min: 0, max: devices - 1 }), op: opArbitrary });

/** 5–20 operations over 2–4 devices (device 2, when there is one, is the other tenant's). */
export const programArbitrary: fc.Arbitrary<Step[]> = fc
  .integer({ min: 2, max: 4 })
  .chain((devices) => fc.array(stepArbitrary(devices), { minLength: 5, maxLength: 20 }));

const option = fc.nat(3);
const entry = fc.nat(3);

/** Options and the waitlist (seating suite, and a few in the fault suite). */
export const optionAndWaitlistOpArbitrary: fc.Arbitrary<Op> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('createOption' as const),
      tables: fc.option(tables, { nil: null }),
      slot,
      covers: fc.integer({ min: 1, max: 4 }),
      ttl: fc.constantFrom(30, 300),
    }),
    weight: 4,
  },
  { arbitrary: fc.record({ kind: fc.constant('convertOption' as const), option }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('releaseOption' as const), option }), weight: 2 },
  {
    arbitrary: fc.record({ kind: fc.constant('waitAdd' as const), covers: fc.integer({ min: 1, max: 6 }) }),
    weight: 3,
  },
  { arbitrary: fc.record({ kind: fc.constant('waitNotify' as const), entry }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant('waitSeat' as const),
      entry,
      tables: fc.option(fc.uniqueArray(table, { minLength: 1, maxLength: 1 }), { nil: null }),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('waitCancel' as const), entry, left: fc.boolean() }),
    weight: 1,
  },
);

const seatingOnly: fc.Arbitrary<Op> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('createCombination' as const),
      tables: fc.uniqueArray(table, { minLength: 2, maxLength: 2 }),
      maxCovers: fc.integer({ min: 5, max: 7 }),
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('autoBook' as const),
      slot,
      covers: fc.integer({ min: 1, max: 7 }),
      duration: fc.option(fc.constantFrom(...DURATIONS), { nil: null }),
    }),
    weight: 6,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('bookCombination' as const),
      combination: fc.nat(3),
      slot,
      covers: fc.integer({ min: 5, max: 7 }),
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('checkThenBookCombination' as const),
      slot,
      duration: fc.constantFrom(...DURATIONS),
      covers: fc.integer({ min: 5, max: 7 }),
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('searchThenBook' as const),
      slot,
      covers: fc.integer({ min: 1, max: 7 }),
      repeat: fc.integer({ min: 1, max: 4 }),
    }),
    weight: 4,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('setSeating' as const),
      reseat: fc.boolean(),
      preset: fc.integer({ min: 0, max: TURN_TIME_PRESETS.length - 1 }),
    }),
    weight: 1,
  },
);

/**
 * The seating suite's operations: the default ones except those that change a table under its bookings (seats,
 * deletion), which would make "the tables fit the party" depend on when it is judged, plus the seating ones.
 */
export const seatingOpArbitrary: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: opArbitrary.filter((op) => op.kind !== 'patchTable' && op.kind !== 'deleteTable'), weight: 3 },
  { arbitrary: seatingOnly, weight: 2 },
  { arbitrary: optionAndWaitlistOpArbitrary, weight: 2 },
);

/** 5–20 seating-suite operations over 2–4 devices. */
export const seatingProgramArbitrary: fc.Arbitrary<Step[]> = fc.integer({ min: 2, max: 4 }).chain((devices) =>
  fc.array(fc.record({ device: fc.integer({ min: 0, max: devices - 1 }), op: seatingOpArbitrary }), {
    minLength: 5,
    maxLength: 20,
  }),
);

/**
 * The fault suite's programs: the default operations, and now and then (one in five) a seating one — an
 * auto-assigned booking, an option created, converted or released, a waitlist party added, seated or cancelled.
 */
export const faultProgramArbitrary: fc.Arbitrary<Step[]> = fc.integer({ min: 2, max: 4 }).chain((devices) =>
  fc.array(
    fc.record({
      device: fc.integer({ min: 0, max: devices - 1 }),
      op: fc.oneof(
        { arbitrary: opArbitrary, weight: 4 },
        {
          arbitrary: fc.oneof(
            seatingOnly.filter((op) => op.kind === 'autoBook' || op.kind === 'searchThenBook'),
            optionAndWaitlistOpArbitrary.filter((op) => op.kind !== 'waitNotify'),
          ),
          weight: 1,
        },
      ),
    }),
    { minLength: 5, maxLength: 20 },
  ),
);
