import { describe, expect, it } from 'vitest';
import {
  BOOKING_PARTY_MIX,
  CANCELLATION_RATE,
  generateDemand,
  NO_SHOW_RATE,
  partyCount,
  WALK_IN_SHARE,
} from './demand.js';
import { SHORTENED_MIX, TOLERANCE_MIX, toleranceModelFromEnv } from './guest-flexibility.js';
import { seededRandom } from './random.js';
import { restaurant, seatMinutesAvailable, turnMinutes } from './restaurant.js';

const spec = restaurant();
const available = seatMinutesAvailable(spec);

describe('seeded random source', () => {
  it('repeats its sequence for a seed and differs for another', () => {
    const a = Array.from({ length: 5 }, seededRandom(7).next);
    const sequence = (seed: number) => {
      const r = seededRandom(seed);
      return Array.from({ length: 5 }, () => r.next());
    };
    expect(sequence(7)).toEqual(sequence(7));
    expect(sequence(7)).not.toEqual(sequence(8));
    expect(a.every((x) => x >= 0 && x < 1)).toBe(true);
  });

  it('draws weighted items in proportion to their weights', () => {
    const r = seededRandom(1);
    const draws = Array.from({ length: 20_000 }, () =>
      r.weighted([
        ['a', 1],
        ['b', 3],
      ] as const),
    );
    const share = draws.filter((d) => d === 'b').length / draws.length;
    expect(share).toBeGreaterThan(0.73);
    expect(share).toBeLessThan(0.77);
  });
});

describe('the restaurant', () => {
  it('has 60 tables in two rooms and combinations of neighbours in one room only', () => {
    expect(spec.tables).toHaveLength(60);
    const roomOf = new Map(spec.tables.map((t) => [t.name, t.room]));
    const seatsOf = new Map(spec.tables.map((t) => [t.name, t.seats]));
    expect(spec.combinations.length).toBeGreaterThan(10);
    for (const c of spec.combinations) {
      expect(new Set(c.tables.map((n) => roomOf.get(n))).size).toBe(1);
      const seats = c.tables.reduce((sum, n) => sum + seatsOf.get(n)!, 0);
      expect(c.maxCovers).toBeLessThan(seats);
      expect(c.minCovers).toBeLessThanOrEqual(c.maxCovers);
    }
    // The largest party of the mix fits some combination.
    const largest = Math.max(...BOOKING_PARTY_MIX.map(([c]) => c));
    expect(spec.combinations.some((c) => c.minCovers <= largest && largest <= c.maxCovers)).toBe(true);
  });

  it('applies turn times by party size as the service does (beyond the last row: its minutes)', () => {
    expect(turnMinutes(spec.turnTimes, 1)).toBe(90);
    expect(turnMinutes(spec.turnTimes, 3)).toBe(105);
    expect(turnMinutes(spec.turnTimes, 12)).toBe(150);
    expect(turnMinutes([{ maxCovers: 4, minutes: 60 }], 9)).toBe(60);
  });
});

describe('demand model', () => {
  it('gives the same parties for the same seed, other parties for another', () => {
    expect(generateDemand(42, 1, spec, available)).toEqual(generateDemand(42, 1, spec, available));
    expect(generateDemand(43, 1, spec, available).bookings).not.toEqual(
      generateDemand(42, 1, spec, available).bookings,
    );
  });

  it('scales the requested seat-minutes with the demand level', () => {
    for (const level of [0.6, 1, 1.4]) {
      const demand = generateDemand(5, level, spec, available);
      expect(demand.bookings.length + demand.walkIns.length).toBe(partyCount(spec, level, available));
      const ratio = demand.requestedSeatMinutes / (level * available);
      expect(ratio).toBeGreaterThan(0.85);
      expect(ratio).toBeLessThan(1.15);
    }
    expect(partyCount(spec, 1.4, available)).toBeGreaterThan(partyCount(spec, 0.6, available) * 2);
  });

  it('books ahead within the evening, cancels before the slot, walks in during service', () => {
    const { bookings, walkIns } = generateDemand(9, 1.4, spec, available);
    const parties = bookings.length + walkIns.length;
    expect(walkIns.length).toBe(Math.round(parties * WALK_IN_SHARE));
    for (const b of bookings) {
      expect(b.time).toBeGreaterThanOrEqual(spec.open);
      expect(b.time).toBeLessThanOrEqual(spec.lastSeating);
      expect(b.time % 15).toBe(0);
      expect(b.requestAt).toBeLessThan(b.time);
      expect(b.requestAt).toBeGreaterThanOrEqual(b.time - 14 * 1440);
      if (b.cancelAt !== null) {
        expect(b.cancelAt).toBeGreaterThan(b.requestAt);
        expect(b.cancelAt).toBeLessThanOrEqual(b.time - 30);
        expect(b.noShow).toBe(false);
      }
      expect(b.stay).toBeLessThanOrEqual(turnMinutes(spec.turnTimes, b.covers));
      expect(b.stay).toBeGreaterThanOrEqual(turnMinutes(spec.turnTimes, b.covers) - 15);
    }
    for (const w of walkIns) {
      expect(w.arriveAt).toBeGreaterThanOrEqual(spec.open);
      expect(w.arriveAt).toBeLessThanOrEqual(spec.lastSeating);
      expect(w.patience).toBeGreaterThanOrEqual(10);
      expect(w.patience).toBeLessThanOrEqual(60);
      expect(w.covers).toBeLessThanOrEqual(6);
    }
    expect(bookings.map((b) => b.requestAt)).toEqual(
      [...bookings.map((b) => b.requestAt)].sort((a, b) => a - b),
    );
    expect(walkIns.map((w) => w.arriveAt)).toEqual([...walkIns.map((w) => w.arriveAt)].sort((a, b) => a - b));
  });

  it("gives each booking guest a tolerance and a shortest stay drawn at about the model's mix", () => {
    const all = Array.from(
      { length: 40 },
      (_, seed) => generateDemand(seed, 1, spec, available).bookings,
    ).flat();
    const share = (test: (b: (typeof all)[number]) => boolean) => all.filter(test).length / all.length;
    const total = (mix: readonly (readonly [number, number])[]) => mix.reduce((sum, [, w]) => sum + w, 0);
    for (const [minutes, weight] of TOLERANCE_MIX) {
      const expected = weight / total(TOLERANCE_MIX);
      const seen = share((b) => b.flexibility.toleranceMinutes === minutes);
      expect(Math.abs(seen - expected), `tolerance ${minutes}`).toBeLessThan(0.03);
    }
    for (const [fraction, weight] of SHORTENED_MIX) {
      const expected = weight / total(SHORTENED_MIX);
      const seen = share(
        (b) =>
          b.flexibility.shortestStayMinutes === Math.ceil(fraction * turnMinutes(spec.turnTimes, b.covers)),
      );
      expect(Math.abs(seen - expected), `shortest stay ${fraction}`).toBeLessThan(0.03);
    }
  });

  it("under issue 37's model every guest bends ±30 minutes, with the same parties and shortened floors", () => {
    for (const seed of [1, 2, 3]) {
      const mixed = generateDemand(seed, 1.4, spec, available).bookings;
      const issue = generateDemand(seed, 1.4, spec, available, 'issue').bookings;
      expect(issue.map((b) => b.flexibility.toleranceMinutes)).toEqual(mixed.map(() => 30));
      const withoutTolerance = (b: (typeof mixed)[number]) => ({
        ...b,
        flexibility: { ...b.flexibility, toleranceMinutes: 0 },
      });
      expect(issue.map(withoutTolerance)).toEqual(mixed.map(withoutTolerance));
    }
    expect(() => toleranceModelFromEnv('everyone')).toThrow(/BENCH_SEATING_TOLERANCE/);
    expect(toleranceModelFromEnv('')).toBe('mixed');
  });

  it('draws the flexibility from a stream of its own: the parties are those the model drew without it', () => {
    // Seed 1 at 140 % (the bench's seed + 1400), as the model drew it before guests had a flexibility: 204 booking
    // requests and this checksum of their covers, times and stays (so earlier runs compare with later ones).
    const { bookings } = generateDemand(1401, 1.4, spec, available);
    expect(bookings).toHaveLength(204);
    expect(bookings.reduce((sum, b) => sum + b.covers * 1000 + b.time + b.stay, 0)).toBe(1_014_195);
  });

  it('cancels and no-shows at about the published rates over many evenings', () => {
    const all = Array.from(
      { length: 40 },
      (_, seed) => generateDemand(seed, 1, spec, available).bookings,
    ).flat();
    const cancelled = all.filter((b) => b.cancelAt !== null).length / all.length;
    const noShows = all.filter((b) => b.noShow).length / all.filter((b) => b.cancelAt === null).length;
    // Requests made less than 30 minutes ahead cannot cancel, hence a little under the rate.
    expect(cancelled).toBeGreaterThan(CANCELLATION_RATE * 0.8);
    expect(cancelled).toBeLessThan(CANCELLATION_RATE * 1.15);
    expect(noShows).toBeGreaterThan(NO_SHOW_RATE * 0.7);
    expect(noShows).toBeLessThan(NO_SHOW_RATE * 1.3);
  });
});
