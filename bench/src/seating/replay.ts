/**
 * Scenario 8's replay driver: one evening of one demand level under one policy, in its own tenant, through the
 * running service's REST API, on the service's virtual clock (moved to each event's minute before the event's
 * calls). One call at a time, so the same seed gives the same figures.
 *
 * Each booking request at its request time (the policy's calls; same-day ones also during service), each
 * cancellation at its time (POST …/annulla); every booking of the day is read back just before opening. The
 * evening runs minute by minute, events only where something happens:
 * - a booked party arrives at the time it booked: its tables (read back: re-seating may have moved them) become
 *   `occupied`; it leaves after its stay: booking `completata`, tables `free`;
 * - a no-show never arrives: its booking becomes `no_show` NO_SHOW_GRACE_MINUTES after its time;
 * - a walk-in joins the waitlist (POST /api/attesa) and gets a quote; it balks when the quote exceeds its
 *   patience (annulla, state left), else waits; whenever a table may have freed (a departure, a no-show, a new
 *   walk-in) waiting parties are offered a table oldest first (POST /api/attesa/:id/siedi, auto-assigned);
 *   a party still waiting max(quote, patience) + RENEGE_GRACE_MINUTES after joining gives up (reneges);
 *   anyone still waiting at closing time leaves.
 */
import { ApiError, graphql, type Api } from '../api.js';
import {
  NO_SHOW_GRACE_MINUTES,
  RENEGE_GRACE_MINUTES,
  type BookingRequest,
  type Demand,
  type WalkIn,
} from './demand.js';
import { briefError, errorCode } from './api-errors.js';
import { EventQueue } from './event-queue.js';
import { localDateTime, localInstant } from './local-time.js';
import { checkReadBack, type ReadBackBooking, type WalkInOutcome } from './metrics.js';
import { book, type PolicyName } from './policies.js';
import { turnMinutes, type RestaurantSpec } from './restaurant.js';
import type { VirtualClock } from './virtual-clock.js';
import { refusalReason } from './refusal-reason.js';
import { reseatBound } from './reseat-bound.js';

/** The service's default reseatFreezeMinutes (the simulator does not change it). */
const FREEZE_MINUTES = 60;

/** Whether an exhaustive re-seating could have seated a refused party (reseat-bound.ts), both ways. */
function boundLine(
  spec: RestaurantSpec,
  names: ReadonlyMap<string, string>,
  day: readonly ReadBackBooking[],
  request: BookingRequest,
  now: number,
  start: number,
): string {
  const covers = request.covers;
  const window = { covers, start, end: start + turnMinutes(spec.turnTimes, covers) * 60_000 };
  const at = { spec, names, day, request: window, now, freezeMinutes: FREEZE_MINUTES };
  return (
    `exhaustive rules ${reseatBound({ ...at, mode: 'rules' })} ` +
    `relaxed ${reseatBound({ ...at, mode: 'relaxed' })}`
  );
}

export interface EveningInput {
  api: Api;
  clock: VirtualClock;
  spec: RestaurantSpec;
  demand: Demand;
  policy: PolicyName;
  /** The service day (YYYY-MM-DD) and the restaurant's time zone. */
  date: string;
  timeZone: string;
  /** Reads every booking of the day (default: GraphQL on the same service, see readBackDay). */
  readDay?: (date: string) => Promise<ReadBackBooking[]>;
  /** Seats by table id: with it, each refusal and each seated walk-in is explained in `diagnostics`. */
  diagnose?: ReadonlyMap<string, number>;
  /** Table name by id: with `diagnose`, each refusal is also checked by an exhaustive re-seating search. */
  tableNames?: ReadonlyMap<string, string>;
}

export interface EveningResult {
  requests: number;
  booked: number;
  refused: number;
  cancelled: number;
  noShows: number;
  /** Every booking of the day as the service answers before service starts and after it closes. */
  beforeService: ReadBackBooking[];
  afterClose: ReadBackBooking[];
  walkIns: WalkInOutcome[];
  /** Why the walk-ins did not run (the waitlist API missing), or null. */
  waitlistMissing: string | null;
  /** Calls that failed unexpectedly (not a refusal): how many, and the first message. */
  errors: number;
  firstError: string | null;
  /** One line per refusal and per seated walk-in (only with `diagnose`). */
  diagnostics: string[];
}

type ServiceEvent =
  | { type: 'request'; request: BookingRequest }
  | { type: 'cancel'; request: BookingRequest }
  | { type: 'snapshot' }
  | { type: 'depart'; bookingId: string; tableIds: string[] }
  | { type: 'no-show'; bookingId: string }
  | { type: 'arrive'; covers: number; stay: number; bookingId: string }
  | { type: 'walk-in'; walkIn: WalkIn }
  | { type: 'renege'; entryId: string }
  | { type: 'close' };

/** Ranks within a minute: tables free up before anyone is seated or asks for one. */
const RANK: Record<ServiceEvent['type'], number> = {
  depart: 0,
  'no-show': 1,
  cancel: 2,
  request: 3,
  arrive: 4,
  'walk-in': 5,
  renege: 6,
  snapshot: 7,
  close: 8,
};

interface Waiting {
  entryId: string;
  walkIn: WalkIn;
  joinedAt: number;
  outcome: WalkInOutcome;
  suggested: string[];
  aheadAtJoin: string;
}

interface WaitlistEntry {
  id: string;
  quotedMinutes?: number | null;
  suggestedTableIds?: string[];
  prenotazioneId?: string | null;
  tableIds?: string[];
}

/**
 * Every booking of the day, through GraphQL: the REST list does not carry `endsAt` (the end of the hold the
 * service computed), which the double-booking check needs.
 */
async function readBackDay(api: Api, date: string): Promise<ReadBackBooking[]> {
  const query = `{ prenotazioni(filter: { dal: "${date}", al: "${date}" }) {
    id covers tableIds state startsAt endsAt updatedAt } }`;
  const data = await graphql<{ prenotazioni: unknown[] }>(`${api.baseUrl}/graphql`, api.token, query);
  return checkReadBack(data.prenotazioni);
}

export async function replayEvening(input: EveningInput): Promise<EveningResult> {
  const { api, clock, spec, demand, policy, date, timeZone } = input;
  const at = (minute: number) => clock.set(localInstant(date, minute, timeZone));
  const result: EveningResult = {
    requests: demand.bookings.length,
    booked: 0,
    refused: 0,
    cancelled: 0,
    noShows: 0,
    beforeService: [],
    afterClose: [],
    walkIns: [],
    waitlistMissing: null,
    errors: 0,
    firstError: null,
    diagnostics: [],
  };
  /** Runs one step; an unexpected failure is counted and the evening goes on. */
  const step = async <T>(work: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await work();
    } catch (error) {
      result.errors++;
      result.firstError ??= briefError(error);
      return undefined;
    }
  };
  const readDay = () => (input.readDay ?? ((d: string) => readBackDay(api, d)))(date);

  const queue = new EventQueue<ServiceEvent>();
  for (const request of demand.bookings) {
    queue.push(request.requestAt, RANK.request, { type: 'request', request });
    if (request.cancelAt !== null) queue.push(request.cancelAt, RANK.cancel, { type: 'cancel', request });
  }
  queue.push(spec.open - 1, RANK.snapshot, { type: 'snapshot' });
  for (const walkIn of demand.walkIns)
    queue.push(walkIn.arriveAt, RANK['walk-in'], { type: 'walk-in', walkIn });
  queue.push(spec.close, RANK.close, { type: 'close' });
  const bookingIds = new Map<number, string>();
  /** The tables each booking got when it was made: a party arriving elsewhere was re-seated. */
  const bookedTables = new Map<string, string>();
  let reseated = 0;

  const waiting: Waiting[] = [];
  /** Diagnostics of seated walk-ins: the tables whose day explains a quote that was off. */
  const explain: { line: string; tableIds: string[] }[] = [];
  const setStatus = async (tableIds: readonly string[], status: string, pax?: number) => {
    for (const id of tableIds) {
      await api.call('PUT', `/api/tavoli/${id}/status`, { status, ...(pax === undefined ? {} : { pax }) });
    }
  };
  const leave = async (w: Waiting, outcome: WalkInOutcome['outcome'], motivo: string) => {
    waiting.splice(waiting.indexOf(w), 1);
    w.outcome.outcome = outcome;
    await step(() => api.call('POST', `/api/attesa/${w.entryId}/annulla`, { state: 'left', motivo }));
  };
  const seatWaiting = async (minute: number) => {
    let smallestRefused = Infinity;
    for (const w of [...waiting]) {
      if (w.walkIn.covers >= smallestRefused) continue;
      try {
        const entry = await api.call<WaitlistEntry>('POST', `/api/attesa/${w.entryId}/siedi`, {});
        waiting.splice(waiting.indexOf(w), 1);
        w.outcome.outcome = 'seated';
        w.outcome.waitedMinutes = minute - w.joinedAt;
        if (input.diagnose) {
          const name = (ids: readonly string[] | undefined) =>
            (ids ?? []).map((id) => `${id.slice(-4)}/${input.diagnose!.get(id)}`).join('+');
          const error = Math.abs((w.outcome.quotedMinutes ?? 0) - (w.outcome.waitedMinutes ?? 0));
          explain.push({
            line:
              `walk-in ${w.walkIn.id} covers ${w.walkIn.covers} joined ${w.joinedAt} quote ${w.outcome.quotedMinutes} ` +
              `waited ${w.outcome.waitedMinutes} suggested ${name(w.suggested)} seated ${name(entry.tableIds)} ` +
              `ahead-at-join ${w.aheadAtJoin}`,
            tableIds: error >= 10 ? [...new Set([...w.suggested, ...(entry.tableIds ?? [])])] : [],
          });
        }
        if (!entry.prenotazioneId) {
          result.errors++;
          result.firstError ??= `POST /api/attesa/${w.entryId}/siedi answered without prenotazioneId`;
          continue;
        }
        queue.push(minute + w.walkIn.stay, RANK.depart, {
          type: 'depart',
          bookingId: entry.prenotazioneId,
          tableIds: entry.tableIds ?? [],
        });
      } catch (error) {
        if (error instanceof ApiError && error.status === 409 && errorCode(error) === 'NO_TABLE_AVAILABLE') {
          smallestRefused = Math.min(smallestRefused, w.walkIn.covers);
          continue;
        }
        result.errors++;
        result.firstError ??= briefError(error);
      }
    }
  };

  let lastMinute = spec.close;
  // Before service: requests and cancellations; then the evening (same-day requests keep coming).
  for (let next = queue.shift(); next; next = queue.shift()) {
    const { minute, event } = next;
    lastMinute = minute;
    await at(minute);
    switch (event.type) {
      case 'request': {
        const { request } = event;
        const outcome = await step(() =>
          book(policy, api, {
            covers: request.covers,
            bookingDate: localDateTime(date, request.time),
            date,
            time: request.time,
            firstTime: spec.open,
            lastTime: spec.lastSeating,
            turnMinutes: turnMinutes(spec.turnTimes, request.covers),
            flexibility: request.flexibility,
            customerName: `Ospite ${request.id}`,
          }),
        );
        if (outcome?.kind === 'refused') {
          result.refused++;
          if (input.diagnose) {
            const day = await readDay();
            const bound = input.tableNames
              ? ` | ${boundLine(spec, input.tableNames, day, request, localInstant(date, minute, timeZone), localInstant(date, request.time, timeZone))}`
              : '';
            result.diagnostics.push(
              `refused ${request.id} covers ${request.covers} at ${request.time}: ` +
                refusalReason(day, input.diagnose, spec, date, timeZone, request) +
                bound,
            );
          }
        }
        if (outcome?.kind !== 'booked') break;
        result.booked++;
        bookingIds.set(request.id, outcome.id);
        bookedTables.set(outcome.id, [...outcome.tableIds].sort().join());
        if (request.cancelAt !== null) break;
        const bookingId = outcome.id;
        // The party comes at the time it booked and, told when its shortened table is needed back, leaves by then.
        const stay = Math.min(request.stay, outcome.durationMinutes ?? Infinity);
        if (request.noShow) {
          queue.push(outcome.time + NO_SHOW_GRACE_MINUTES, RANK['no-show'], { type: 'no-show', bookingId });
        } else
          queue.push(outcome.time, RANK.arrive, { type: 'arrive', stay, covers: request.covers, bookingId });
        break;
      }
      case 'cancel': {
        const id = bookingIds.get(event.request.id);
        if (id === undefined) break;
        await step(async () => {
          await api.call('POST', `/api/prenotazioni/${id}/annulla`, { motivo: 'plans changed' });
          result.cancelled++;
        });
        if (waiting.length > 0) await seatWaiting(minute);
        break;
      }
      case 'snapshot': {
        result.beforeService = await readDay();
        break;
      }
      case 'arrive': {
        await step(async () => {
          const current = await api.call<{ tableIds: string[] }>(
            'GET',
            `/api/prenotazioni/${event.bookingId}`,
          );
          if (bookedTables.get(event.bookingId) !== [...current.tableIds].sort().join()) reseated++;
          await setStatus(current.tableIds, 'occupied', event.covers);
          queue.push(minute + event.stay, RANK.depart, {
            type: 'depart',
            bookingId: event.bookingId,
            tableIds: current.tableIds,
          });
        });
        break;
      }
      case 'depart': {
        await step(async () => {
          await api.call('POST', `/api/prenotazioni/${event.bookingId}/stato`, { nuovoStato: 'completata' });
          await setStatus(event.tableIds, 'free');
        });
        if (waiting.length > 0) await seatWaiting(minute);
        break;
      }
      case 'no-show': {
        await step(async () => {
          await api.call('POST', `/api/prenotazioni/${event.bookingId}/stato`, { nuovoStato: 'no_show' });
          result.noShows++;
        });
        if (waiting.length > 0) await seatWaiting(minute);
        break;
      }
      case 'walk-in': {
        const outcome: WalkInOutcome = {
          covers: event.walkIn.covers,
          quotedMinutes: null,
          outcome: 'failed',
          waitedMinutes: null,
        };
        result.walkIns.push(outcome);
        if (result.waitlistMissing !== null) break;
        let entry: WaitlistEntry;
        try {
          entry = await api.call<WaitlistEntry>('POST', '/api/attesa', {
            customerName: `Walk-in ${event.walkIn.id}`,
            covers: event.walkIn.covers,
          });
        } catch (error) {
          if (error instanceof ApiError && [400, 404, 405].includes(error.status)) {
            result.waitlistMissing = briefError(error);
          } else {
            result.errors++;
            result.firstError ??= briefError(error);
          }
          break;
        }
        outcome.quotedMinutes = entry.quotedMinutes ?? null;
        const w: Waiting = {
          entryId: entry.id,
          walkIn: event.walkIn,
          joinedAt: minute,
          outcome,
          suggested: entry.suggestedTableIds ?? [],
          aheadAtJoin: waiting.map((x) => x.walkIn.covers).join(','),
        };
        waiting.push(w);
        if ((outcome.quotedMinutes ?? 0) > event.walkIn.patience) {
          await leave(w, 'balked', 'quote too long');
          break;
        }
        const gaveUpAt =
          minute + Math.max(outcome.quotedMinutes ?? 0, event.walkIn.patience) + RENEGE_GRACE_MINUTES;
        queue.push(gaveUpAt, RANK.renege, { type: 'renege', entryId: entry.id });
        await seatWaiting(minute);
        break;
      }
      case 'renege': {
        const w = waiting.find((x) => x.entryId === event.entryId);
        if (w) await leave(w, 'reneged', 'waited too long');
        break;
      }
      case 'close': {
        for (const w of [...waiting]) await leave(w, 'left-at-close', 'closing');
        break;
      }
    }
  }

  if (result.booked === 0 && result.errors > 0) {
    throw new Error(`${policy}: no booking could be made: ${result.firstError}`);
  }
  await at(lastMinute + 60);
  result.afterClose = await readDay();
  if (input.diagnose) result.diagnostics.push(`arrived on other tables than booked (re-seated): ${reseated}`);
  const midnight = localInstant(date, 0, timeZone);
  const local = (iso: string) => Math.round((Date.parse(iso) - midnight) / 60_000);
  for (const { line, tableIds } of explain) {
    const days = tableIds.map(
      (t) =>
        `${t.slice(-4)}: ` +
        result.afterClose
          .filter((b) => b.tableIds.includes(t))
          .sort((a, b) => a.startsAt.localeCompare(b.startsAt))
          .map(
            (b) =>
              `${b.covers}p ${b.state} ${local(b.startsAt)}-${local(b.endsAt)} upd ${local(b.updatedAt)}`,
          )
          .join(', '),
    );
    result.diagnostics.push(days.length > 0 ? `${line} | ${days.join(' | ')}` : line);
  }
  return result;
}
