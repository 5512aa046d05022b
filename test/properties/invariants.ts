/**
 * Invariant checkers: small pure functions over a recorded history (history.ts), the events the bus delivered and
 * the state read back at the end. Each returns the violations it found (empty = holds), as readable sentences.
 * Every checker has a unit test that makes it fail on a hand-made bad history (invariants.test.ts).
 */
import { WAITLIST_EVENT_TYPES } from '@coperto/bus';
import { acknowledged, mayHaveWritten, type HistoryEntry, type Intent, type SeenEvent } from './history.js';

type Of<K extends Intent['kind']> = HistoryEntry & { intent: Extract<Intent, { kind: K }> };
const ofKind = <K extends Intent['kind']>(history: readonly HistoryEntry[], kind: K): Of<K>[] =>
  history.filter((e): e is Of<K> => e.intent.kind === kind);

/** The period during which an acknowledged lock is certainly held: [answer, first thing that may end it). */
export interface LockInterval {
  entry: HistoryEntry;
  tableId: string;
  deviceId: string;
  start: number;
  end: number;
}

/** Converts a server wall-clock instant to the history's monotonic clock (same machine). */
export type WallToMonotonic = (iso: string) => number;
export const wallToMonotonic: WallToMonotonic = (iso) => Date.parse(iso) - performance.timeOrigin;

/**
 * Acknowledged lock intervals. A lock by device d on table t, answered 200 at time a, is certainly held from a
 * until the earliest of: the send of an unlock by d, a force unlock or a delete of t that may have taken effect
 * after the lock was sent; its own expiry; the shortest expiry a later lock request by d could have set.
 */
export function lockIntervals(
  history: readonly HistoryEntry[],
  toMonotonic = wallToMonotonic,
): LockInterval[] {
  const locks = ofKind(history, 'lock');
  return locks.filter(acknowledged).map((lock) => {
    const { tableId, deviceId } = lock.intent;
    let end = lock.response?.expiresAt ? toMonotonic(lock.response.expiresAt) - 5 : Number.POSITIVE_INFINITY;
    const after = (e: HistoryEntry) => e.id !== lock.id && mayHaveWritten(e) && e.answeredAt > lock.sentAt;
    for (const e of history) {
      if (!after(e)) continue;
      const i = e.intent;
      if (
        (i.kind === 'unlock' && i.tableId === tableId && i.deviceId === deviceId && e.status !== 403) ||
        ((i.kind === 'forceUnlock' || i.kind === 'deleteTable') && i.tableId === tableId)
      ) {
        end = Math.min(end, e.sentAt);
      }
      if (i.kind === 'lock' && i.tableId === tableId && i.deviceId === deviceId && e.status !== 409) {
        end = Math.min(end, Math.max(e.sentAt + i.ttl * 1000 - 5, lock.answeredAt));
        if (acknowledged(e) && e.answeredAt > lock.answeredAt) end = Math.min(end, e.answeredAt);
      }
    }
    return { entry: lock, tableId, deviceId, start: lock.answeredAt, end };
  });
}

/** At every instant at most one device holds a table's lock, judged from acknowledged answers. */
export function checkLockExclusion(
  history: readonly HistoryEntry[],
  toMonotonic = wallToMonotonic,
): string[] {
  const intervals = lockIntervals(history, toMonotonic).filter((l) => l.start < l.end);
  const violations: string[] = [];
  for (const [i, a] of intervals.entries()) {
    for (const b of intervals.slice(i + 1)) {
      if (a.tableId !== b.tableId || a.deviceId === b.deviceId) continue;
      if (Math.max(a.start, b.start) < Math.min(a.end, b.end)) {
        violations.push(
          `table ${a.tableId}: ${a.deviceId} (#${a.entry.id}) and ${b.deviceId} (#${b.entry.id}) both hold the lock at ${Math.max(a.start, b.start).toFixed(1)}`,
        );
      }
    }
  }
  return violations;
}

/**
 * An acknowledged lock that nothing may have ended is still there when the tables are read back at `readAt`
 * (a status PUT or PATCH racing a lock must not erase it).
 */
export function checkLocksSurvive(
  history: readonly HistoryEntry[],
  finalLocks: ReadonlyMap<string, { deviceId: string } | null>,
  readAt: number,
  toMonotonic = wallToMonotonic,
): string[] {
  return lockIntervals(history, toMonotonic)
    .filter((l) => l.start < l.end && l.end > readAt + 1000)
    .filter((l) => finalLocks.has(l.tableId) && finalLocks.get(l.tableId)?.deviceId !== l.deviceId)
    .map(
      (l) =>
        `table ${l.tableId}: the lock acknowledged to ${l.deviceId} (#${l.entry.id}) is gone; the table shows ${JSON.stringify(finalLocks.get(l.tableId))}`,
    );
}

export interface BookingView {
  id: string;
  state: string;
  tableIds: string[];
  startsAt: string;
  durationMinutes: number | null;
  notes?: string | null;
  /** The end of its hold as the service stored it (turn times included), when the read-back carries it. */
  endsAt?: string;
  /** The terminal's id of an imported booking (batch upload), when the read-back carries it. */
  externalId?: string | null;
}

export const ACTIVE_STATES = ['pending', 'confermata', 'caparra_pagata'];
const windowOf = (b: BookingView, defaultMinutes: number): [number, number] => {
  const start = Date.parse(b.startsAt);
  if (b.endsAt !== undefined) return [start, Date.parse(b.endsAt)];
  return [start, start + (b.durationMinutes ?? defaultMinutes) * 60_000];
};

/**
 * No two active bookings of one table overlap (touching ends do not). A combination's booking holds all its
 * tables, so this covers combinations too; with `endsAt` read back, turn times are judged as stored.
 */
export function checkNoDoubleBooking(bookings: readonly BookingView[], defaultMinutes = 120): string[] {
  const active = bookings.filter((b) => ACTIVE_STATES.includes(b.state));
  const violations: string[] = [];
  for (const [i, a] of active.entries()) {
    for (const b of active.slice(i + 1)) {
      const shared = a.tableIds.filter((t) => b.tableIds.includes(t));
      if (shared.length === 0) continue;
      const [as, ae] = windowOf(a, defaultMinutes);
      const [bs, be] = windowOf(b, defaultMinutes);
      if (as < be && bs < ae)
        violations.push(`bookings ${a.id} and ${b.id} overlap on table(s) ${shared.join(',')}`);
    }
  }
  return violations;
}

export interface AgendaView {
  tableId: string;
  /** `owner: 'opzione'`: the hold of an option (its id in `bookingId`); absent: a booking's hold. */
  entries: Array<{ bookingId: string; start: string; end: string; owner?: string }>;
}

/** Codes of a batch item that failed because a dependency did (the item may have claimed its tables). */
const DEPENDENCY_FAILURES = ['UNAVAILABLE', 'INTERNAL'];

/**
 * Tables on which a booking write that was not acknowledged may have left its claim behind: a create or a
 * booking after a check answered 5xx or not at all, a move likewise (its tables are not known: all of them), or
 * a batch item reported failed with UNAVAILABLE/INTERNAL. When the store fails between the claim and the
 * booking's insert, the claim's release fails too; the service treats such a hold as in flight for 30 s and
 * then as stale, removing it when it blocks a claim (docs/guarantees.md, "Table holds"). Under faults only.
 */
export function tablesWithUnacknowledgedClaims(
  history: readonly HistoryEntry[],
  allTables: readonly string[],
) {
  const tables = new Set<string>();
  const failed = (e: HistoryEntry) => e.status === 0 || e.status >= 500;
  for (const e of history) {
    const i = e.intent;
    if ((i.kind === 'createBooking' || i.kind === 'bookAfterCheck') && failed(e)) {
      i.tableIds.forEach((t) => tables.add(t));
    } else if (i.kind === 'createOption' && i.tableIds && failed(e)) {
      i.tableIds.forEach((t) => tables.add(t));
    } else if (
      (i.kind === 'moveBooking' ||
        i.kind === 'autoBook' ||
        i.kind === 'bookCombination' ||
        i.kind === 'createOption' ||
        i.kind === 'convertOption' ||
        i.kind === 'waitSeat') &&
      failed(e)
    ) {
      allTables.forEach((t) => tables.add(t));
    } else if (i.kind === 'batch') {
      const results: Array<{ status?: string; error?: { code?: string } }> = e.response?.results ?? [];
      i.items.forEach((item, index) => {
        const result = results[index];
        const itemFailed =
          failed(e) ||
          (result?.status === 'failed' && DEPENDENCY_FAILURES.includes(result.error?.code ?? ''));
        if (itemFailed) item.tableIds.forEach((t) => tables.add(t));
      });
    }
  }
  return tables;
}

/**
 * Bookings whose cancellation may have left their holds: a cancel not acknowledged (answered 5xx or not at all),
 * and an acknowledged one that was in flight while a fault was injected or not yet healed. The service stores the
 * cancellation, then releases the holds best effort (a failed release is logged and the cancel still answers
 * 200): the process may die, or lose the store, between the two. By design the hold of a booking that is not
 * active is stale, ignored by the guard and the check, and removed by the next tidy of its table
 * (docs/guarantees.md, "Table holds"; the service's crash-safety test). Under faults only; a cancel acknowledged
 * while nothing failed must still free its tables.
 */
export function cancelsThatMayLeaveHolds(
  history: readonly HistoryEntry[],
  faults: ReadonlyArray<{ from: number; to: number }> = [],
): Set<string> {
  const ids = new Set<string>();
  for (const e of history) {
    if (e.intent.kind !== 'cancel') continue;
    const unacknowledged = e.status === 0 || e.status >= 500;
    const duringFault = faults.some((f) => f.from <= e.answeredAt && e.sentAt <= f.to);
    if (unacknowledged || duringFault) ids.add(e.intent.bookingId);
  }
  return ids;
}

/**
 * Every hold in a table's agenda belongs to an active booking of that table, for that booking's window.
 * Under faults, a hold of an unknown booking, or one that does not match its active booking (another table or
 * start: the losing attempt of a failed write that repeated an externalId), is allowed on `leftBehindOn` (see
 * tablesWithUnacknowledgedClaims), and a hold of a cancelled booking whose cancellation may not have freed its
 * tables (`uncancelledHolds`, see cancelsThatMayLeaveHolds).
 */
export function checkAgendaHolds(
  agendas: readonly AgendaView[],
  bookings: readonly BookingView[],
  leftBehindOn: ReadonlySet<string> = new Set(),
  options: OptionHolds = { live: [], expired: new Set() },
  uncancelledHolds: ReadonlySet<string> = new Set(),
): string[] {
  const byId = new Map(bookings.map((b) => [b.id, b]));
  const liveOptions = new Map(options.live.map((o) => [o.id, o]));
  const violations: string[] = [];
  for (const agenda of agendas) {
    for (const entry of agenda.entries) {
      if (entry.owner === 'opzione') {
        const option = liveOptions.get(entry.bookingId);
        // An expired option's holds are stale by the clock (nothing removes them); a crash may leave a claim.
        if (!option && (options.expired.has(entry.bookingId) || leftBehindOn.has(agenda.tableId))) continue;
        if (!option)
          violations.push(`table ${agenda.tableId}: hold of option ${entry.bookingId}, which is not live`);
        else if (!option.tableIds.includes(agenda.tableId))
          violations.push(
            `table ${agenda.tableId}: phantom hold of option ${option.id} (tables ${option.tableIds.join(',')})`,
          );
        else if (Date.parse(entry.start) !== Date.parse(option.startsAt))
          violations.push(
            `table ${agenda.tableId}: hold of option ${option.id} at ${entry.start}, option at ${option.startsAt}`,
          );
        continue;
      }
      const booking = byId.get(entry.bookingId);
      if (!booking && leftBehindOn.has(agenda.tableId)) continue;
      if (!booking) violations.push(`table ${agenda.tableId}: hold of unknown booking ${entry.bookingId}`);
      else if (!ACTIVE_STATES.includes(booking.state)) {
        const unreleased = booking.state === 'annullata' && uncancelledHolds.has(booking.id);
        if (!unreleased)
          violations.push(`table ${agenda.tableId}: hold of ${booking.state} booking ${booking.id}`);
      } else if (leftBehindOn.has(agenda.tableId) && !holdMatches(entry, booking, agenda.tableId)) {
        // The losing attempt of a failed write naming this table (a batch repeating an externalId, answered
        // 503): it could not remove its own hold, which does not match the stored booking (other table or
        // time) and turns stale after 30 s (docs/guarantees.md, "Table holds").
        continue;
      } else if (!booking.tableIds.includes(agenda.tableId))
        violations.push(
          `table ${agenda.tableId}: phantom hold of booking ${booking.id} (tables ${booking.tableIds.join(',')})`,
        );
      else if (Date.parse(entry.start) !== Date.parse(booking.startsAt))
        violations.push(
          `table ${agenda.tableId}: hold of booking ${booking.id} at ${entry.start}, booking at ${booking.startsAt}`,
        );
    }
  }
  return violations;
}

/** The hold is the booking's own: on one of its tables, at its start. */
function holdMatches(entry: { start: string }, booking: BookingView, tableId: string): boolean {
  return booking.tableIds.includes(tableId) && Date.parse(entry.start) === Date.parse(booking.startsAt);
}

/** The tables a request may have put a booking on (undefined: it may touch any table). */
function tablesTouched(e: HistoryEntry): string[] | undefined {
  const i = e.intent;
  switch (i.kind) {
    case 'createBooking':
    case 'bookAfterCheck':
      return i.tableIds;
    case 'batch':
      return i.items.flatMap((item) => item.tableIds);
    case 'createOption':
      return i.tableIds;
    case 'moveBooking':
    case 'autoBook': // it may also re-seat other auto-assigned bookings
    case 'bookCombination':
    case 'convertOption':
      return undefined;
    case 'patchTable':
    case 'deleteTable':
      return [i.tableId];
    default:
      return [];
  }
}

/**
 * A booking attempt on several tables claims them one by one and, refused on one (4xx), releases the others:
 * while it runs it may hold a table although it wrote nothing in the end. (The service first refuses, claiming
 * nothing, when a table is already held; only two attempts racing for the same tables still meet this way.)
 */
function claimsWhileRunning(e: HistoryEntry): boolean {
  const i = e.intent;
  if (
    i.kind === 'moveBooking' ||
    i.kind === 'batch' ||
    i.kind === 'autoBook' ||
    i.kind === 'bookCombination' ||
    i.kind === 'convertOption' ||
    (i.kind === 'createOption' && (i.tableIds === undefined || i.tableIds.length > 1))
  )
    return true;
  return (i.kind === 'createBooking' || i.kind === 'bookAfterCheck') && new Set(i.tableIds).size > 1;
}

/**
 * A table the availability check called free can be booked for that window: a booking attempt right after a
 * check must not get TABLE_UNAVAILABLE unless another request that may touch that table ran in between.
 */
export function checkAvailabilityAgrees(history: readonly HistoryEntry[]): string[] {
  const violations: string[] = [];
  for (const book of ofKind(history, 'bookAfterCheck')) {
    if (book.status !== 409 || book.response?.error?.code !== 'TABLE_UNAVAILABLE') continue;
    const check = history[book.intent.checkId];
    if (!check) continue;
    const interfering = history.filter((e) => {
      if (e.id === check.id || e.id === book.id) return false;
      if (!mayHaveWritten(e) && !claimsWhileRunning(e)) return false;
      if (e.answeredAt <= check.sentAt || e.sentAt >= book.answeredAt) return false;
      const touched = tablesTouched(e);
      return touched === undefined || touched.some((t) => book.intent.tableIds.includes(t));
    });
    if (interfering.length === 0) {
      violations.push(
        `check #${check.id} called table(s) ${book.intent.tableIds.join(',')} free for ${book.intent.start} (${book.intent.minutes} min), the booking #${book.id} right after got TABLE_UNAVAILABLE`,
      );
    }
  }
  return violations;
}

/** The event an acknowledged write must have produced: type(s), record id, and what its data must show. */
export interface ExpectedEvent {
  entry: HistoryEntry;
  types: string[];
  subject: string;
  updatedAt?: string;
}

/** A waitlist write's event is one of the waitlist's types (the bus's one list of them). */
const WAITLIST_TYPES: string[] = [...WAITLIST_EVENT_TYPES];

export function expectedEvents(history: readonly HistoryEntry[]): ExpectedEvent[] {
  const expected: ExpectedEvent[] = [];
  for (const e of history.filter(acknowledged)) {
    const r = e.response;
    switch (e.intent.kind) {
      case 'status':
        expected.push({ entry: e, types: ['tables.status'], subject: r.id, updatedAt: r.updatedAt });
        break;
      case 'createBooking':
      case 'bookAfterCheck':
      case 'autoBook':
      case 'bookCombination':
      case 'convertOption':
        expected.push({ entry: e, types: ['bookings.created'], subject: r.id, updatedAt: r.updatedAt });
        break;
      case 'waitAdd':
        expected.push({ entry: e, types: ['waitlist.added'], subject: r.id, updatedAt: r.updatedAt });
        break;
      case 'waitNotify':
      case 'waitSeat':
      case 'waitCancel':
        expected.push({ entry: e, types: WAITLIST_TYPES, subject: r.id, updatedAt: r.updatedAt });
        break;
      case 'confirm':
      case 'moveBooking':
      case 'cancel':
        expected.push({
          entry: e,
          types: ['bookings.created', 'bookings.updated', 'bookings.cancelled'],
          subject: r.id,
          updatedAt: r.updatedAt,
        });
        break;
      case 'batch':
        for (const item of r?.results ?? []) {
          if (item.status === 'created')
            expected.push({ entry: e, types: ['bookings.created'], subject: item.id });
        }
        break;
      default:
    }
  }
  return expected;
}

const matches = (x: ExpectedEvent, ev: SeenEvent) =>
  x.types.includes(ev.type) &&
  ev.subject === x.subject &&
  (x.updatedAt === undefined || ev.data?.updatedAt === x.updatedAt);

/**
 * Every acknowledged write has its event in the stream (at least once; after dedupe by event id, one event per
 * write), and for one record, writes that followed each other have their events in that order.
 */
export function checkEventsOfWrites(
  history: readonly HistoryEntry[],
  events: readonly SeenEvent[],
): string[] {
  const violations: string[] = [];
  const expected = expectedEvents(history);
  const firstIndex = new Map<ExpectedEvent, number>();
  for (const x of expected) {
    const found = events.map((ev, i) => [ev, i] as const).filter(([ev]) => matches(x, ev));
    const ids = new Set(found.map(([ev]) => ev.id));
    const sameKey = expected.filter(
      (y) =>
        y.subject === x.subject && y.updatedAt === x.updatedAt && y.types.some((t) => x.types.includes(t)),
    ).length;
    if (ids.size === 0)
      violations.push(`#${x.entry.id} (${x.entry.intent.kind} ${x.subject}) has no ${x.types[0]} event`);
    else if (ids.size > sameKey)
      violations.push(`#${x.entry.id} (${x.entry.intent.kind} ${x.subject}) has ${ids.size} distinct events`);
    if (found.length > 0) firstIndex.set(x, found[0]![1]);
  }
  for (const a of expected) {
    for (const b of expected) {
      if (a === b || a.subject !== b.subject || a.entry.answeredAt >= b.entry.sentAt) continue;
      if (a.updatedAt !== undefined && a.updatedAt === b.updatedAt) continue; // a no-op repeats the last event
      const ia = firstIndex.get(a);
      const ib = firstIndex.get(b);
      if (ia !== undefined && ib !== undefined && ia > ib) {
        violations.push(
          `record ${a.subject}: the event of #${b.entry.id} came before the event of the earlier #${a.entry.id}`,
        );
      }
    }
  }
  return violations;
}

/**
 * The ids of the tenant's read-back bookings imported under an externalId that one of its own batches sent, whatever
 * the batch's answer: an imported booking's id is derived from its externalId alone, so a batch answered 503 whose
 * item was stored all the same made a record of this tenant with an id another tenant's batch can also have made.
 * They count as the tenant's own in `checkTenantIsolation` (found by a torture run, 2026-11-26).
 */
export function ownImportedIds(history: readonly HistoryEntry[], bookings: readonly BookingView[]): string[] {
  const sent = new Set(
    history.flatMap((e) => (e.intent.kind === 'batch' ? e.intent.items.map((i) => i.externalId) : [])),
  );
  return bookings.filter((b) => b.externalId != null && sent.has(b.externalId)).map((b) => b.id);
}

/** No other tenant ever appears in an answer or an event. `ids` lists every record id and the id of each tenant. */
export function checkTenantIsolation(
  history: readonly HistoryEntry[],
  events: readonly SeenEvent[],
  ids: ReadonlyMap<string, ReadonlySet<string>>,
): string[] {
  const violations: string[] = [];
  // Ids are tenant-scoped: the same id in two tenants (e.g. derived from a batch externalId) is two records.
  const foreignIn = (tenant: string, text: string) => {
    const own = ids.get(tenant) ?? new Set<string>();
    return [...ids.entries()]
      .filter(([t]) => t !== tenant)
      .flatMap(([, theirs]) => [...theirs].filter((id) => !own.has(id) && text.includes(id)));
  };
  for (const e of history) {
    const leaked = foreignIn(e.tenant, JSON.stringify(e.response ?? null));
    if (leaked.length > 0) violations.push(`#${e.id} of ${e.tenant} answered with ${leaked.join(',')}`);
  }
  for (const ev of events) {
    const tenant = ev.busSubject?.split('.')[1] ?? ev.tenantid;
    if (ev.tenantid !== tenant) violations.push(`event ${ev.id} of ${ev.tenantid} on ${ev.busSubject}`);
    const leaked = foreignIn(tenant, JSON.stringify(ev));
    if (leaked.length > 0) violations.push(`event ${ev.id} of ${tenant} carries ${leaked.join(',')}`);
  }
  return violations;
}

/**
 * No acknowledged write is lost: a table's final status is one a write that nothing certainly followed asked for;
 * every acknowledged booking exists, and one whose cancellation was acknowledged stays cancelled.
 */
export function checkNoLostWrites(
  history: readonly HistoryEntry[],
  finalStatus: ReadonlyMap<string, string>,
  bookings: readonly BookingView[],
): string[] {
  const violations: string[] = [];
  const puts = ofKind(history, 'status');
  const seatings = ofKind(history, 'waitSeat').filter(mayHaveWritten);
  for (const [tableId, status] of finalStatus) {
    const writes = puts.filter((p) => p.intent.tableId === tableId && mayHaveWritten(p));
    if (!writes.some(acknowledged)) continue;
    // Seating a waitlist party sets its tables occupied (a seating that may have written, on this table or on
    // tables it did not name, may be the last write).
    const seatedHere = seatings.some((e) => {
      const tables: string[] | undefined = acknowledged(e) ? e.response?.tableIds : e.intent.tableIds;
      return tables === undefined || tables.includes(tableId);
    });
    const seatedLast = seatings.some((e) => {
      if (!acknowledged(e)) return true; // a later request may finish an interrupted seating
      const tables: string[] = e.response?.tableIds ?? [];
      return tables.includes(tableId) && !writes.some((o) => acknowledged(o) && o.sentAt > e.answeredAt);
    });
    if (status === 'occupied' && seatedHere && seatedLast) continue;
    const last = writes.filter(
      (w) => !writes.some((o) => o !== w && acknowledged(o) && o.sentAt > w.answeredAt),
    );
    if (!last.some((w) => w.intent.status === status)) {
      violations.push(
        `table ${tableId} ends ${status}; the last status writes asked for ${last.map((w) => `${w.intent.status} (#${w.id})`).join(', ')}`,
      );
    }
  }
  const byId = new Map(bookings.map((b) => [b.id, b]));
  for (const e of history.filter(acknowledged)) {
    const creates = ['createBooking', 'bookAfterCheck', 'autoBook', 'bookCombination', 'convertOption'];
    if (creates.includes(e.intent.kind)) {
      if (!byId.has(e.response.id))
        violations.push(`booking ${e.response.id} created by #${e.id} is missing`);
    }
    if (e.intent.kind === 'cancel' && byId.get(e.response.id)?.state !== 'annullata') {
      violations.push(`booking ${e.response.id} cancelled by #${e.id} is ${byId.get(e.response.id)?.state}`);
    }
  }
  return violations;
}

/**
 * A request that got no acknowledgement (5xx or no answer) wrote nothing, or its effect and its event are both
 * there: a booking created by such a request (found by the note the program puts on it) has its created event.
 */
export function checkUnacknowledgedEffects(
  history: readonly HistoryEntry[],
  events: readonly SeenEvent[],
  bookings: readonly BookingView[],
): string[] {
  const violations: string[] = [];
  for (const e of history) {
    if (acknowledged(e) || !mayHaveWritten(e) || e.intent.kind !== 'createBooking') continue;
    const made = bookings.find((b) => b.notes === noteOf(e.id));
    if (made && !events.some((ev) => ev.type === 'bookings.created' && ev.subject === made.id)) {
      violations.push(`#${e.id} answered ${e.status} but created booking ${made.id} without its event`);
    }
  }
  return violations;
}

/**
 * Reads never older than an acknowledged write (the gateway's GraphQL read cache, docs/architecture.md): a floor
 * read (`floorRead`) shows each table with the seats of a write that could be the table's last one when the read
 * ran. Allowed: a `patchTable` that may have written (not a 4xx) and was sent before the read's answer, unless an
 * acknowledged `patchTable` that started after it ended was answered before the read was sent (then it was
 * overwritten for good); the seats the table was created with (`initialSeats`) only while no acknowledged
 * `patchTable` was answered before the read was sent. A table whose acknowledged delete was answered before the
 * read was sent must not be listed. Not checked under faults: with the cache server down the cache fails open
 * and an answer may be kept up to its 5 s TTL (docs/architecture.md).
 */
export function checkReadsNotStale(history: readonly HistoryEntry[], initialSeats: number): string[] {
  const violations: string[] = [];
  const patches = history.filter((e) => e.intent.kind === 'patchTable' && mayHaveWritten(e));
  const deletes = history.filter((e) => e.intent.kind === 'deleteTable' && acknowledged(e));
  const tableOf = (e: HistoryEntry) => (e.intent as { tableId: string }).tableId;
  for (const read of history) {
    if (read.intent.kind !== 'floorRead' || read.status !== 200 || read.response?.errors) continue;
    for (const row of (read.response?.data?.tavoli ?? []) as Array<{ id: string; seats: number }>) {
      if (deletes.some((d) => tableOf(d) === row.id && d.answeredAt < read.sentAt)) {
        violations.push(
          `#${read.id} lists table ${row.id}, deleted by an acknowledged write before it was sent`,
        );
        continue;
      }
      const own = patches.filter((w) => tableOf(w) === row.id && w.sentAt < read.answeredAt);
      const done = own.filter((w) => acknowledged(w) && w.answeredAt < read.sentAt);
      const overwritten = (w: HistoryEntry) =>
        done.some((later) => later !== w && w.answeredAt < later.sentAt);
      const allowed = new Set(
        own.filter((w) => !overwritten(w)).map((w) => (w.intent as { seats: number }).seats),
      );
      if (done.length === 0) allowed.add(initialSeats);
      if (!allowed.has(row.seats)) {
        violations.push(
          `#${read.id} shows table ${row.id} with ${row.seats} seats; a read then may show only ${[...allowed].join(' or ')}`,
        );
      }
    }
  }
  return violations;
}

/** The note a program puts on the booking a request creates (to find its effect when the answer was lost). */
export const noteOf = (entryId: number) => `op-${entryId}`;

// Seating (seating.e2e.test.ts) ------------------------------------------------------------------------------------

/** A booking read back with the seating fields (through GraphQL). */
export interface SeatingBookingView extends BookingView {
  covers: number;
  combinationId: string | null;
  assignment: 'manual' | 'auto';
  endsAt: string;
}

export interface CombinationView {
  id: string;
  tableIds: string[];
  minCovers: number;
  maxCovers: number;
}

/**
 * An auto-assigned active booking sits where its party fits: one table with at least its covers, or a
 * combination whose range holds them, on exactly the combination's tables.
 */
export function checkAutoAssignedFit(
  bookings: readonly SeatingBookingView[],
  seats: ReadonlyMap<string, number>,
  combinations: readonly CombinationView[],
): string[] {
  const violations: string[] = [];
  const byId = new Map(combinations.map((c) => [c.id, c]));
  for (const b of bookings) {
    if (b.assignment !== 'auto' || !ACTIVE_STATES.includes(b.state)) continue;
    if (b.combinationId) {
      const c = byId.get(b.combinationId);
      const same = c && [...c.tableIds].sort().join(',') === [...b.tableIds].sort().join(',');
      if (!c) violations.push(`booking ${b.id}: auto-assigned to unknown combination ${b.combinationId}`);
      else if (!same)
        violations.push(
          `booking ${b.id}: tables ${b.tableIds.join(',')}, combination ${c.id} is ${c.tableIds.join(',')}`,
        );
      else if (b.covers < c.minCovers || b.covers > c.maxCovers)
        violations.push(
          `booking ${b.id}: ${b.covers} covers on combination ${c.id} (${c.minCovers}..${c.maxCovers})`,
        );
      continue;
    }
    if (b.tableIds.length !== 1) {
      violations.push(`booking ${b.id}: auto-assigned to ${b.tableIds.length} tables without a combination`);
      continue;
    }
    const has = seats.get(b.tableIds[0]!);
    if (has === undefined || has < b.covers)
      violations.push(
        `booking ${b.id}: ${b.covers} covers on table ${b.tableIds[0]} of ${has ?? 'unknown'} seats`,
      );
  }
  return violations;
}

/**
 * A manual booking is never moved by the service: one created on chosen tables (or a chosen combination) that
 * no request of the program may have moved keeps its tables and its start.
 */
export function checkManualNeverMoved(
  history: readonly HistoryEntry[],
  bookings: readonly BookingView[],
): string[] {
  const byId = new Map(bookings.map((b) => [b.id, b]));
  const movedByProgram = new Set(
    ofKind(history, 'moveBooking')
      .filter(mayHaveWritten)
      .map((e) => e.intent.bookingId),
  );
  const sorted = (ids: readonly string[]) => [...ids].sort().join(',');
  const violations: string[] = [];
  for (const e of history.filter(acknowledged)) {
    const manual =
      ['createBooking', 'bookAfterCheck', 'bookCombination'].includes(e.intent.kind) ||
      (e.intent.kind === 'convertOption' && e.response?.assignment === 'manual');
    if (!manual || movedByProgram.has(e.response.id)) continue;
    const now = byId.get(e.response.id);
    if (!now) continue; // checkNoLostWrites reports it
    if (
      sorted(now.tableIds) !== sorted(e.response.tableIds) ||
      Date.parse(now.startsAt) !== Date.parse(e.response.startsAt)
    ) {
      violations.push(
        `manual booking ${now.id} (#${e.id}) moved: ${sorted(e.response.tableIds)} at ${e.response.startsAt} -> ${sorted(now.tableIds)} at ${now.startsAt}`,
      );
    }
  }
  return violations;
}

// Options and the waitlist ---------------------------------------------------------------------------------

/** An option read back (GraphQL `opzioni`: the live ones) or as its creation answered. */
export interface OptionView {
  id: string;
  tableIds: string[];
  startsAt: string;
  endsAt: string;
  expiresAt: string;
  covers: number;
  combinationId: string | null;
  assignment: 'manual' | 'auto';
}

/** The options whose holds may be in the agendas: the live ones read back, and the ids of those expired since. */
export interface OptionHolds {
  live: readonly OptionView[];
  expired: ReadonlySet<string>;
}

/** Live options as the bookings they stand for (their tables are held for their window like a booking's). */
export const optionsAsBookings = (live: readonly OptionView[]): BookingView[] =>
  live.map((o) => ({
    id: `option ${o.id}`,
    state: 'pending',
    tableIds: o.tableIds,
    startsAt: o.startsAt,
    endsAt: o.endsAt,
    durationMinutes: null,
  }));

/**
 * Options hold what they promise and nothing else. Read back at wall time `readAtWall`: no option is live past
 * its `expiresAt`, and none whose release (`released: true`) or conversion into a booking was acknowledged.
 * While an option is certainly live (from its acknowledged creation until the first release or conversion of it
 * was sent, or it expired), no other booking acknowledged in that time got one of its tables for an overlapping
 * window (bookings judged by their window read back, when they were not moved since).
 */
export function checkOptionsHold(
  history: readonly HistoryEntry[],
  live: readonly OptionView[],
  bookings: readonly BookingView[],
  readAtWall: number,
  toMonotonic = wallToMonotonic,
): string[] {
  const violations: string[] = [];
  const ended = new Map<string, HistoryEntry>();
  for (const e of history.filter(acknowledged)) {
    const i = e.intent;
    if (i.kind === 'releaseOption' && e.response?.released === true) ended.set(i.optionId, e);
    if (i.kind === 'convertOption') ended.set(i.optionId, e);
  }
  for (const o of live) {
    if (Date.parse(o.expiresAt) <= readAtWall)
      violations.push(`option ${o.id} is still live after it expired at ${o.expiresAt}`);
    const end = ended.get(o.id);
    if (end) violations.push(`option ${o.id} is still live after #${end.id} (${end.intent.kind}) ended it`);
  }
  const byId = new Map(bookings.map((b) => [b.id, b]));
  const sorted = (ids: readonly string[]) => [...ids].sort().join(',');
  const creates = ['createBooking', 'bookAfterCheck', 'autoBook', 'bookCombination', 'convertOption'];
  for (const opt of ofKind(history, 'createOption').filter(acknowledged)) {
    const o = opt.response as OptionView;
    let lifeEnd = toMonotonic(o.expiresAt) - 5;
    for (const e of history) {
      const i = e.intent;
      if (
        (i.kind === 'releaseOption' || i.kind === 'convertOption') &&
        i.optionId === o.id &&
        mayHaveWritten(e)
      )
        lifeEnd = Math.min(lifeEnd, e.sentAt);
    }
    for (const e of history.filter(acknowledged)) {
      if (!creates.includes(e.intent.kind) || e.response?.id === o.id) continue;
      if (e.sentAt <= opt.answeredAt || e.answeredAt >= lifeEnd) continue;
      const b = byId.get(e.response.id);
      if (!b || Date.parse(b.startsAt) !== Date.parse(e.response.startsAt)) continue;
      if (sorted(b.tableIds) !== sorted(e.response.tableIds ?? [])) continue;
      const [bs, be] = windowOf(b, 120);
      const shared = b.tableIds.filter((t) => o.tableIds.includes(t));
      if (shared.length > 0 && bs < Date.parse(o.endsAt) && Date.parse(o.startsAt) < be)
        violations.push(
          `booking ${b.id} (#${e.id}) got table(s) ${shared.join(',')} held by live option ${o.id} (#${opt.id})`,
        );
    }
  }
  return violations;
}

/** A waitlist entry read back. */
export interface WaitlistEntryView {
  id: string;
  state: string;
  prenotazioneId: string | null;
  tableIds: string[];
}

/** A booking read back with the external id an import (a waitlist seating: `waitlist:<entry id>`) gave it. */
export interface WalkInView extends BookingView {
  externalId: string | null;
}

/**
 * Seating a waitlist party makes exactly one booking, on the tables the entry names: a seated entry has one
 * active booking (externalId `waitlist:<entry id>`, the entry's `prenotazioneId`) on exactly its tables; an
 * entry not seated has none (under faults an interrupted seating may be finished or dropped later: not judged);
 * every acknowledged `siedi` of one entry answered the same booking and tables (no entry is seated twice); an
 * acknowledged seating or cancellation is the entry's final state.
 */
export function checkWaitlistSeating(
  history: readonly HistoryEntry[],
  entries: readonly WaitlistEntryView[],
  walkIns: readonly WalkInView[],
  faults = false,
): string[] {
  const violations: string[] = [];
  const sorted = (ids: readonly string[]) => [...ids].sort().join(',');
  for (const entry of entries) {
    const made = walkIns.filter((b) => b.externalId === `waitlist:${entry.id}`);
    if (entry.state === 'seated') {
      if (made.length !== 1)
        violations.push(
          `seated entry ${entry.id} has ${made.length} bookings (${made.map((b) => b.id).join(',')})`,
        );
      const booking = made[0];
      if (booking && booking.id !== entry.prenotazioneId)
        violations.push(
          `seated entry ${entry.id} names booking ${entry.prenotazioneId}, its booking is ${booking.id}`,
        );
      if (booking && sorted(booking.tableIds) !== sorted(entry.tableIds))
        violations.push(
          `seated entry ${entry.id} is at ${sorted(entry.tableIds)}, its booking ${booking.id} holds ${sorted(booking.tableIds)}`,
        );
      if (booking && !ACTIVE_STATES.includes(booking.state))
        violations.push(`seated entry ${entry.id}: its booking ${booking.id} is ${booking.state}`);
    } else if (made.length > 0 && !faults) {
      violations.push(
        `entry ${entry.id} is ${entry.state} but has booking(s) ${made.map((b) => b.id).join(',')}`,
      );
    }
    const seats = ofKind(history, 'waitSeat').filter((e) => acknowledged(e) && e.intent.entryId === entry.id);
    const answers = new Set(
      seats.map((e) => `${e.response?.prenotazioneId} at ${sorted(e.response?.tableIds ?? [])}`),
    );
    if (answers.size > 1)
      violations.push(`entry ${entry.id} was seated more than once: ${[...answers].join(' / ')}`);
    if (seats.length > 0 && entry.state !== 'seated')
      violations.push(`entry ${entry.id} seated by #${seats[0]!.id} is ${entry.state}`);
    const cancels = ofKind(history, 'waitCancel').filter(
      (e) => acknowledged(e) && e.intent.entryId === entry.id,
    );
    for (const c of cancels) {
      if (entry.state !== c.intent.state)
        violations.push(`entry ${entry.id} ${c.intent.state} by #${c.id} is ${entry.state}`);
    }
  }
  return violations;
}
