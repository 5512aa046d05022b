import { localDayBounds } from '@coperto/domain';
import type { PrenotazioneRecord } from '../bookings/prenotazione-record.js';
import type { SeatCandidate } from '../seating/assignment.js';
import {
  planReseat,
  type BlockingBooking,
  type OwnedSpan,
  type ReseatSearch,
} from '../seating/reseat-plan.js';
import { reseatSearchOf, type ReseatSnapshot } from '../seating/reseat-snapshot.js';
import type {
  SeatingCombination,
  SeatingConfig,
  SeatingSources,
  SeatingTable,
} from '../seating/seating-sources.js';
import type { HeldEntry } from '../seating/table-claims.js';
import { localDays, type BookableSlot } from './day-search.js';
import type { PartiesDaySearch, ReseatForParty } from './parties-search.js';

/** What the day's answer is read from: each source read once per request. */
export interface AvailabilityDeps {
  /** tavolo's tables and combinations, capacity's seating settings (turn times, re-seating, shortened). */
  sources: Pick<SeatingSources, 'config' | 'activeTables' | 'activeCombinations'>;
  /** capacity's slots of a local date with the covers pacing and the kitchen still take in each. */
  slots: (date: string) => Promise<BookableSlot[]>;
  /** The non-stale holds on the tables overlapping [from, to) (TableClaims.heldIn). */
  heldIn: (tableIds: readonly string[], from: string, to: string) => Promise<HeldEntry[]>;
  /** Bookings by id (the owners of the holds, for re-seating). */
  bookings: (ids: readonly string[]) => Promise<PrenotazioneRecord[]>;
  timeZone: string;
  now: () => Date;
  /** Whether the caller sees each time's place (staff); a channel key does not. */
  showPlaces: boolean;
}

/** The re-seating search's owner: a party that is not a booking yet (it never blocks a place itself). */
const SEARCH_OWNER = 'availability-search';
const DAY_MS = 86_400_000;
/**
 * The re-seating search's budget per slot of the day search: a fortieth of the booking's (RESEAT_LIMITS.steps), so a
 * whole day of slots costs about what one booking's search may. A smaller budget only stops the same deterministic
 * search earlier: a plan it finds is the plan the booking's full search finds, so what is offered stays bookable
 * (a plan only the full budget finds is not offered).
 */
export const SEARCH_RESEAT_STEPS = 500;

/** What every date of a request shares. */
export interface Places {
  config: SeatingConfig;
  tables: SeatingTable[];
  combinations: SeatingCombination[];
}

/** What `readDay` gives a search: the day's data and re-seating over it (null when off). */
export interface DayRead {
  config: SeatingConfig;
  reseat: ReseatForParty | null;
  search: Omit<PartiesDaySearch, 'parties' | 'reseat' | 'salaId'>;
}

/**
 * The seating settings and tavolo's active tables and combinations: read once for every date a request asks. With
 * `salaId`, tavolo lists the tables and combinations of that room only.
 */
export async function readPlaces(
  deps: Pick<AvailabilityDeps, 'sources'>,
  salaId: string | null = null,
): Promise<Places> {
  const room = salaId ?? undefined;
  const [config, tables, combinations] = await Promise.all([
    deps.sources.config(),
    deps.sources.activeTables(room),
    deps.sources.activeCombinations(room),
  ]);
  return { config, tables, combinations };
}

/** A date to read, with capacity's slots of it. */
export interface DateSlots {
  date: string;
  slots: BookableSlot[];
}

/**
 * Dates read over the places: the holds of every table from a day before the first date to a day after the last
 * (each date's own search needs its day and a day either side, what re-seating reads) and, re-seating on, the
 * bookings holding them, read once for all the dates. A date without slots offers nothing; with no slot or no table
 * at all nothing more is read. Holds beyond a date's day either side change none of its answers: a place is free for
 * a stay of hours, the free time around a window stops at the local day, and re-seating looks only at holds
 * overlapping a window.
 */
export async function readDays(
  deps: AvailabilityDeps,
  places: Places,
  dates: readonly DateSlots[],
): Promise<DayRead[]> {
  const now = deps.now().getTime();
  const range = dayRange(deps.timeZone, dates);
  if (range === null || places.tables.length === 0) return dates.map(() => emptyRead(deps, places, now));
  const held = await deps.heldIn(
    places.tables.map((t) => t.id),
    range.from,
    range.to,
  );
  const holdsOf = spansByTable(held);
  const reseat = places.config.reseat ? await reseatOver(deps, places, held, holdsOf, now) : null;
  return dates.map(({ slots }) => dayRead(deps, places, holdsOf, slots, reseat, now));
}

/** One date read over the places (`readDays` of it alone). */
async function readDay(
  deps: AvailabilityDeps,
  places: Places,
  date: string,
  slots: BookableSlot[],
): Promise<DayRead> {
  const [read] = await readDays(deps, places, [{ date, slots }]);
  return read!;
}

/** A date read in two steps (`readDayInSteps`): the room's places first, everything re-seating needs on demand. */
export interface DayInSteps {
  /** The places of the room asked (every place without one) and their holds; no re-seating (`reseat` null). */
  room: DayRead;
  /**
   * The whole read (`readDay`): every room's places (tavolo asked again when a room was asked), every table's holds
   * (the room's not read again) and, re-seating on, the bookings.
   */
  whole: () => Promise<DayRead>;
}

/**
 * One date, read as much as its answer needs: first only the places of the room asked (`salaId`: `roomPlaces`, read
 * by `readPlaces(deps, salaId)`; every place without it) and their holds, which answer every slot where a place is
 * free, a shortened stay included; every other room's places, their holds and the bookings holding them are read
 * (`whole`) only when a slot has no free place and re-seating is on, because re-seating plans over every room, as the
 * booking path does. Both steps answer a slot alike when it needs no re-seating: a place's free time and ranking
 * read only its own tables' holds, and tavolo lists a room's places in the order of its whole list.
 */
export async function readDayInSteps(
  deps: AvailabilityDeps,
  roomPlaces: Places,
  date: string,
  slots: BookableSlot[],
  salaId: string | null,
): Promise<DayInSteps> {
  const inRoom = <T extends { salaId: string | null }>(p: T) => salaId === null || p.salaId === salaId;
  const room: Places = {
    config: roomPlaces.config,
    tables: roomPlaces.tables.filter(inRoom),
    combinations: roomPlaces.combinations.filter(inRoom),
  };
  const everyPlace = async (): Promise<Places> => {
    if (salaId === null) return roomPlaces;
    const { tables, combinations } = await readPlaces(deps);
    return { config: roomPlaces.config, tables, combinations };
  };
  const now = deps.now().getTime();
  const range = dayRange(deps.timeZone, [{ date, slots }]);
  if (range === null || room.tables.length === 0) {
    return {
      room: emptyRead(deps, room, now),
      whole: async () => readDay(deps, await everyPlace(), date, slots),
    };
  }
  const roomHeld = await deps.heldIn(
    room.tables.map((t) => t.id),
    range.from,
    range.to,
  );
  const whole = async () => {
    const places = await everyPlace();
    const roomIds = new Set(room.tables.map((t) => t.id));
    const others = places.tables.filter((t) => !roomIds.has(t.id)).map((t) => t.id);
    const held =
      others.length > 0 ? [...roomHeld, ...(await deps.heldIn(others, range.from, range.to))] : roomHeld;
    const holdsOf = spansByTable(held);
    const reseat = places.config.reseat ? await reseatOver(deps, places, held, holdsOf, now) : null;
    return dayRead(deps, places, holdsOf, slots, reseat, now);
  };
  return { room: dayRead(deps, room, spansByTable(roomHeld), slots, null, now), whole };
}

/** The instants to read holds over (ISO): a day before the dates' first local day to a day after the last; null when no date has a slot. */
function dayRange(zone: string, dates: readonly DateSlots[]): { from: string; to: string } | null {
  const open = dates.filter((d) => d.slots.length > 0);
  if (open.length === 0) return null;
  // Each date's local day and a day either side: what re-seating reads (moved bookings overlap the window).
  const from = Math.min(
    ...open.map((d) =>
      Math.min(localDayBounds(d.date, zone).start.getTime(), ...d.slots.map((s) => s.startsAt)),
    ),
  );
  const to = Math.max(
    ...open.map((d) =>
      Math.max(localDayBounds(d.date, zone).end.getTime(), ...d.slots.map((s) => s.startsAt)),
    ),
  );
  return { from: new Date(from - DAY_MS).toISOString(), to: new Date(to + DAY_MS).toISOString() };
}

/** A read that offers nothing (no slot, or no table). */
function emptyRead(deps: AvailabilityDeps, places: Places, now: number): DayRead {
  return dayRead(deps, places, () => [], [], null, now);
}

/** A date's search over the holds of `places`' tables. */
function dayRead(
  deps: AvailabilityDeps,
  { config, tables, combinations }: Places,
  holdsOf: (tableId: string) => OwnedSpan[],
  slots: BookableSlot[],
  reseat: ReseatForParty | null,
  now: number,
): DayRead {
  return {
    config,
    reseat,
    search: {
      shortenedMinMinutes: config.shortenedMinMinutes,
      tables,
      combinations,
      timeZone: deps.timeZone,
      slots,
      holdsOf,
      notBefore: now,
    },
  };
}

/** The holds as owned spans, by table. */
function spansByTable(held: readonly HeldEntry[]): (tableId: string) => OwnedSpan[] {
  const spans = new Map<string, OwnedSpan[]>();
  for (const h of held) {
    const span = {
      ownerId: h.entry.bookingId,
      start: Date.parse(h.entry.start),
      end: Date.parse(h.entry.end),
    };
    const list = spans.get(h.tableId);
    if (list) list.push(span);
    else spans.set(h.tableId, [span]);
  }
  return (tableId) => spans.get(tableId) ?? [];
}

/** Re-seating over every place and `held` (every table's holds): the bookings holding them read once. */
async function reseatOver(
  deps: AvailabilityDeps,
  places: Places,
  held: readonly HeldEntry[],
  holdsOf: (tableId: string) => OwnedSpan[],
  now: number,
): Promise<ReseatForParty> {
  const owners = [...new Set(held.filter((h) => h.entry.owner !== 'opzione').map((h) => h.entry.bookingId))];
  const snapshot: ReseatSnapshot = {
    tables: places.tables,
    combinations: places.combinations,
    holdsOf,
    bookings: new Map((owners.length ? await deps.bookings(owners) : []).map((b) => [b.id, b])),
    frozenUntil: now + places.config.reseatFreezeMinutes * 60_000,
  };
  const dayOf = localDays(deps.timeZone);
  const lookups = memoizedLookups(snapshot);
  return (covers, fitting, window) =>
    planReseat({
      ...reseatSearchOf(
        snapshot,
        { ownerId: SEARCH_OWNER, covers, window, day: dayOf(window.start) },
        fitting,
      ),
      ...lookups,
      limits: { steps: SEARCH_RESEAT_STEPS },
    });
}

/**
 * The re-seating search's lookups over the day's snapshot (reseatSearchOf's own, pure), each answer kept: a day's
 * searches ask the same rooms' places and the same blocking bookings again and again (one search per slot and party).
 */
function memoizedLookups(snapshot: ReseatSnapshot): Pick<ReseatSearch, 'places' | 'bookingOf' | 'salaOf'> {
  const { places, bookingOf, salaOf } = reseatSearchOf(
    snapshot,
    { ownerId: SEARCH_OWNER, covers: 1, window: { start: 0, end: 0 }, day: { start: 0, end: 0 } },
    [],
  );
  const placesKept = new Map<string, SeatCandidate[]>();
  const bookingsKept = new Map<string, BlockingBooking | undefined>();
  return {
    places: (covers, salaId) => kept(placesKept, `${covers}|${salaId}`, () => places(covers, salaId)),
    bookingOf: (id) => kept(bookingsKept, id, () => bookingOf(id)),
    salaOf,
  };
}

function kept<T>(known: Map<string, T>, key: string, make: () => T): T {
  if (known.has(key)) return known.get(key) as T;
  const value = make();
  known.set(key, value);
  return value;
}
