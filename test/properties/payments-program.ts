/**
 * Generated payments programs (payments.e2e.test.ts): bookings, policy changes, Stripe events (repeated, reordered,
 * late, badly signed, of the wrong kind), cancellations, no-shows, completions, moves, party changes and clock
 * advances, in one tenant of the program's own. The clock is the stack's virtual one (payments-stack.ts): an
 * `advance` moves it minutes forward, so that a `soon` booking's one-hour reminder (due 5 to 15 minutes after it is booked) and its
 * guarantee's due time (10 or 30 minutes after it is asked for, by the policy) fall due within a program.
 */
import fc from 'fast-check';
import type { PolicyTerms, Signature } from './payments-history.js';

/** The policies a program switches between (index = version). The setup sends the first one. */
export const POLICIES: readonly PolicyTerms[] = [
  {
    rules: [
      { type: 'deposit', minCovers: 6, amountPerCover: 1000, currency: 'eur' },
      { type: 'card', minCovers: 3, amountPerCover: 2000, currency: 'eur' },
    ],
    penalties: [
      { minHours: 48, percent: 0 },
      { minHours: 24, percent: 50 },
      { minHours: 0, percent: 100 },
    ],
    noShowPercent: 100,
    dueMinutes: 10,
  },
  {
    rules: [
      { type: 'card', minCovers: 4, amountPerCover: 1500, currency: 'eur' },
      { type: 'deposit', minCovers: 2, amountPerCover: 700, currency: 'eur' },
    ],
    penalties: [
      { minHours: 24, percent: 0 },
      { minHours: 0, percent: 30 },
    ],
    noShowPercent: 80,
    dueMinutes: 30,
  },
  { rules: [], penalties: [], noShowPercent: 100, dueMinutes: 60 },
];

/** The one-hour reminder rule every program runs with. */
export const REMINDER_HOURS = [1];

/**
 * When a booking starts (on a whole minute): `soon` an hour and `offset` × 5 minutes away (its reminder due in
 * `offset` × 5 minutes; a card is held), `tomorrow` 30 hours away (a card held; the 24–48 h tier), `later` 8 days
 * away (a card saved; no tier reached).
 */
export type Lead = 'soon' | 'tomorrow' | 'later';
/** What a delivered Stripe event is: the booking's money in place, a failed attempt, a money event of another mode. */
export type EventKind = 'money' | 'failed' | 'mismatch';
export type Ending = 'cancel' | 'noShow' | 'complete';

export type PayStep =
  | { kind: 'book'; covers: number; lead: Lead; offset: number }
  | { kind: 'policy'; version: number }
  /**
   * A Stripe event for booking `booking`'s intent, signed `signature`, delivered `copies` times (`together`: at
   * once), or (`held`) kept back to be delivered later, reordered, by a `release` or after the day's close.
   */
  | {
      kind: 'event';
      booking: number;
      event: EventKind;
      signature: Signature;
      copies: number;
      together: boolean;
      held: boolean;
    }
  /** The booking's money event (well signed) and its end, sent at the same moment. */
  | { kind: 'race'; booking: number; how: Ending }
  /** Deliver the held events, newest first. */
  | { kind: 'release' }
  | { kind: 'end'; booking: number; how: Ending }
  | { kind: 'confirm'; booking: number }
  | { kind: 'move'; booking: number; offset: number }
  /** A new party (PATCH covers): a guarantee still requested follows it, one in place keeps its amount. */
  | { kind: 'party'; booking: number; covers: number }
  /** Move the clock `minutes` forward (reminders and due times fall due), and let the service catch up. */
  | { kind: 'advance'; minutes: number };

export interface PayProgram {
  steps: PayStep[];
  /** How each booking still active is ended after the clock passed its reminders (by ref, cycled). */
  closing: Ending[];
}

const booking = fc.nat(5);
const offset = fc.integer({ min: 1, max: 3 });

const book = fc.record({
  kind: fc.constant('book' as const),
  covers: fc.integer({ min: 1, max: 8 }),
  lead: fc.constantFrom<Lead>('soon', 'soon', 'tomorrow', 'later'),
  offset,
});

const step: fc.Arbitrary<PayStep> = fc.oneof(
  { weight: 5, arbitrary: book },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('policy' as const), version: fc.nat(POLICIES.length - 1) }),
  },
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('event' as const),
      booking,
      event: fc.constantFrom<EventKind>('money', 'money', 'money', 'money', 'failed', 'mismatch'),
      signature: fc.constantFrom<Signature>('good', 'good', 'good', 'good', 'good', 'wrong', 'old', 'none'),
      copies: fc.integer({ min: 1, max: 3 }),
      together: fc.boolean(),
      held: fc.constantFrom(false, false, true),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('release' as const) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('race' as const),
      booking,
      how: fc.constantFrom<Ending>('cancel', 'noShow', 'complete'),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('end' as const),
      booking,
      how: fc.constantFrom<Ending>('cancel', 'noShow', 'complete'),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('confirm' as const), booking }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('move' as const), booking, offset }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('party' as const),
      booking,
      covers: fc.integer({ min: 1, max: 8 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('advance' as const), minutes: fc.integer({ min: 1, max: 40 }) }),
  },
);

/** A program starts with a booking (every other step needs one). */
export const payProgramArbitrary: fc.Arbitrary<PayProgram> = fc.record({
  steps: fc
    .tuple(book, fc.array(step, { minLength: 3, maxLength: 14 }))
    .map(([first, rest]) => [first, ...rest]),
  closing: fc.array(fc.constantFrom<Ending>('cancel', 'noShow', 'complete'), { minLength: 1, maxLength: 4 }),
});
