import { mapWithConcurrency } from '@coperto/async';
import { turnMinutes, zoneOffsetMinutes } from '@coperto/domain';
import type { SeatCandidate, Span } from '../seating/assignment.js';
import {
  checkDisponibilita,
  checkDisponibilitaParties,
  type DisponibilitaArgs,
  type DisponibilitaPartiesArgs,
} from './availability-input.js';
import { readDay, readPlaces, type AvailabilityDeps } from './day-read.js';
import { roomPlaces, searchDay, type OfferedTime } from './day-search.js';
import { searchDayForParties } from './parties-search.js';

/** Dates of one `days` request read and searched at once. */
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
 * and combinations, the agendas' holds of every table around the day and (re-seating on) the bookings holding
 * them — and answers every bookable time from that snapshot (day-search.ts).
 */
export class AvailabilityService {
  constructor(private readonly deps: AvailabilityDeps) {}

  /** Every bookable time of a day for one party (GET /api/disponibilita). */
  async day(args: DisponibilitaArgs): Promise<DisponibilitaView> {
    const query = checkDisponibilita(args, this.deps.timeZone);
    const [places, slots] = await Promise.all([readPlaces(this.deps), this.deps.slots(query.date)]);
    const read = await readDay(this.deps, places, query.date, slots);
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
   * Whole days for each of several party sizes (`disponibilitaPerCoperti`, the Google adapter and feed): the places
   * and settings read once, each date's slots and holds once, and each day searched once for all the parties
   * (parties-search.ts), each party's answer the one `day` gives it without `ora` and `limite`. By date, then party.
   */
  async days(args: DisponibilitaPartiesArgs): Promise<DisponibilitaView[]> {
    const query = checkDisponibilitaParties(args);
    const places = await readPlaces(this.deps);
    const clock = wallClocks(this.deps.timeZone);
    const parties = query.covers.map((covers) => ({
      covers,
      turnMinutes: turnMinutes(places.config.turnTimes, covers, places.config.defaultMealMinutes),
    }));
    const byDate = await mapWithConcurrency(query.dates, DATES_AT_ONCE, async (date) => {
      const read = await readDay(this.deps, places, date, await this.deps.slots(date));
      const answers = searchDayForParties({
        ...read.search,
        salaId: query.salaId,
        parties,
        reseat: read.reseat,
      });
      return answers.map((a) =>
        dayView(
          date,
          a.covers,
          a.places,
          a.times.map((t) => offeredView(t, clock, this.deps.showPlaces)),
        ),
      );
    });
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
