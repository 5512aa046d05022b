import { localDayBounds, turnMinutes, zoneOffsetMinutes } from '@coperto/domain';
import { planReseat, type OwnedSpan } from '../seating/reseat-plan.js';
import type { PrenotazioneRecord } from '../bookings/prenotazione-record.js';
import type { SeatingSources } from '../seating/seating-sources.js';
import type { HeldEntry } from '../seating/table-claims.js';
import { checkDisponibilita, type DisponibilitaArgs } from './availability-input.js';
import { localDays, searchDay, type BookableSlot, type OfferedTime } from './day-search.js';
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
  /** Null for a channel key (the guest is not told which table). */
  tableIds: string[] | null;
  combinationId: string | null;
}

export interface DisponibilitaView {
  data: string;
  date: string;
  coperti: number;
  covers: number;
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

  async day(args: DisponibilitaArgs): Promise<DisponibilitaView> {
    const zone = this.deps.timeZone;
    const query = checkDisponibilita(args, zone);
    const [config, tables, combinations, slots] = await Promise.all([
      this.deps.sources.config(),
      this.deps.sources.activeTables(),
      this.deps.sources.activeCombinations(),
      this.deps.slots(query.date),
    ]);
    const view = (times: OfferedTime[]): DisponibilitaView => {
      const orari = times.map((t) => offeredView(t, zone, this.deps.showPlaces));
      return {
        data: query.date,
        date: query.date,
        coperti: query.covers,
        covers: query.covers,
        orari,
        times: orari,
      };
    };
    if (slots.length === 0 || tables.length === 0) return view([]);
    const bounds = localDayBounds(query.date, zone);
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
      spans.set(h.tableId, [...(spans.get(h.tableId) ?? []), span]);
    }
    const holdsOf = (tableId: string) => spans.get(tableId) ?? [];
    const now = this.deps.now().getTime();
    let reseat = null;
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
      reseat = (fitting: Parameters<typeof reseatSearchOf>[2], window: { start: number; end: number }) =>
        planReseat({
          ...reseatSearchOf(
            snapshot,
            { ownerId: SEARCH_OWNER, covers: query.covers, window, day: dayOf(window.start) },
            fitting,
          ),
          limits: { steps: SEARCH_RESEAT_STEPS },
        });
    }
    return view(
      searchDay({
        slots,
        covers: query.covers,
        turnMinutes: turnMinutes(config.turnTimes, query.covers, config.defaultMealMinutes),
        shortenedMinMinutes: config.shortenedMinMinutes,
        tables,
        combinations,
        salaId: query.salaId,
        holdsOf,
        timeZone: zone,
        notBefore: now,
        wished: query.wished,
        limit: query.limit,
        reseat,
      }),
    );
  }
}

/** An offered time in the restaurant's local wall clock (what a booking's `bookingDate` is read in). */
export function offeredView(offered: OfferedTime, zone: string, showPlaces = true): OfferedTimeView {
  const offset = zoneOffsetMinutes(offered.startsAt, zone);
  const local = new Date(offered.startsAt + offset * 60_000).toISOString().slice(0, 19);
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
    tableIds: showPlaces ? [...offered.place.tableIds] : null,
    combinationId: showPlaces && offered.place.kind === 'combination' ? offered.place.id : null,
  };
}
