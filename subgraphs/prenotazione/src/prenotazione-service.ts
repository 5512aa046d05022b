import { createHash, randomUUID } from 'node:crypto';
import type { Viewer } from '@coperto/auth';
import { buildEvent, type RestaurantEventType } from '@coperto/bus';
import {
  InvalidTransitionError,
  NotFoundError,
  TableUnavailableError,
  ValidationError,
} from '@coperto/errors';
import { InputChecks, localDateOf, localDayBounds, parseLocalDate } from '@coperto/domain';
import type { Logger, SubgraphClient } from '@coperto/server-kit';
import { DuplicateKeyError, type OutboxMessage } from '@coperto/store';
import type {
  PrenotazioneInput,
  PrenotazionePatch,
  PrenotazioniFilter,
  QuerySyncPrenotazioniArgs,
} from './generated/resolvers-types.js';
import { checkPrenotazione, mergeAliases } from './prenotazione-input.js';
import {
  generateCodice,
  isActive,
  publicPrenotazione,
  transition,
  type BookingState,
  type PrenotazioneRecord,
} from './prenotazione-record.js';
import {
  CODICE_INDEX,
  prenotazioniFilter,
  type PrenotazioniQuery,
  type PrenotazioneStore,
} from './prenotazione-store.js';
import {
  groupToComplete,
  planSyncPage,
  SYNC_DEFAULT_LIMIT,
  SYNC_DEFAULT_WINDOW_DAYS,
  SYNC_MAX_LIMIT,
  SYNC_SETTLE_MS,
  type SyncPagePlan,
} from './sync.js';
import {
  endsAt,
  holdVerdict,
  IN_FLIGHT_CLAIM_MS,
  overlapsWindow,
  PAST_HOLD_MARGIN_MS,
  TIDY_MAX_BOOKINGS,
} from './holds.js';
import type { AgendaEntry, TableAgendaStore } from './table-agenda-store.js';

/** At most this many tables per window query (the availability check asks for its candidate tables). */
export const WINDOW_MAX_TABLES = 5000;
const MAX_CAS_ATTEMPTS = 8;
const MAX_CODICE_ATTEMPTS = 10;
const EVENT_SOURCE = 'coperto/prenotazione';

const TABLES_EXIST = /* GraphQL */ `
  query TablesExist($representations: [_Any!]!) {
    _entities(representations: $representations) {
      ... on Tavolo {
        id
      }
    }
  }
`;

export interface PrenotazioneServiceDeps {
  store: PrenotazioneStore;
  agenda: TableAgendaStore;
  viewer: Viewer;
  subgraphs: SubgraphClient;
  timeZone: string;
  now: () => Date;
  /** The tenant's default meal duration (capacity slot_config.defaultMealMinutes). */
  defaultMealMinutes: () => Promise<number>;
  onEventsWritten: () => void;
  logger?: Logger;
}

/** One table held by an active booking during (part of) a window: what the availability check reads. */
export interface TableHold {
  tableId: string;
  prenotazioneId: string;
  startsAt: string;
  endsAt: string;
}

/** Rules for bookings: validation, aliases, codice, no double booking, the state flow and its events. */
export class PrenotazioneService {
  constructor(private readonly deps: PrenotazioneServiceDeps) {}

  get(id: string): Promise<PrenotazioneRecord | null> {
    return this.deps.store.findById(id);
  }

  getByCodice(codice: string): Promise<PrenotazioneRecord | null> {
    return this.deps.store.findByCodice(codice.trim().toUpperCase());
  }

  async list(query: PrenotazioniFilter) {
    const dal = query.dal == null ? undefined : parseLocalDate(query.dal);
    const al = query.al == null ? undefined : parseLocalDate(query.al);
    const checks = new InputChecks();
    if (dal === null) checks.add('dal', 'must be a date YYYY-MM-DD');
    if (al === null) checks.add('al', 'must be a date YYYY-MM-DD');
    checks.throwIfAny();
    return this.deps.store.list({
      dal: dal ?? undefined,
      al: al ?? undefined,
      state: query.state ?? undefined,
      tableId: query.tableId ?? undefined,
      activeOnly: query.activeOnly ?? undefined,
    });
  }

  /** getPrenotazioniGiorno: the active bookings of one local day. */
  async day(data: string): Promise<PrenotazioneRecord[]> {
    const date = parseLocalDate(data);
    if (!date) throw new ValidationError([{ field: 'data', message: 'must be a date YYYY-MM-DD' }]);
    return this.deps.store.list({ dal: date, al: date, activeOnly: true });
  }

  /** Active bookings of a table: on a local date, or from the start of today. */
  async forTable(tableId: string, data?: string | null): Promise<PrenotazioneRecord[]> {
    if (data != null) {
      const date = parseLocalDate(data);
      if (!date) throw new ValidationError([{ field: 'data', message: 'must be a date YYYY-MM-DD' }]);
      return this.deps.store.list({ tableId, dal: date, al: date, activeOnly: true });
    }
    const today = localDateOf(this.deps.now(), this.deps.timeZone);
    const startsFrom = localDayBounds(today, this.deps.timeZone).start.toISOString();
    return this.deps.store.list({ tableId, activeOnly: true, startsFrom });
  }

  create(input: PrenotazioneInput): Promise<PrenotazioneRecord> {
    return this.createRecord(input, null).then((r) => r.record);
  }

  /** The legacy batch's create: the same externalId always maps to the same booking (idempotent). */
  async import(
    input: PrenotazioneInput,
  ): Promise<{ status: 'created' | 'duplicate'; record: PrenotazioneRecord }> {
    const externalId = input.externalId?.trim();
    if (!externalId) throw new ValidationError([{ field: 'externalId', message: 'is required' }]);
    return this.createRecord(input, importedId(externalId));
  }

  async update(id: string, patch: PrenotazionePatch): Promise<PrenotazioneRecord> {
    const moment = checkPrenotazione(patch, { required: false, zone: this.deps.timeZone });
    if (patch.tableIds) await this.requireTables(patch.tableIds);
    const merged = mergeAliases(patch);
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      const current = await this.requireBooking(id);
      const changes: Partial<PrenotazioneRecord> = {
        ...(merged.covers != null ? { covers: merged.covers, numeroPersone: merged.covers } : {}),
        ...(moment
          ? {
              bookingDate: moment.local,
              dataOra: moment.local,
              startsAt: moment.startsAt,
              localDate: moment.localDate,
            }
          : {}),
        ...(merged.customerName != null
          ? { customerName: merged.customerName.trim(), cliente: merged.customerName.trim() }
          : {}),
        ...(patch.customerPhone !== undefined ? { customerPhone: patch.customerPhone?.trim() || null } : {}),
        ...(patch.notes !== undefined ? { notes: patch.notes ?? null } : {}),
        ...(patch.durationMinutes !== undefined ? { durationMinutes: patch.durationMinutes ?? null } : {}),
        ...(patch.tableIds != null ? { tableIds: [...patch.tableIds] } : {}),
      };
      if (!changesAnything(current, changes)) return current;
      const next: PrenotazioneRecord = {
        ...current,
        ...changes,
        version: current.version + 1,
        updatedAt: this.stamp(),
      };
      const moved =
        next.startsAt !== current.startsAt ||
        next.durationMinutes !== current.durationMinutes ||
        next.tableIds.join() !== current.tableIds.join();
      // A move fixes the effective duration anew (its own, else the tenant's default now).
      if (moved) next.effectiveDurationMinutes = await this.effectiveDuration(next.durationMinutes);
      const reschedule = isActive(current.state) && moved;
      let claimId: string | null = null;
      if (reschedule) {
        next.claimRev = current.claimRev + 1;
        claimId = await this.claimTables(next);
      }
      let saved: PrenotazioneRecord | null;
      try {
        saved = await this.deps.store.replace(current.version, next, [this.event('bookings.updated', next)]);
      } catch (error) {
        if (claimId) await this.releaseClaim(next, claimId).catch(() => {});
        throw error;
      }
      if (!saved) {
        if (claimId) await this.releaseClaim(next, claimId);
        continue;
      }
      this.deps.onEventsWritten();
      if (reschedule) await this.releaseOlderRevisions(saved, current.tableIds);
      return saved;
    }
    throw new Error(`Prenotazione ${id} kept changing during the update`);
  }

  /**
   * Moves to `to` per the transition table. The current state again is a no-op without an event; annullata
   * stores motivo and cancelledAt and publishes bookings.cancelled, any other move bookings.updated. Leaving
   * the active states frees the tables.
   */
  async changeState(id: string, to: BookingState, motivo?: string | null): Promise<PrenotazioneRecord> {
    new InputChecks().text('motivo', motivo, { max: 500 }).throwIfAny();
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      const current = await this.requireBooking(id);
      const verdict = transition(current.state, to);
      if (verdict === 'same') return current;
      if (verdict === 'refused') throw new InvalidTransitionError(current.state, to);
      const now = this.stamp();
      const next: PrenotazioneRecord = {
        ...current,
        state: to,
        ...(to === 'annullata' ? { motivo: motivo?.trim() || null, cancelledAt: now } : {}),
        version: current.version + 1,
        updatedAt: now,
      };
      const type = to === 'annullata' ? 'bookings.cancelled' : 'bookings.updated';
      const saved = await this.deps.store.replace(current.version, next, [this.event(type, next)]);
      if (!saved) continue;
      this.deps.onEventsWritten();
      if (!isActive(to)) await this.releaseAll(saved);
      return saved;
    }
    throw new Error(`Prenotazione ${id} kept changing during the state change`);
  }

  /**
   * The tables among `tableIds` held during [from, to) by an active booking (or a claim in flight), with each
   * hold's window: read from the tables' agendas by primary key (one read for N tables, no scan of the day),
   * then the holding bookings by id. Each hold's end is its booking's stored effective duration.
   */
  async holdsInWindow(args: { from: string; to: string; tableIds: readonly string[] }): Promise<TableHold[]> {
    const checks = new InputChecks();
    const from = instant(args.from);
    const to = instant(args.to);
    if (!from) checks.add('from', 'must be an ISO 8601 instant');
    if (!to) checks.add('to', 'must be an ISO 8601 instant');
    if (from && to && from >= to) checks.add('to', 'must be after from');
    if (args.tableIds.length > WINDOW_MAX_TABLES) checks.add('tableIds', `at most ${WINDOW_MAX_TABLES}`);
    checks.throwIfAny();
    const candidates = (await this.deps.agenda.agendas([...new Set(args.tableIds)])).flatMap((agenda) =>
      agenda.entries
        .filter((e) => overlapsWindow(e, from!, to!))
        .map((entry) => ({ tableId: agenda.id, entry })),
    );
    if (candidates.length === 0) return [];
    const bookings = await this.bookingsById(candidates.map((c) => c.entry.bookingId));
    const inFlightAfter = this.inFlightAfter();
    return candidates
      .filter(
        (c) => holdVerdict(c.entry, c.tableId, bookings.get(c.entry.bookingId), inFlightAfter) !== 'stale',
      )
      .map((c) => ({
        tableId: c.tableId,
        prenotazioneId: c.entry.bookingId,
        startsAt: c.entry.start,
        endsAt: c.entry.end,
      }));
  }

  /** One page of the delta sync (see sync.ts for why it never skips or repeats a change). */
  async sync(args: QuerySyncPrenotazioniArgs): Promise<SyncPagePlan & { limit: number }> {
    const checks = new InputChecks().intInRange('limit', args.limit, 1, SYNC_MAX_LIMIT);
    const since = args.modifiedSince == null ? undefined : new Date(args.modifiedSince);
    if (since && (Number.isNaN(since.getTime()) || !/^\d{4}-\d{2}-\d{2}T/.test(args.modifiedSince!))) {
      checks.add('modifiedSince', 'must be an ISO 8601 timestamp');
    }
    const dal = args.dal == null ? undefined : parseLocalDate(args.dal);
    const al = args.al == null ? undefined : parseLocalDate(args.al);
    if (dal === null) checks.add('dal', 'must be a date YYYY-MM-DD');
    if (al === null) checks.add('al', 'must be a date YYYY-MM-DD');
    checks.throwIfAny();
    const limit = args.limit ?? SYNC_DEFAULT_LIMIT;
    const now = this.deps.now().getTime();
    const watermark = new Date(now - SYNC_SETTLE_MS).toISOString();
    const after =
      since?.toISOString() ??
      (dal || al
        ? new Date(0).toISOString()
        : new Date(now - SYNC_DEFAULT_WINDOW_DAYS * 86_400_000).toISOString());
    if (after >= watermark) return { items: [], hasMore: false, serverTime: after, limit };
    const filter: PrenotazioniQuery = { dal: dal ?? undefined, al: al ?? undefined };
    const storeFilter = prenotazioniFilter(filter);
    const fetched = await this.deps.store.changes({
      after,
      upTo: watermark,
      filter: storeFilter,
      limit: limit + 1,
    });
    const groupAt = groupToComplete(fetched, limit);
    const group = groupAt ? await this.deps.store.changesAt(groupAt, storeFilter) : [];
    return { ...planSyncPage(fetched, limit, watermark, group), limit };
  }

  private async createRecord(
    input: PrenotazioneInput,
    fixedId: string | null,
  ): Promise<{ status: 'created' | 'duplicate'; record: PrenotazioneRecord }> {
    const moment = checkPrenotazione(input, { required: true, zone: this.deps.timeZone })!;
    if (fixedId) {
      const existing = await this.deps.store.findById(fixedId);
      if (existing) return { status: 'duplicate', record: existing };
    }
    const tableIds = [...(input.tableIds ?? [])];
    if (tableIds.length > 0) await this.requireTables(tableIds);
    const merged = mergeAliases(input);
    const effectiveDurationMinutes = await this.effectiveDuration(input.durationMinutes ?? null);
    const now = this.stamp();
    const base: PrenotazioneRecord = {
      id: fixedId ?? randomUUID(),
      codice: '',
      covers: merged.covers!,
      numeroPersone: merged.covers!,
      bookingDate: moment.local,
      dataOra: moment.local,
      startsAt: moment.startsAt,
      localDate: moment.localDate,
      customerName: merged.customerName!.trim(),
      cliente: merged.customerName!.trim(),
      customerPhone: input.customerPhone?.trim() || null,
      tableIds,
      notes: input.notes ?? null,
      state: input.state ?? 'pending',
      durationMinutes: input.durationMinutes ?? null,
      effectiveDurationMinutes,
      motivo: null,
      cancelledAt: null,
      externalId: input.externalId?.trim() || null,
      createdAt: now,
      updatedAt: now,
      version: 1,
      claimRev: 1,
    };
    const claimId = isActive(base.state) ? await this.claimTables(base) : null;
    try {
      for (let attempt = 0; ; attempt++) {
        const record = { ...base, codice: generateCodice() };
        try {
          const saved = await this.deps.store.insert(record, [this.event('bookings.created', record)]);
          this.deps.onEventsWritten();
          return { status: 'created', record: saved };
        } catch (error) {
          if (!(error instanceof DuplicateKeyError)) throw error;
          if (error.index === CODICE_INDEX && attempt < MAX_CODICE_ATTEMPTS) continue;
          if (fixedId && error.index !== CODICE_INDEX) {
            // The same externalId was created concurrently: that booking holds its own tables; this attempt's
            // claims (maybe other tables or times) are released by their claimId, so no phantom hold remains.
            const existing = await this.deps.store.findById(fixedId);
            if (existing) {
              if (claimId) await this.releaseClaim(base, claimId).catch(() => {});
              return { status: 'duplicate', record: existing };
            }
          }
          throw error;
        }
      }
    } catch (error) {
      if (claimId) await this.releaseClaim(base, claimId).catch(() => {});
      throw error;
    }
  }

  /**
   * Claims every table of the booking for [startsAt, startsAt + duration), in id order. If one is taken the
   * ones already claimed are released and the booking is refused with TABLE_UNAVAILABLE.
   */
  private async claimTables(record: PrenotazioneRecord): Promise<string | null> {
    if (record.tableIds.length === 0) return null;
    const start = record.startsAt;
    const end = endsAt(record);
    const tableIds = [...new Set(record.tableIds)].sort();
    if (tableIds.length > 1) await this.refuseIfHeld(tableIds, record.id, start, end);
    const claimId = randomUUID();
    const claimed: string[] = [];
    for (const tableId of tableIds) {
      await this.tidy(tableId, record.id);
      const entry: AgendaEntry = {
        bookingId: record.id,
        rev: record.claimRev,
        start,
        end,
        at: this.stamp(),
        claimId,
      };
      if (!(await this.claimOrRepair(tableId, entry))) {
        await Promise.all(claimed.map((t) => this.deps.agenda.removeEntry(t, entry))).catch(() => {});
        throw new TableUnavailableError([tableId]);
      }
      claimed.push(tableId);
    }
    return claimId;
  }

  /**
   * A booking on several tables first reads their agendas and is refused, claiming nothing, when another
   * booking's live hold covers the window on any of them. Without it, claiming in id order took the free tables
   * before reaching the held one and released them only after: for that moment a booking that the
   * availability check had rightly offered one of them was refused (found by the torture run). Only a truly
   * concurrent claim can still make a multi-table attempt release what it took.
   */
  private async refuseIfHeld(
    tableIds: string[],
    bookingId: string,
    start: string,
    end: string,
  ): Promise<void> {
    const blocking = (await this.deps.agenda.agendas(tableIds)).flatMap((agenda) =>
      agenda.entries
        .filter((e) => e.bookingId !== bookingId && e.start < end && e.end > start)
        .map((entry) => ({ tableId: agenda.id, entry })),
    );
    if (blocking.length === 0) return;
    const bookings = await this.bookingsById([...new Set(blocking.map((b) => b.entry.bookingId))]);
    const inFlightAfter = this.inFlightAfter();
    const held = blocking
      .filter(
        (b) => holdVerdict(b.entry, b.tableId, bookings.get(b.entry.bookingId), inFlightAfter) !== 'stale',
      )
      .map((b) => b.tableId);
    if (held.length > 0) throw new TableUnavailableError([...new Set(held)].sort());
  }

  /**
   * Keeps an agenda from growing forever, whenever a claim touches it: drops holds that ended more than
   * PAST_HOLD_MARGIN_MS ago and stale holds (see holdVerdict) of at most TIDY_MAX_BOOKINGS bookings.
   */
  private async tidy(tableId: string, claimant: string): Promise<void> {
    const cutoff = new Date(this.deps.now().getTime() - PAST_HOLD_MARGIN_MS).toISOString();
    const entries = await this.deps.agenda.entries(tableId);
    if (entries.some((e) => e.end < cutoff)) await this.deps.agenda.prune(tableId, cutoff);
    const others = entries.filter((e) => e.end >= cutoff && e.bookingId !== claimant);
    const ids = [...new Set(others.map((e) => e.bookingId))].slice(0, TIDY_MAX_BOOKINGS);
    if (ids.length === 0) return;
    const bookings = await this.bookingsById(ids);
    const looked = new Set(ids);
    const inFlightAfter = this.inFlightAfter();
    const stale = others.filter(
      (e) =>
        looked.has(e.bookingId) &&
        holdVerdict(e, tableId, bookings.get(e.bookingId), inFlightAfter) === 'stale',
    );
    await Promise.all(stale.map((e) => this.deps.agenda.removeEntry(tableId, e)));
  }

  /**
   * A refused claim is retried after removing stale entries in the way: claims of bookings that are no longer
   * active or were rescheduled, and claims whose booking never appeared (a crash between claim and insert).
   */
  private async claimOrRepair(tableId: string, entry: AgendaEntry): Promise<boolean> {
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await this.deps.agenda.claim(tableId, entry)) return true;
      const blocking = await this.deps.agenda.overlapping(tableId, entry);
      const bookings = await this.bookingsById(blocking.map((e) => e.bookingId));
      const inFlightAfter = this.inFlightAfter();
      const stale = blocking.filter(
        (e) => holdVerdict(e, tableId, bookings.get(e.bookingId), inFlightAfter) === 'stale',
      );
      if (stale.length === 0) return false;
      await Promise.all(stale.map((e) => this.deps.agenda.removeEntry(tableId, e)));
    }
    return false;
  }

  /** Removes one claim attempt's entries (and only those: another attempt of the same booking keeps its own). */
  private async releaseClaim(record: PrenotazioneRecord, claimId: string): Promise<void> {
    await Promise.all(
      record.tableIds.map((t) =>
        this.deps.agenda.removeEntry(t, { bookingId: record.id, rev: record.claimRev, claimId }),
      ),
    );
  }

  private async bookingsById(ids: readonly string[]): Promise<Map<string, PrenotazioneRecord>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    return new Map((await this.deps.store.findByIds(unique)).map((b) => [b.id, b]));
  }

  /** Claims written after this instant are still in flight (see holdVerdict). */
  private inFlightAfter(): string {
    return new Date(this.deps.now().getTime() - IN_FLIGHT_CLAIM_MS).toISOString();
  }

  /** The effective duration to store: the booking's own, else the tenant's default meal duration now. */
  private async effectiveDuration(own: number | null): Promise<number> {
    return own ?? (await this.deps.defaultMealMinutes());
  }

  private async releaseOlderRevisions(
    record: PrenotazioneRecord,
    previousTables: readonly string[],
  ): Promise<void> {
    const tables = new Set([...previousTables, ...record.tableIds]);
    await this.bestEffort(
      Promise.all([...tables].map((t) => this.deps.agenda.release(t, record.id, record.claimRev))),
    );
  }

  private async releaseAll(record: PrenotazioneRecord): Promise<void> {
    await this.bestEffort(Promise.all(record.tableIds.map((t) => this.deps.agenda.release(t, record.id))));
  }

  /** Releasing is repaired later if it fails (stale claims are removed when they block a new claim). */
  private async bestEffort(work: Promise<unknown>): Promise<void> {
    try {
      await work;
    } catch (error) {
      this.deps.logger?.warn('releasing table claims failed; they will be repaired on the next conflict', {
        error,
      });
    }
  }

  private async requireBooking(id: string): Promise<PrenotazioneRecord> {
    const found = await this.deps.store.findById(id);
    if (!found) throw new NotFoundError('Prenotazione', id);
    return found;
  }

  /** tableIds must exist in the caller's tenant: asked to tavolo through its API (one call for N tables). */
  private async requireTables(tableIds: readonly string[]): Promise<void> {
    if (tableIds.length === 0) return;
    const { _entities } = await this.deps.subgraphs.request<{ _entities: Array<{ id: string } | null> }>(
      'tavolo',
      TABLES_EXIST,
      { representations: tableIds.map((id) => ({ __typename: 'Tavolo', id })) },
      `Bearer ${this.deps.viewer.token}`,
    );
    const missing = tableIds.filter((_, i) => !_entities[i]);
    // Which tables exist is state, not shape: a booking naming a table that does not exist is a 404.
    if (missing.length > 0) throw new NotFoundError('Tavolo', missing.join(', '));
  }

  private event(type: RestaurantEventType, record: PrenotazioneRecord): OutboxMessage {
    return buildEvent({
      tenantId: this.deps.viewer.tenantId,
      type,
      source: EVENT_SOURCE,
      subject: record.id,
      data: publicPrenotazione(record),
    }).message;
  }

  private stamp(): string {
    return this.deps.now().toISOString();
  }
}

/** A UTC instant from an ISO 8601 date-time with Z or an offset; null otherwise. */
function instant(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value)) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

/** The id of an imported booking: derived from the terminal's externalId, so re-uploads find it. */
export function importedId(externalId: string): string {
  return `ext_${createHash('sha256').update(externalId).digest('hex').slice(0, 32)}`;
}

function changesAnything(current: PrenotazioneRecord, changes: Partial<PrenotazioneRecord>): boolean {
  return Object.entries(changes).some(([key, value]) => {
    const before = current[key as keyof PrenotazioneRecord];
    return Array.isArray(value)
      ? value.join('\u0000') !== (before as string[]).join('\u0000')
      : value !== before;
  });
}
