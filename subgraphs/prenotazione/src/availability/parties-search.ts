import { compareListed, seatCandidates, type SeatCandidate, type Span } from '../seating/assignment.js';
import type { ReseatPlan } from '../seating/reseat-plan.js';
import { localDays, reseatedTime, type DaySearch, type OfferedTime } from './day-search.js';
import { FreeTime } from './free-time.js';

/** A party size asked about, with its turn time. */
export interface PartySize {
  covers: number;
  turnMinutes: number;
}

/**
 * Re-seating for one party size over its fitting places (every room), as `DaySearch.reseat` for that party. The plan
 * depends on the fitting places and the window, not on the party size (planReseat reads no covers: a moved booking's
 * own covers choose its destination), so parties with the same fitting places and turn time share one search.
 */
export type ReseatForParty = (
  covers: number,
  fitting: readonly SeatCandidate[],
  window: Span,
) => ReseatPlan | null;

/** One day, every party size asked: what the day search reads once, for all of them. */
export interface PartiesDaySearch extends Pick<
  DaySearch,
  | 'slots'
  | 'shortenedMinMinutes'
  | 'tables'
  | 'combinations'
  | 'salaId'
  | 'holdsOf'
  | 'timeZone'
  | 'notBefore'
> {
  parties: readonly PartySize[];
  /** Null when the tenant's re-seating is off. */
  reseat: ReseatForParty | null;
}

/** A party size's answer: its places (Google's `spots_total`) and its offered times, in time order. */
export interface PartyDay {
  covers: number;
  places: number;
  times: OfferedTime[];
}

/** A place with the party sizes it seats: a table 1..seats, a combination minCovers..maxCovers. */
interface Place {
  candidate: SeatCandidate;
  fromCovers: number;
  toCovers: number;
}

/**
 * The whole day for every party size at once (the Google adapter and feed): the same answer `searchDay` gives
 * each party without `ora` and `limite` (a property test compares them), computed once for all of them. Each
 * table's free time is merged once; at each slot every place's free run is read once, each distinct turn time's
 * ranking figures (the free time around the window) once, and each party takes the first of its fitting places
 * by the autoAssign rule (single tables first, fewest empty seats, shortest gap, tavolo's order, id) in one pass,
 * counting the free ones. Only a party with no free place runs re-seating and the shortened stay, as `searchDay`.
 */
export function searchDayForParties(search: PartiesDaySearch): PartyDay[] {
  const places = roomPlaces(search);
  const free = new FreeTime(
    places.flatMap((p) => p.candidate.tableIds),
    search.holdsOf,
  );
  const localDay = localDays(search.timeZone);
  const slots = search.slots
    .filter((s) => s.startsAt >= search.notBefore)
    .sort((a, b) => a.startsAt - b.startsAt);
  const answers = search.parties.map((party) => {
    const turnMs = party.turnMinutes * 60_000;
    const fitting = search.reseat ? seatCandidates(search.tables, search.combinations, party.covers) : [];
    return {
      party,
      turnMs,
      fitting,
      /** The fitting places and the turn time: parties with the same key get the same re-seating plan. */
      reseatKey: `${turnMs}|${fitting.map((c) => `${c.kind}:${c.id}`).join()}`,
      day: {
        covers: party.covers,
        places: places.filter((p) => fits(p, party.covers)).length,
        times: [] as OfferedTime[],
      },
    };
  });
  const runs = new Float64Array(places.length);
  /** The slot's re-seating plans by reseatKey. */
  const plans = new Map<string, ReseatPlan | null>();
  /** Per turn time (ms): each place's gap for the slot's window, NaN when the place is not free for it. */
  const gaps = new Map<number, Float64Array>();
  for (const slot of slots) {
    const at = slot.startsAt;
    const day = localDay(at);
    places.forEach((p, i) => (runs[i] = free.placeRunFrom(p.candidate.tableIds, at)));
    gaps.clear();
    plans.clear();
    const gapsFor = (length: number) => {
      let row = gaps.get(length);
      if (!row) {
        row = new Float64Array(places.length);
        const window = { start: at, end: at + length };
        places.forEach(
          (p, i) =>
            (row![i] = runs[i]! >= length ? free.placeGapAround(p.candidate.tableIds, window, day) : NaN),
        );
        gaps.set(length, row);
      }
      return row;
    };
    for (const answer of answers) {
      const { party, turnMs } = answer;
      if (slot.coversBookable < party.covers) continue;
      const full = pick(places, party.covers, gapsFor(turnMs));
      if (full.place) {
        answer.day.times.push(offered(at, party.turnMinutes, full, false));
        continue;
      }
      let plan = search.reseat && plans.get(answer.reseatKey);
      if (search.reseat && plan === undefined) {
        plan = search.reseat(party.covers, answer.fitting, { start: at, end: at + turnMs });
        plans.set(answer.reseatKey, plan);
      }
      if (plan && (search.salaId === null || plan.target.salaId === search.salaId)) {
        answer.day.times.push(reseatedTime(at, party.turnMinutes, plan.target));
        continue;
      }
      const minutes = shortenedMinutes(search, party, places, runs);
      if (minutes === null) continue;
      const short = pick(places, party.covers, gapsFor(minutes * 60_000));
      if (short.place) answer.day.times.push(offered(at, minutes, short, true));
    }
  }
  return answers.map((a) => a.day);
}

/** The places of the room asked for (every room when null): active tables, active combinations. */
function roomPlaces(search: Pick<PartiesDaySearch, 'tables' | 'combinations' | 'salaId'>): Place[] {
  const inRoom = (c: SeatCandidate) => search.salaId === null || c.salaId === search.salaId;
  const tables: Place[] = seatCandidates(search.tables, [], 1)
    .filter(inRoom)
    .map((candidate) => ({ candidate, fromCovers: 1, toCovers: candidate.capacity }));
  const combinations: Place[] = search.combinations.flatMap((c, order) =>
    seatCandidates([], [c], c.minCovers)
      .filter(inRoom)
      .map((candidate) => ({
        candidate: { ...candidate, order },
        fromCovers: c.minCovers,
        toCovers: c.maxCovers,
      })),
  );
  return [...tables, ...combinations];
}

const fits = (place: Place, covers: number) => place.fromCovers <= covers && covers <= place.toCovers;

/**
 * The autoAssign rule's first choice among the places fitting `covers` that are free for the window (a gap, not
 * NaN), and how many are free: assignment.ts compareRanked, over numbers read once per slot.
 */
function pick(
  places: readonly Place[],
  covers: number,
  gaps: Float64Array,
): { place: SeatCandidate | null; open: number } {
  let best = -1;
  let open = 0;
  for (let i = 0; i < places.length; i++) {
    const gap = gaps[i]!;
    if (Number.isNaN(gap) || !fits(places[i]!, covers)) continue;
    open++;
    if (best < 0 || ranksBefore(places[i]!.candidate, gap, places[best]!.candidate, gaps[best]!)) best = i;
  }
  return { place: best < 0 ? null : places[best]!.candidate, open };
}

function ranksBefore(a: SeatCandidate, aGap: number, b: SeatCandidate, bGap: number): boolean {
  if (a.kind !== b.kind) return a.kind === 'table';
  if (a.capacity !== b.capacity) return a.capacity < b.capacity;
  if (aGap !== bGap) return aGap < bGap;
  return compareListed(a, b) < 0;
}

/** `searchDay`'s shortened stay for one party, from the slot's free runs of its fitting places. */
function shortenedMinutes(
  search: Pick<PartiesDaySearch, 'shortenedMinMinutes'>,
  party: PartySize,
  places: readonly Place[],
  runs: Float64Array,
): number | null {
  if (search.shortenedMinMinutes === null) return null;
  let longest = 0;
  places.forEach((p, i) => {
    if (fits(p, party.covers)) longest = Math.max(longest, runs[i]!);
  });
  const minutes = Math.min(Math.floor(longest / 60_000), party.turnMinutes - 1);
  return minutes >= search.shortenedMinMinutes ? minutes : null;
}

function offered(
  startsAt: number,
  durationMinutes: number,
  { place, open }: { place: SeatCandidate | null; open: number },
  shortened: boolean,
): OfferedTime {
  return { startsAt, durationMinutes, shortened, place: place!, reseated: false, spotsOpen: open };
}
