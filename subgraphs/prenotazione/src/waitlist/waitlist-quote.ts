/**
 * How long a waiting party waits: a pure simulation of the queue over the tables (waitlist-service.ts reads its
 * inputs). Every party, oldest first, takes the earliest slot on a fitting table or combination that is free
 * for its whole turn time; the parties behind it then see that slot taken.
 */
import { freeGapMs } from '../seating/assignment.js';

/** A table's status as tavolo reports it. */
export type QuoteTableStatus = 'free' | 'occupied' | 'open' | 'dirty' | 'reserved' | 'payment_pending';

export interface QuoteTable {
  id: string;
  seats: number;
  active: boolean;
  status: QuoteTableStatus;
  /** When the table took its status (tavolo's updatedAt): "seated at" for an occupied table. */
  statusSince: string | null;
  /** Covers of the party at the table, when the waiter recorded them. */
  pax: number | null;
}

export interface QuoteCombination {
  id: string;
  tableIds: readonly string[];
  minCovers: number;
  maxCovers: number;
  active: boolean;
}

/** A booking's hold on a table, [startsAt, endsAt) as UTC instants (the tables' agendas). */
export interface QuoteHold {
  tableId: string;
  startsAt: string;
  endsAt: string;
}

export interface QueueParty {
  id: string;
  covers: number;
}

/** Minutes the rules assume where the tables say nothing more precise (docs/seating.md "Waitlist"). */
export interface QuoteSettings {
  /** A dirty table is cleared and free this many minutes from now. */
  dirtyMinutes: number;
  /** An occupied table whose end cannot be told (no booking on it now, no status time) frees after this. */
  unknownOccupancyMinutes: number;
  /** An occupied table past its expected end is expected to free this many minutes from now. */
  overdueMinutes: number;
  /** A table paying its bill frees at most this many minutes from now. */
  paymentPendingMinutes: number;
  /**
   * A booked party that has not arrived (its booking has started, its table is neither occupied nor being
   * cleared) keeps its table this many minutes after its start, the usual no-show threshold; after that the
   * table is counted free for the waitlist.
   */
  lateHoldMinutes: number;
}

export const DEFAULT_QUOTE_SETTINGS: QuoteSettings = {
  dirtyMinutes: 5,
  unknownOccupancyMinutes: 30,
  overdueMinutes: 5,
  paymentPendingMinutes: 10,
  lateHoldMinutes: 15,
};

export interface QuoteInput {
  /** Now, epoch milliseconds. */
  now: number;
  tables: readonly QuoteTable[];
  combinations: readonly QuoteCombination[];
  holds: readonly QuoteHold[];
  /** The queue, oldest first. */
  queue: readonly QueueParty[];
  /** A party's turn time in minutes (turnMinutes of @coperto/domain with the tenant's rows). */
  turnMinutes: (covers: number) => number;
  settings?: Partial<QuoteSettings>;
}

/** A party's estimate: minutes from now (null: nothing holds the party) and the tables it would take. */
export interface PartyQuote {
  minutes: number | null;
  /** When the slot starts (epoch ms), null with minutes. */
  startsAt: number | null;
  tableIds: string[];
  combinationId: string | null;
}

const MINUTE = 60_000;
/**
 * How far ahead the agendas are read for a quote (a turn time is at most 720 minutes): also the end of the free
 * time measured around a slot.
 */
export const QUOTE_HORIZON_MS = 24 * 60 * MINUTE;

interface Interval {
  start: number;
  end: number;
}

interface SeatingOption {
  tableIds: readonly string[];
  combinationId: string | null;
  emptySeats: number;
  id: string;
  /** Position in tavolo's list (by name): the tie-break before the id, as in assignment.ts. */
  order: number;
}

/** Every party's estimate, keyed by party id, simulating the queue in order. */
export function quoteQueue(input: QuoteInput): Map<string, PartyQuote> {
  const settings = { ...DEFAULT_QUOTE_SETTINGS, ...input.settings };
  const tables = new Map(input.tables.filter((t) => t.active).map((t) => [t.id, t]));
  const freeAt = new Map([...tables.values()].map((t) => [t.id, tableFreeAt(t, input, settings)]));
  const busy = new Map<string, Interval[]>([...tables.keys()].map((id) => [id, []]));
  for (const hold of input.holds) {
    const table = tables.get(hold.tableId);
    if (!table) continue;
    const span = heldSpan(hold, table, input.now, settings);
    if (span.end > input.now) busy.get(hold.tableId)!.push(span);
  }
  const quotes = new Map<string, PartyQuote>();
  // the free time around a slot is measured from now (the past is no use) to the end of the agendas read
  const horizon = { start: input.now, end: input.now + QUOTE_HORIZON_MS };
  for (const party of input.queue) {
    const duration = input.turnMinutes(party.covers) * MINUTE;
    let best: Slot | null = null;
    for (const option of seatingOptions(party.covers, tables, input.combinations)) {
      const from = Math.max(...option.tableIds.map((id) => freeAt.get(id)!));
      const start = earliestStart(
        option.tableIds.flatMap((id) => busy.get(id)!),
        from,
        duration,
      );
      const slot = { start, end: start + duration };
      const gapMs = option.tableIds.reduce((sum, id) => sum + freeGapMs(busy.get(id)!, slot, horizon), 0);
      const candidate = { option, start, gapMs };
      if (!best || better(candidate, best)) best = candidate;
    }
    if (!best) {
      quotes.set(party.id, { minutes: null, startsAt: null, tableIds: [], combinationId: null });
      continue;
    }
    for (const id of best.option.tableIds)
      busy.get(id)!.push({ start: best.start, end: best.start + duration });
    quotes.set(party.id, {
      minutes: Math.max(0, Math.ceil((best.start - input.now) / MINUTE)),
      startsAt: best.start,
      tableIds: [...best.option.tableIds],
      combinationId: best.option.combinationId,
    });
  }
  return quotes;
}

/**
 * What a booking's hold keeps of a table for the queue: its window, except for a booked party that has not
 * arrived: a booking that has started on a table that is free or reserved (nobody seated) holds it until
 * lateHoldMinutes after its start at most (the party may still come until then; after that it counts as a
 * no-show for the queue, before the host marks it).
 */
export function heldSpan(
  hold: QuoteHold,
  table: Pick<QuoteTable, 'status'>,
  now: number,
  settings: Pick<QuoteSettings, 'lateHoldMinutes'> = DEFAULT_QUOTE_SETTINGS,
): Interval {
  const start = Date.parse(hold.startsAt);
  const end = Date.parse(hold.endsAt);
  const notArrived = start <= now && (table.status === 'free' || table.status === 'reserved');
  return notArrived
    ? { start, end: Math.min(end, start + settings.lateHoldMinutes * MINUTE) }
    : { start, end };
}

/**
 * When a table's current party is expected to leave (epoch ms): free and reserved tables now (a booking due
 * on a reserved table holds it through its agenda); dirty ones after dirtyMinutes; occupied, open and
 * payment_pending ones at the end of the booking on them now, else the turn time for their pax (else seats)
 * after they took the status, else after unknownOccupancyMinutes; past that end, overdueMinutes from now;
 * payment_pending at most paymentPendingMinutes from now.
 */
export function tableFreeAt(
  table: QuoteTable,
  input: Pick<QuoteInput, 'now' | 'holds' | 'turnMinutes'>,
  settings: QuoteSettings = DEFAULT_QUOTE_SETTINGS,
): number {
  const { now } = input;
  switch (table.status) {
    case 'free':
    case 'reserved':
      return now;
    case 'dirty':
      return now + settings.dirtyMinutes * MINUTE;
    default: {
      const current = input.holds
        .filter((h) => h.tableId === table.id)
        .map((h) => ({ start: Date.parse(h.startsAt), end: Date.parse(h.endsAt) }))
        .filter((h) => h.start <= now && h.end > now);
      const since = table.statusSince === null ? NaN : Date.parse(table.statusSince);
      let end: number;
      if (current.length > 0) end = Math.max(...current.map((h) => h.end));
      else if (!Number.isNaN(since)) end = since + input.turnMinutes(table.pax ?? table.seats) * MINUTE;
      else end = now + settings.unknownOccupancyMinutes * MINUTE;
      if (end <= now) end = now + settings.overdueMinutes * MINUTE;
      if (table.status === 'payment_pending')
        end = Math.min(end, now + settings.paymentPendingMinutes * MINUTE);
      return end;
    }
  }
}

/**
 * The earliest start >= from at which [start, start + duration) overlaps none of `busy` (touching ends do
 * not overlap). The answer is `from` or the end of a busy interval, so only those are tried.
 */
export function earliestStart(busy: readonly Interval[], from: number, duration: number): number {
  const candidates = [from, ...busy.map((b) => b.end).filter((end) => end > from)].sort((a, b) => a - b);
  for (const start of candidates) {
    if (!busy.some((b) => b.start < start + duration && b.end > start)) return start;
  }
  return candidates[candidates.length - 1]!; // unreachable: the last end is after every interval
}

/** Active tables with seats >= covers, and active combinations of active tables whose range holds covers. */
function seatingOptions(
  covers: number,
  tables: ReadonlyMap<string, QuoteTable>,
  combinations: readonly QuoteCombination[],
): SeatingOption[] {
  const singles = [...tables.values()]
    .map((t, order) => ({ t, order }))
    .filter(({ t }) => t.seats >= covers)
    .map(({ t, order }) => ({
      tableIds: [t.id],
      combinationId: null,
      emptySeats: t.seats - covers,
      id: t.id,
      order,
    }));
  const joined = combinations
    .map((c, order) => ({ ...c, order }))
    .filter(
      (c) =>
        c.active &&
        c.minCovers <= covers &&
        covers <= c.maxCovers &&
        c.tableIds.length > 0 &&
        c.tableIds.every((id) => tables.has(id)),
    )
    .map((c) => ({
      tableIds: [...c.tableIds],
      combinationId: c.id,
      emptySeats: c.maxCovers - covers,
      id: c.id,
      order: c.order,
    }));
  return [...singles, ...joined];
}

/** A place with the earliest start found for it and the free time around that slot on its tables. */
interface Slot {
  option: SeatingOption;
  start: number;
  gapMs: number;
}

/**
 * Earliest start, then a single table before a combination, then fewest empty seats, then the shortest free
 * time around the slot (the assignment rule's third step, assignment.ts: a party seated now takes the table
 * whose next booking comes soonest after its turn, keeping a table free all evening for a party that needs it),
 * then tavolo's list order, then id.
 */
function better(a: Slot, b: Slot): boolean {
  if (a.start !== b.start) return a.start < b.start;
  const aJoined = a.option.combinationId !== null;
  const bJoined = b.option.combinationId !== null;
  if (aJoined !== bJoined) return !aJoined;
  if (a.option.emptySeats !== b.option.emptySeats) return a.option.emptySeats < b.option.emptySeats;
  if (a.gapMs !== b.gapMs) return a.gapMs < b.gapMs;
  if (a.option.order !== b.option.order) return a.option.order < b.option.order;
  return a.option.id < b.option.id;
}
