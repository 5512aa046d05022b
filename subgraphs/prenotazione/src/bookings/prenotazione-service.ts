import { createHash, randomUUID } from 'node:crypto';
import type { Viewer } from '@coperto/auth';
import { buildEvent, type RestaurantEventType } from '@coperto/bus';
import {
  AppError,
  InvalidTransitionError,
  NotFoundError,
  OptionExpiredError,
  TableUnavailableError,
  ValidationError,
} from '@coperto/errors';
import {
  InputChecks,
  localDateOf,
  localDayBounds,
  parseLocalDate,
  preferEnglish,
  turnMinutes,
} from '@coperto/domain';
import type { Logger, SubgraphClient } from '@coperto/server-kit';
import { DuplicateKeyError, type OutboxMessage } from '@coperto/store';
import type {
  PrenotazioneInput,
  PrenotazionePatch,
  PrenotazioniFilter,
  QuerySyncPrenotazioniArgs,
} from '../generated/resolvers-types.js';
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
import { endsAt } from '../seating/holds.js';
import { isLiveOption, type OpzioneRecord } from '../options/opzione-record.js';
import type { OpzioneStore } from '../options/opzione-store.js';
import { Reseater } from '../seating/reseater.js';
import {
  SeatPlacement,
  type PlacementOwner,
  type Placed,
  type PlacementRequest,
} from '../seating/seat-placement.js';
import type { SeatingSources } from '../seating/seating-sources.js';
import { TableClaims } from '../seating/table-claims.js';
import type { TableAgendaStore } from '../seating/table-agenda-store.js';
import { mayHaveBeenApplied } from '../seating/write-outcome.js';

/** At most this many tables per window query (the availability check asks for its candidate tables). */
export const WINDOW_MAX_TABLES = 5000;
const MAX_CAS_ATTEMPTS = 8;
/** The claim revision of an option's holds (the booking made from it claims at revision 1 and up). */
export const OPTION_CLAIM_REV = 0;
const MAX_CODICE_ATTEMPTS = 10;
const EVENT_SOURCE = 'coperto/prenotazione';

export interface PrenotazioneServiceDeps {
  store: PrenotazioneStore;
  agenda: TableAgendaStore;
  /** Options (holds during checkout): a booking may be made from one. */
  options: OpzioneStore;
  viewer: Viewer;
  subgraphs: SubgraphClient;
  /** Tables, combinations and the seating settings (turn times, re-seating), from tavolo and capacity. */
  seating: SeatingSources;
  timeZone: string;
  now: () => Date;
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
  private readonly claims: TableClaims;
  private readonly placement: SeatPlacement;
  private readonly reseater: Reseater;

  constructor(private readonly deps: PrenotazioneServiceDeps) {
    this.claims = new TableClaims({
      agenda: deps.agenda,
      bookings: deps.store,
      options: deps.options,
      now: deps.now,
      logger: deps.logger,
    });
    this.placement = new SeatPlacement({
      claims: this.claims,
      sources: deps.seating,
      subgraphs: deps.subgraphs,
      token: deps.viewer.token,
      timeZone: deps.timeZone,
    });
    this.reseater = new Reseater({
      claims: this.claims,
      placement: this.placement,
      store: deps.store,
      sources: deps.seating,
      now: deps.now,
      event: (type, record, extra) => this.event(type, record, extra),
      onEventsWritten: deps.onEventsWritten,
      logger: deps.logger,
    });
  }

  /** The seating code shared with options (one placement rule for bookings and options). */
  get seatPlacement(): SeatPlacement {
    return this.placement;
  }

  get tableClaims(): TableClaims {
    return this.claims;
  }

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
    if (input.opzioneId != null || input.holdId != null) {
      // An imported booking's id comes from its externalId; a booking from an option takes the option's.
      throw new ValidationError([{ field: 'opzioneId', message: 'is not accepted by the batch upload' }]);
    }
    return this.createRecord(input, importedId(externalId));
  }

  async update(id: string, patch: PrenotazionePatch): Promise<PrenotazioneRecord> {
    const moment = checkPrenotazione(patch, { required: false, zone: this.deps.timeZone });
    if (patch.tableIds) await this.placement.requireTables(patch.tableIds);
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
        ...(patch.tableIds != null
          ? { tableIds: [...patch.tableIds], combinationId: null, assegnazione: 'manual' as const }
          : {}),
      };
      if (patch.combinationId != null) {
        const combination = await this.placement.combinationFor(
          patch.combinationId,
          merged.covers ?? current.covers,
        );
        Object.assign(changes, {
          tableIds: [...combination.tableIds],
          combinationId: combination.id,
          assegnazione: 'manual',
        });
      }
      if (!patch.autoAssign && !changesAnything(current, changes)) return current;
      const next: PrenotazioneRecord = {
        ...current,
        ...changes,
        version: current.version + 1,
        updatedAt: this.stamp(),
      };
      const moved =
        patch.autoAssign === true ||
        next.startsAt !== current.startsAt ||
        next.durationMinutes !== current.durationMinutes ||
        next.covers !== current.covers ||
        next.tableIds.join() !== current.tableIds.join();
      // A move fixes the effective duration anew (its own, else the turn time for its covers now).
      if (moved) {
        next.effectiveDurationMinutes = await this.effectiveDuration(next.durationMinutes, next.covers);
      }
      const reschedule = isActive(current.state) && moved;
      let claimId: string | null = null;
      if (reschedule) {
        next.claimRev = current.claimRev + 1;
        if (patch.autoAssign) {
          const placed = await this.placement.assign(this.placementOwner(next), await this.reseatIfEnabled());
          Object.assign(next, {
            tableIds: placed.tableIds,
            combinationId: placed.combinationId,
            assegnazione: 'auto',
          });
          claimId = placed.claimId;
        } else {
          claimId = await this.claims.claim(this.claimOwner(next));
        }
      } else if (patch.autoAssign) {
        // The booking's own state refuses it (state, not shape): a conflict, as a move out of a final state is.
        throw new AppError(
          'INVALID_TRANSITION',
          `autoAssign needs an active booking state, not ${current.state}`,
          {
            from: current.state,
            to: 'autoAssign',
          },
        );
      }
      let saved: PrenotazioneRecord | null;
      try {
        saved = await this.deps.store.replace(current.version, next, [this.event('bookings.updated', next)]);
      } catch (error) {
        if (claimId && !mayHaveBeenApplied(error)) await this.releaseClaim(next, claimId).catch(() => {});
        throw error;
      }
      if (!saved) {
        if (claimId) await this.releaseClaim(next, claimId);
        continue;
      }
      this.deps.onEventsWritten();
      if (reschedule) {
        await this.claims.releaseOlderRevisions(saved.id, saved.claimRev, [
          ...current.tableIds,
          ...saved.tableIds,
        ]);
      }
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
      if (!isActive(to)) await this.claims.releaseAll(saved.id, saved.tableIds);
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
    return (await this.claims.heldIn(args.tableIds, from!, to!)).map((c) => ({
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
    const optionId = preferEnglish(input.opzioneId, input.holdId);
    if (optionId != null) return { status: 'created', record: await this.createFromOption(input, optionId) };
    const moment = checkPrenotazione(input, { required: true, zone: this.deps.timeZone })!;
    if (fixedId) {
      const existing = await this.deps.store.findById(fixedId);
      if (existing) return { status: 'duplicate', record: existing };
    }
    const merged = mergeAliases(input);
    const covers = merged.covers!;
    const effectiveDurationMinutes = await this.effectiveDuration(input.durationMinutes ?? null, covers);
    const now = this.stamp();
    const base: PrenotazioneRecord = {
      id: fixedId ?? randomUUID(),
      codice: '',
      covers,
      numeroPersone: covers,
      bookingDate: moment.local,
      dataOra: moment.local,
      startsAt: moment.startsAt,
      localDate: moment.localDate,
      customerName: merged.customerName!.trim(),
      cliente: merged.customerName!.trim(),
      customerPhone: input.customerPhone?.trim() || null,
      tableIds: [],
      combinationId: null,
      assegnazione: input.autoAssign ? 'auto' : 'manual',
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
    const placed = await this.placement.place(this.placementOwner(base), input, {
      claim: isActive(base.state),
      reseat: input.autoAssign ? await this.reseatIfEnabled() : undefined,
    });
    const record = {
      ...base,
      tableIds: placed.tableIds,
      combinationId: placed.combinationId,
      assegnazione: placed.assegnazione,
    };
    return this.insertClaimed(record, placed.claimId, fixedId);
  }

  /**
   * A booking from an option: exactly the option's tables and window, its id the option's (so one option can
   * never become two bookings: the id is unique), the option consumed by compare-and-set. The booking claims
   * its tables first (the option's own holds do not block it: same id), so the tables are never free in
   * between; then the option is closed; then the booking is stored; then the option's holds are removed.
   */
  private async createFromOption(input: PrenotazioneInput, optionId: string): Promise<PrenotazioneRecord> {
    const moment = checkPrenotazione(input, { required: false, zone: this.deps.timeZone });
    const merged = mergeAliases(input);
    const checks = new InputChecks().required('customerName', merged.customerName);
    if (input.tableIds != null || input.combinationId != null || input.autoAssign === true) {
      checks.add('opzioneId', 'takes the tables of the option: no tableIds, combinationId or autoAssign');
    }
    if (input.durationMinutes != null) checks.add('durationMinutes', "the option's window applies");
    checks.text('opzioneId', optionId, { min: 1, max: 200 }).throwIfAny();
    const option = await this.deps.options.findById(optionId);
    if (!option || !isLiveOption(option, this.stamp())) throw new OptionExpiredError(optionId);
    const mismatch = new InputChecks();
    if (merged.covers != null && merged.covers !== option.covers) {
      mismatch.add('covers', `must be the option's ${option.covers} (or absent)`);
    }
    if (moment && moment.startsAt !== option.startsAt) {
      mismatch.add('bookingDate', `must be the option's ${option.bookingDate} (or absent)`);
    }
    const state = input.state ?? 'pending';
    if (!isActive(state)) mismatch.add('state', 'must be an active state for a booking from an option');
    mismatch.throwIfAny();
    const now = this.stamp();
    const record: PrenotazioneRecord = {
      id: option.id,
      codice: '',
      covers: option.covers,
      numeroPersone: option.covers,
      bookingDate: option.bookingDate,
      dataOra: option.bookingDate,
      startsAt: option.startsAt,
      localDate: option.localDate,
      customerName: merged.customerName!.trim(),
      cliente: merged.customerName!.trim(),
      customerPhone: input.customerPhone?.trim() || null,
      tableIds: [...option.tableIds],
      combinationId: option.combinationId,
      assegnazione: option.assegnazione,
      notes: input.notes ?? null,
      state,
      durationMinutes: option.durationMinutes,
      effectiveDurationMinutes: (Date.parse(option.endsAt) - Date.parse(option.startsAt)) / 60_000,
      motivo: null,
      cancelledAt: null,
      externalId: input.externalId?.trim() || null,
      createdAt: now,
      updatedAt: now,
      version: 1,
      claimRev: 1,
    };
    let claimId: string | null;
    try {
      claimId = await this.claims.claim(this.claimOwner(record));
    } catch (error) {
      const again = await this.deps.options.findById(optionId);
      if (error instanceof TableUnavailableError && (!again || !isLiveOption(again, this.stamp()))) {
        throw new OptionExpiredError(optionId);
      }
      throw error;
    }
    const usedAt = this.stamp();
    if (!(await this.deps.options.close(option.id, usedAt, 'usedAt'))) {
      if (claimId) await this.releaseClaim(record, claimId).catch(() => {});
      throw new OptionExpiredError(optionId);
    }
    let saved: PrenotazioneRecord;
    try {
      saved = (await this.insertClaimed(record, claimId, null)).record;
    } catch (error) {
      await this.deps.options.reopen(option.id, usedAt).catch(() => {});
      throw error;
    }
    await this.releaseOptionHolds(option);
    return saved;
  }

  /** Removes an option's own holds (best effort: once used or released, they are stale anyway). */
  async releaseOptionHolds(option: OpzioneRecord): Promise<void> {
    await this.claims
      .release({ id: option.id, rev: OPTION_CLAIM_REV, tableIds: option.tableIds }, option.claimId)
      .catch(() => {});
  }

  /** Stores a new booking whose tables are claimed (codice retried on collision); releases the claim on failure. */
  private async insertClaimed(
    base: PrenotazioneRecord,
    claimId: string | null,
    fixedId: string | null,
  ): Promise<{ status: 'created' | 'duplicate'; record: PrenotazioneRecord }> {
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
      if (claimId && !mayHaveBeenApplied(error)) await this.releaseClaim(base, claimId).catch(() => {});
      throw error;
    }
  }

  /** The re-seating step of auto-assignment, when the tenant's settings allow it. */
  private async reseatIfEnabled() {
    const config = await this.deps.seating.config();
    if (!config.reseat) return undefined;
    return (owner: PlacementOwner, fitting: Parameters<Reseater['reseat']>[1]): Promise<Placed | null> =>
      this.reseater.reseat(owner, fitting, config.reseatFreezeMinutes);
  }

  private claimOwner(record: PrenotazioneRecord) {
    return {
      id: record.id,
      rev: record.claimRev,
      tableIds: record.tableIds,
      start: record.startsAt,
      end: endsAt(record),
    };
  }

  private placementOwner(record: PrenotazioneRecord): PlacementOwner {
    return {
      id: record.id,
      rev: record.claimRev,
      start: record.startsAt,
      end: endsAt(record),
      covers: record.covers,
      localDate: record.localDate,
    };
  }

  /** Removes one claim attempt's entries (and only those: another attempt of the same booking keeps its own). */
  private releaseClaim(record: PrenotazioneRecord, claimId: string): Promise<void> {
    return this.claims.release({ id: record.id, rev: record.claimRev, tableIds: record.tableIds }, claimId);
  }

  /** The effective duration to store: the booking's own, else the turn time for its covers now. */
  private async effectiveDuration(own: number | null, covers: number): Promise<number> {
    if (own != null) return own;
    const config = await this.deps.seating.config();
    return turnMinutes(config.turnTimes, covers, config.defaultMealMinutes);
  }

  private async requireBooking(id: string): Promise<PrenotazioneRecord> {
    const found = await this.deps.store.findById(id);
    if (!found) throw new NotFoundError('Prenotazione', id);
    return found;
  }

  private event(
    type: RestaurantEventType,
    record: PrenotazioneRecord,
    extra: Record<string, unknown> = {},
  ): OutboxMessage {
    return buildEvent({
      tenantId: this.deps.viewer.tenantId,
      type,
      source: EVENT_SOURCE,
      subject: record.id,
      // Every event's data has each field of the documented record (AsyncAPI): previousTableIds is null except
      // on a re-seating move, which passes the tables it left.
      data: { ...publicPrenotazione(record), previousTableIds: null, ...extra },
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
