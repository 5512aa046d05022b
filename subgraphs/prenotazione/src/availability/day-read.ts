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

/** The seating settings and tavolo's active tables and combinations: read once for every date a request asks. */
export async function readPlaces(deps: Pick<AvailabilityDeps, 'sources'>): Promise<Places> {
  const [config, tables, combinations] = await Promise.all([
    deps.sources.config(),
    deps.sources.activeTables(),
    deps.sources.activeCombinations(),
  ]);
  return { config, tables, combinations };
}

/**
 * A date read once over the places: capacity's `slots` of it, the holds of every table from a day before to a day
 * after it (what re-seating reads) and, re-seating on, the bookings holding them. When there is no slot or no
 * table, nothing more is read (no time is offered).
 */
export async function readDay(
  deps: AvailabilityDeps,
  { config, tables, combinations }: Places,
  date: string,
  slots: BookableSlot[],
): Promise<DayRead> {
  const zone = deps.timeZone;
  const search = {
    slots,
    shortenedMinMinutes: config.shortenedMinMinutes,
    tables,
    combinations,
    timeZone: zone,
  };
  const now = deps.now().getTime();
  if (slots.length === 0 || tables.length === 0) {
    return { config, reseat: null, search: { ...search, slots: [], holdsOf: () => [], notBefore: now } };
  }
  const bounds = localDayBounds(date, zone);
  const firstSlot = Math.min(...slots.map((s) => s.startsAt));
  const lastSlot = Math.max(...slots.map((s) => s.startsAt));
  // The local day and a day either side: what re-seating reads (moved bookings overlap the window).
  const from = Math.min(bounds.start.getTime(), firstSlot) - DAY_MS;
  const to = Math.max(bounds.end.getTime(), lastSlot) + DAY_MS;
  const held = await deps.heldIn(
    tables.map((t) => t.id),
    new Date(from).toISOString(),
    new Date(to).toISOString(),
  );
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
  const holdsOf = (tableId: string) => spans.get(tableId) ?? [];
  let reseat: ReseatForParty | null = null;
  if (config.reseat) {
    const owners = [
      ...new Set(held.filter((h) => h.entry.owner !== 'opzione').map((h) => h.entry.bookingId)),
    ];
    const snapshot: ReseatSnapshot = {
      tables,
      combinations,
      holdsOf,
      bookings: new Map((owners.length ? await deps.bookings(owners) : []).map((b) => [b.id, b])),
      frozenUntil: now + config.reseatFreezeMinutes * 60_000,
    };
    const dayOf = localDays(zone);
    const lookups = memoizedLookups(snapshot);
    reseat = (covers, fitting, window) =>
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
  return { config, reseat, search: { ...search, holdsOf, notBefore: now } };
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
