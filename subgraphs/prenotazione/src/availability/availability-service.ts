import { localDayBounds, turnMinutes, zoneOffsetMinutes } from '@coperto/domain';
import { planReseat, type OwnedSpan } from '../seating/reseat-plan.js';
import type { PrenotazioneRecord } from '../bookings/prenotazione-record.js';
import type { SeatingSources } from '../seating/seating-sources.js';
import type { HeldEntry } from '../seating/table-claims.js';
import type { SeatCandidate, Span } from '../seating/assignment.js';
import {
  checkDisponibilita,
  checkDisponibilitaParties,
  type DisponibilitaArgs,
  type DisponibilitaPartiesArgs,
} from './availability-input.js';
import { localDays, roomPlaces, searchDay, type BookableSlot, type OfferedTime } from './day-search.js';
import { searchDayForParties, type PartiesDaySearch, type ReseatForParty } from './parties-search.js';
import { reseatSearchOf, type ReseatSnapshot } from '../seating/reseat-snapshot.js';

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

/** One offered time as answered (both name forms; the place for staff). */
export interface OfferedTimeView {
  ora: string;
  time: string;
  dataOra: string;
  bookingDate: string;
  durataMinuti: number;
  durationMinutes: number;
  ridotto: boolean;
  shortened: boolean;
  /** How many of the party's places are free for the stay (a re-seated time: 1). */
  postiLiberi: number;
  spotsOpen: number;
  /** Null for a channel key (the guest is not told which table). */
  tableIds: string[] | null;
  combinationId: string | null;
}

export interface DisponibilitaView {
  data: string;
  date: string;
  coperti: number;
  covers: number;
  /** The party's places: active tables that seat it and combinations whose range holds it (in the room asked). */
  postiTotali: number;
  spotsTotal: number;
  orari: OfferedTimeView[];
  times: OfferedTimeView[];
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

/**
 * GET /api/disponibilita (docs/availability.md): reads the day once — capacity's slots, tavolo's active tables
 * and combinations, the agendas' holds of every table around the day and (re-seating on) the bookings holding
 * them — and answers every bookable time from that snapshot (day-search.ts).
 */
export class AvailabilityService {
  constructor(private readonly deps: AvailabilityDeps) {}

  /** Every bookable time of a day for one party (GET /api/disponibilita). */
  async day(args: DisponibilitaArgs): Promise<DisponibilitaView> {
    const query = checkDisponibilita(args, this.deps.timeZone);
    const read = await this.read(query.date);
    const { reseat } = read;
    const search = {
      ...read.search,
      covers: query.covers,
      turnMinutes: turnMinutes(read.config.turnTimes, query.covers, read.config.defaultMealMinutes),
      salaId: query.salaId,
      wished: query.wished,
      limit: query.limit,
      reseat:
        reseat &&
        ((fitting: readonly SeatCandidate[], window: Span) => reseat(query.covers, fitting, window)),
    };
    const clock = wallClocks(this.deps.timeZone);
    const times = searchDay(search).map((t) => offeredView(t, clock, this.deps.showPlaces));
    return dayView(query.date, query.covers, roomPlaces(search).length, times);
  }

  /**
   * Every bookable time of a day for each of several party sizes (`disponibilitaPerCoperti`, the Google adapter and
   * feed): the day read once and searched once for all of them (parties-search.ts), each party's answer the one
   * `day` gives it without `ora` and `limite`.
   */
  async days(args: DisponibilitaPartiesArgs): Promise<DisponibilitaView[]> {
    const query = checkDisponibilitaParties(args);
    const read = await this.read(query.date);
    const answers = searchDayForParties({
      ...read.search,
      salaId: query.salaId,
      parties: query.covers.map((covers) => ({
        covers,
        turnMinutes: turnMinutes(read.config.turnTimes, covers, read.config.defaultMealMinutes),
      })),
      reseat: read.reseat,
    });
    const clock = wallClocks(this.deps.timeZone);
    return answers.map((a) =>
      dayView(
        query.date,
        a.covers,
        a.places,
        a.times.map((t) => offeredView(t, clock, this.deps.showPlaces)),
      ),
    );
  }

  /**
   * The day read once: capacity's slots, tavolo's active tables and combinations, the holds of every table from a
   * day before to a day after it (what re-seating reads) and, re-seating on, the bookings holding them. When
   * there is no slot or no table, nothing more is read (no time is offered).
   */
  private async read(date: string): Promise<DayRead> {
    const zone = this.deps.timeZone;
    const [config, tables, combinations, slots] = await Promise.all([
      this.deps.sources.config(),
      this.deps.sources.activeTables(),
      this.deps.sources.activeCombinations(),
      this.deps.slots(date),
    ]);
    const search = {
      slots,
      shortenedMinMinutes: config.shortenedMinMinutes,
      tables,
      combinations,
      timeZone: zone,
    };
    const now = this.deps.now().getTime();
    if (slots.length === 0 || tables.length === 0) {
      return { config, reseat: null, search: { ...search, slots: [], holdsOf: () => [], notBefore: now } };
    }
    const bounds = localDayBounds(date, zone);
    const firstSlot = Math.min(...slots.map((s) => s.startsAt));
    const lastSlot = Math.max(...slots.map((s) => s.startsAt));
    // The local day and a day either side: what re-seating reads (moved bookings overlap the window).
    const from = Math.min(bounds.start.getTime(), firstSlot) - DAY_MS;
    const to = Math.max(bounds.end.getTime(), lastSlot) + DAY_MS;
    const held = await this.deps.heldIn(
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
        bookings: new Map((owners.length ? await this.deps.bookings(owners) : []).map((b) => [b.id, b])),
        frozenUntil: now + config.reseatFreezeMinutes * 60_000,
      };
      const dayOf = localDays(zone);
      reseat = (covers, fitting, window) =>
        planReseat({
          ...reseatSearchOf(
            snapshot,
            { ownerId: SEARCH_OWNER, covers, window, day: dayOf(window.start) },
            fitting,
          ),
          limits: { steps: SEARCH_RESEAT_STEPS },
        });
    }
    return { config, reseat, search: { ...search, holdsOf, notBefore: now } };
  }
}

/** What `read` gives a search: the day's data and re-seating over it (null when off). */
interface DayRead {
  config: Awaited<ReturnType<AvailabilityDeps['sources']['config']>>;
  reseat: ReseatForParty | null;
  search: Omit<PartiesDaySearch, 'parties' | 'reseat' | 'salaId'>;
}

function dayView(date: string, covers: number, places: number, orari: OfferedTimeView[]): DisponibilitaView {
  return {
    data: date,
    date,
    coperti: covers,
    covers,
    postiTotali: places,
    spotsTotal: places,
    orari,
    times: orari,
  };
}

/** The restaurant's wall clock of an instant ('YYYY-MM-DDTHH:mm:ss'), each instant computed once. */
export function wallClocks(zone: string): (at: number) => string {
  const known = new Map<number, string>();
  return (at) => {
    let local = known.get(at);
    if (local === undefined) {
      local = new Date(at + zoneOffsetMinutes(at, zone) * 60_000).toISOString().slice(0, 19);
      known.set(at, local);
    }
    return local;
  };
}

/** An offered time in the restaurant's local wall clock (what a booking's `bookingDate` is read in). */
export function offeredView(
  offered: OfferedTime,
  wallClock: (at: number) => string,
  showPlaces = true,
): OfferedTimeView {
  const local = wallClock(offered.startsAt);
  const clock = local.slice(11, 16);
  return {
    ora: clock,
    time: clock,
    dataOra: local,
    bookingDate: local,
    durataMinuti: offered.durationMinutes,
    durationMinutes: offered.durationMinutes,
    ridotto: offered.shortened,
    shortened: offered.shortened,
    postiLiberi: offered.spotsOpen,
    spotsOpen: offered.spotsOpen,
    tableIds: showPlaces ? [...offered.place.tableIds] : null,
    combinationId: showPlaces && offered.place.kind === 'combination' ? offered.place.id : null,
  };
}
