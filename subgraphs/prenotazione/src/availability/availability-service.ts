import { mapWithConcurrency } from '@coperto/async';
import { turnMinutes, zoneOffsetMinutes } from '@coperto/domain';
import {
  checkDisponibilita,
  checkDisponibilitaParties,
  type DisponibilitaArgs,
  type DisponibilitaPartiesArgs,
} from './availability-input.js';
import { readDayInSteps, readDays, readPlaces, type AvailabilityDeps, type DayRead } from './day-read.js';
import { roomPlaces, searchDay, type OfferedTime, type ReseatFor } from './day-search.js';
import { searchDayForParties } from './parties-search.js';

/** capacity's slots of the dates of one `days` request asked at once. */
const DATES_AT_ONCE = 4;

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

/**
 * GET /api/disponibilita (docs/availability.md): reads the day once — capacity's slots, tavolo's active tables
 * and combinations, the agendas' holds of the tables around the day and (re-seating needed) the bookings holding
 * them — and answers every bookable time from that snapshot (day-search.ts).
 */
export class AvailabilityService {
  constructor(private readonly deps: AvailabilityDeps) {}

  /**
   * Every bookable time of a day for one party (GET /api/disponibilita): searched first over the room's places
   * alone (tavolo lists that room's; every place without `salaId`), and again over the whole read only when a slot
   * has no free place and re-seating is on (day-read.ts readDayInSteps), so a day with a free place at every slot
   * reads neither the other rooms' tables and holds nor the bookings.
   */
  async day(args: DisponibilitaArgs): Promise<DisponibilitaView> {
    const query = checkDisponibilita(args, this.deps.timeZone);
    const [places, slots] = await Promise.all([
      readPlaces(this.deps, query.salaId),
      this.deps.slots(query.date),
    ]);
    const steps = await readDayInSteps(this.deps, places, query.date, slots, query.salaId);
    const searchOver = (read: DayRead, reseat: ReseatFor | null) => ({
      ...read.search,
      covers: query.covers,
      turnMinutes: turnMinutes(read.config.turnTimes, query.covers, read.config.defaultMealMinutes),
      salaId: query.salaId,
      wished: query.wished,
      limit: query.limit,
      reseat,
    });
    let reseatAsked = false;
    // A slot with no free place asks re-seating; a room with no place fitting the party cannot be re-seated into.
    const ask: ReseatFor = (fitting) => {
      if (fitting.length > 0) reseatAsked = true;
      return null;
    };
    let search = searchOver(steps.room, places.config.reseat ? ask : null);
    let found = searchDay(search);
    if (reseatAsked) {
      const whole = await steps.whole();
      const { reseat } = whole;
      search = searchOver(whole, reseat && ((fitting, window) => reseat(query.covers, fitting, window)));
      found = searchDay(search);
    }
    const clock = wallClocks(this.deps.timeZone);
    const times = found.map((t) => offeredView(t, clock, this.deps.showPlaces));
    return dayView(query.date, query.covers, roomPlaces(search).length, times);
  }

  /**
   * Whole days for each of several party sizes (`disponibilitaPerCoperti`, the Google adapter and feed): the places
   * and settings read once, each date's slots once, the holds (and re-seating's bookings) of all the dates in one read
   * (day-read.ts readDays), and each day searched once for all the parties (parties-search.ts), each party's answer
   * the one `day` gives it without `ora` and `limite`. By date, then party.
   */
  async days(args: DisponibilitaPartiesArgs): Promise<DisponibilitaView[]> {
    const query = checkDisponibilitaParties(args);
    const places = await readPlaces(this.deps);
    const clock = wallClocks(this.deps.timeZone);
    const parties = query.covers.map((covers) => ({
      covers,
      turnMinutes: turnMinutes(places.config.turnTimes, covers, places.config.defaultMealMinutes),
    }));
    const slots = await mapWithConcurrency(query.dates, DATES_AT_ONCE, (date) => this.deps.slots(date));
    const reads = await readDays(
      this.deps,
      places,
      query.dates.map((date, i) => ({ date, slots: slots[i]! })),
    );
    const byDate = reads.map((read, i) =>
      searchDayForParties({ ...read.search, salaId: query.salaId, parties, reseat: read.reseat }).map((a) =>
        dayView(
          query.dates[i]!,
          a.covers,
          a.places,
          a.times.map((t) => offeredView(t, clock, this.deps.showPlaces)),
        ),
      ),
    );
    return byDate.flat();
  }
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
