import { createHash, randomUUID } from 'node:crypto';
import type { Viewer } from '@coperto/auth';
import { buildEvent, type RestaurantEventType } from '@coperto/bus';
import {
  InvalidTransitionError,
  NotFoundError,
  TableUnavailableError,
  ValidationError,
} from '@coperto/errors';
import {
  InputChecks,
  localDateOf,
  localDayBounds,
  parseLocalDate,
  type Logger,
  type SubgraphClient,
} from '@coperto/server-kit';
import { DuplicateKeyError, type OutboxMessage } from '@coperto/store';
import {
  checkPrenotazione,
  mergeAliases,
  type PrenotazioneInput,
  type PrenotazionePatch,
} from './prenotazione-input.js';
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
import type { AgendaEntry, TableAgendaStore } from './table-agenda-store.js';

/** Meal length used for a booking's table hold when it has no duration of its own (minutes). */
export const DEFAULT_MEAL_MINUTES = 120;
/** A claim whose booking never appeared this long after it was written was left by a crash. */
const ORPHAN_CLAIM_MS = 30_000;
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
  onEventsWritten: () => void;
  logger?: Logger;
}

export interface SyncArgs {
  modifiedSince?: string | null;
  dal?: string | null;
  al?: string | null;
  limit?: number | null;
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

  async list(query: {
    dal?: string | null;
    al?: string | null;
    state?: BookingState | null;
    tableId?: string | null;
    activeOnly?: boolean | null;
  }) {
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
      const reschedule =
        isActive(current.state) &&
        (next.startsAt !== current.startsAt ||
          next.durationMinutes !== current.durationMinutes ||
          next.tableIds.join() !== current.tableIds.join());
      if (reschedule) {
        next.claimRev = current.claimRev + 1;
        await this.claimTables(next);
      }
      const saved = await this.deps.store.replace(current.version, next, [
        this.event('bookings.updated', next),
      ]);
      if (!saved) {
        if (reschedule) await this.releaseRevision(next);
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

  /** One page of the delta sync (see sync.ts for why it never skips or repeats a change). */
  async sync(args: SyncArgs): Promise<SyncPagePlan & { limit: number }> {
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
      motivo: null,
      cancelledAt: null,
      externalId: input.externalId?.trim() || null,
      createdAt: now,
      updatedAt: now,
      version: 1,
      claimRev: 1,
    };
    if (isActive(base.state)) await this.claimTables(base);
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
            // The same externalId was created concurrently: its claims are that booking's own; keep them.
            const existing = await this.deps.store.findById(fixedId);
            if (existing) return { status: 'duplicate', record: existing };
          }
          throw error;
        }
      }
    } catch (error) {
      if (!fixedId) await this.releaseRevision(base).catch(() => {});
      throw error;
    }
  }

  /**
   * Claims every table of the booking for [startsAt, startsAt + duration), in id order. If one is taken the
   * ones already claimed are released and the booking is refused with TABLE_UNAVAILABLE.
   */
  private async claimTables(record: PrenotazioneRecord): Promise<void> {
    const start = record.startsAt;
    const end = new Date(
      Date.parse(start) + (record.durationMinutes ?? DEFAULT_MEAL_MINUTES) * 60_000,
    ).toISOString();
    const claimed: string[] = [];
    for (const tableId of [...record.tableIds].sort()) {
      const entry: AgendaEntry = { bookingId: record.id, rev: record.claimRev, start, end, at: this.stamp() };
      if (!(await this.claimOrRepair(tableId, entry))) {
        await Promise.all(claimed.map((t) => this.deps.agenda.removeEntry(t, entry))).catch(() => {});
        throw new TableUnavailableError([tableId]);
      }
      claimed.push(tableId);
    }
  }

  /**
   * A refused claim is retried after removing stale entries in the way: claims of bookings that are no longer
   * active or were rescheduled, and claims whose booking never appeared (a crash between claim and insert).
   */
  private async claimOrRepair(tableId: string, entry: AgendaEntry): Promise<boolean> {
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await this.deps.agenda.claim(tableId, entry)) return true;
      const blocking = await this.deps.agenda.overlapping(tableId, entry);
      const bookings = new Map(
        (await this.deps.store.findByIds([...new Set(blocking.map((e) => e.bookingId))])).map((b) => [
          b.id,
          b,
        ]),
      );
      const orphanBefore = new Date(this.deps.now().getTime() - ORPHAN_CLAIM_MS).toISOString();
      const stale = blocking.filter((e) => {
        const booking = bookings.get(e.bookingId);
        if (!booking) return e.at < orphanBefore;
        return !isActive(booking.state) || e.rev < booking.claimRev;
      });
      if (stale.length === 0) return false;
      await Promise.all(stale.map((e) => this.deps.agenda.removeEntry(tableId, e)));
    }
    return false;
  }

  private async releaseRevision(record: PrenotazioneRecord): Promise<void> {
    await Promise.all(
      record.tableIds.map((t) =>
        this.deps.agenda.removeEntry(t, { bookingId: record.id, rev: record.claimRev }),
      ),
    );
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
    if (missing.length > 0) {
      throw new ValidationError([{ field: 'tableIds', message: `unknown table(s): ${missing.join(', ')}` }]);
    }
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
