/**
 * Scenario 8 diagnostics (BENCH_SEATING_DIAG=1): could ANY re-seating have seated a refused party? An exhaustive
 * search (pure) over the bookings of the day read back at the refusal, to tell the refusals the service's bounded
 * planner missed from those no plan could seat:
 * - `rules`: the decisions' rules — bookings starting `freezeMinutes` or more after the request move, each to any fitting place
 *   (table with enough seats, combination whose range holds it) of its own room; the others stay where they are;
 *   the new party takes any fitting place;
 * - `relaxed`: every active booking not yet started (inside the freeze included, across rooms) may move: when
 *   even that finds nothing, the refusal is capacity-bound (the tables cannot hold those parties at those times).
 * The search assigns the parties in order of start, each to a place free of the fixed holds and of the parties
 * placed before it, backtracking; a state already shown to fail (the same party next and the same tables busy
 * past its start, until when) is not searched again. It stops after `nodeLimit` placements: `unknown`.
 */
import { ACTIVE_STATES, type ReadBackBooking } from './metrics.js';
import type { RestaurantSpec } from './restaurant.js';

export type BoundVerdict = 'feasible' | 'infeasible' | 'unknown';

export interface BoundInput {
  spec: RestaurantSpec;
  /** Table name by table id. */
  names: ReadonlyMap<string, string>;
  day: readonly ReadBackBooking[];
  /** The refused party: covers and its window (epoch ms). */
  request: { covers: number; start: number; end: number };
  /** The request's instant (epoch ms): bookings started before it never move. */
  now: number;
  /** Under the rules, bookings starting within this many minutes of `now` never move either. */
  freezeMinutes: number;
  mode: 'rules' | 'relaxed';
  nodeLimit?: number;
  /** Told how many bookings the plan found moves (when one is found). */
  onPlan?: (moved: number) => void;
}

interface Place {
  tables: number[];
  room: string;
  fits: (covers: number) => boolean;
  capacity: number;
}

interface Party {
  covers: number;
  start: number;
  end: number;
  /** Room it must stay in (null: any). */
  room: string | null;
  /** Its current place's table indexes (tried first), empty for the new party. */
  current: number[];
}

export function reseatBound(input: BoundInput): BoundVerdict {
  const { spec } = input;
  const index = new Map(spec.tables.map((t, i) => [t.name, i]));
  const places: Place[] = [
    ...spec.tables.map((t, i) => ({
      tables: [i],
      room: t.room,
      fits: (c: number) => t.seats >= c,
      capacity: t.seats,
    })),
    ...spec.combinations.map((c) => ({
      tables: c.tables.map((n) => index.get(n)!),
      room: spec.tables[index.get(c.tables[0]!)!]!.room,
      fits: (covers: number) => covers >= c.minCovers && covers <= c.maxCovers,
      capacity: c.maxCovers,
    })),
  ].sort((a, b) => a.tables.length - b.tables.length || a.capacity - b.capacity);

  const fixed: { table: number; start: number; end: number }[] = [];
  const parties: Party[] = [];
  for (const b of input.day) {
    if (!ACTIVE_STATES.has(b.state)) continue;
    const tables = b.tableIds.map((id) => index.get(input.names.get(id) ?? ''));
    if (tables.some((t) => t === undefined) || tables.length === 0) continue;
    const start = Date.parse(b.startsAt);
    const end = Date.parse(b.endsAt);
    const movable =
      input.mode === 'rules' ? start >= input.now + input.freezeMinutes * 60_000 : start >= input.now;
    if (!movable) {
      for (const table of tables) fixed.push({ table: table!, start, end });
      continue;
    }
    const room = spec.tables[tables[0]!]!.room;
    parties.push({
      covers: b.covers,
      start,
      end,
      room: input.mode === 'rules' ? room : null,
      current: tables as number[],
    });
  }
  parties.push({ ...input.request, room: null, current: [] });
  parties.sort((a, b) => a.start - b.start || b.end - a.end);

  const fixedOn = spec.tables.map((_, i) => fixed.filter((f) => f.table === i));
  const busyUntil = spec.tables.map(() => 0);
  const chosen: Place[] = [];
  const failed = new Set<string>();
  let nodes = 0;
  const limit = input.nodeLimit ?? 10_000;

  const freeFor = (place: Place, p: Party) =>
    place.tables.every(
      (t) => busyUntil[t]! <= p.start && !fixedOn[t]!.some((f) => f.start < p.end && f.end > p.start),
    );
  const stateKey = (i: number) => {
    const start = parties[i]!.start;
    return `${i}:${busyUntil.map((u) => (u > start ? u : 0)).join(',')}`;
  };
  const search = (i: number): boolean | null => {
    if (i === parties.length) {
      input.onPlan?.(
        parties.filter((p, k) => p.current.length > 0 && chosen[k]!.tables.join() !== p.current.join())
          .length,
      );
      return true;
    }
    const key = stateKey(i);
    if (failed.has(key)) return false;
    const p = parties[i]!;
    const current = p.current.join();
    const options = places
      .filter((pl) => (p.room === null || pl.room === p.room) && pl.fits(p.covers) && freeFor(pl, p))
      .sort((a, b) => Number(b.tables.join() === current) - Number(a.tables.join() === current));
    for (const place of options) {
      if (++nodes > limit) return null;
      const saved = place.tables.map((t) => busyUntil[t]!);
      for (const t of place.tables) busyUntil[t] = p.end;
      chosen[i] = place;
      const found = search(i + 1);
      place.tables.forEach((t, k) => (busyUntil[t] = saved[k]!));
      if (found !== false) return found;
    }
    failed.add(key);
    return false;
  };
  const found = search(0);
  return found === null ? 'unknown' : found ? 'feasible' : 'infeasible';
}
