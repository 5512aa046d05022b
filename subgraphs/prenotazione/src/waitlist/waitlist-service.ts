import { randomUUID } from 'node:crypto';
import type { Viewer } from '@coperto/auth';
import { buildEvent, type WaitlistEventType } from '@coperto/bus';
import { localDateOf, turnMinutes } from '@coperto/domain';
import {
  AppError,
  InvalidTransitionError,
  NoTableAvailableError,
  NotFoundError,
  ValidationError,
} from '@coperto/errors';
import type { Logger } from '@coperto/server-kit';
import type { OutboxMessage } from '@coperto/store';
import type { AnnullaAttesaInput, SiediAttesaInput, VoceAttesaInput } from '../generated/resolvers-types.js';
import { importedId, type PrenotazioneService } from '../bookings/prenotazione-service.js';
import { QUOTE_HORIZON_MS, quoteQueue, type QuoteTable } from './waitlist-quote.js';
import {
  checkAnnullaAttesa,
  checkSiediAttesa,
  checkVoceAttesa,
  type SeatingChoice,
} from './waitlist-input.js';
import {
  isWaiting,
  publicEntry,
  waitlistTransition,
  type QueuePlace,
  type SeatingIntent,
  type StatoAttesa,
  type WaitlistRecord,
  type WaitlistView,
} from './waitlist-record.js';
import type { SeatingConfig, SeatingInputs } from './waitlist-seating-inputs.js';
import type { WaitlistStore } from './waitlist-store.js';

const MAX_CAS_ATTEMPTS = 8;
const EVENT_SOURCE = 'coperto/prenotazione';
/** Statuses of a table with guests at it: seating a party there is refused. */
const TAKEN_STATUSES: ReadonlySet<string> = new Set(['occupied', 'open', 'payment_pending']);

const EVENT_OF: Record<Exclude<StatoAttesa, 'waiting'>, WaitlistEventType> = {
  notified: 'waitlist.notified',
  seated: 'waitlist.seated',
  left: 'waitlist.left',
  cancelled: 'waitlist.cancelled',
};

/** The bookings side the waitlist uses: the walk-in booking (created idempotently) and the tables' agendas. */
export type WalkInBookings = Pick<PrenotazioneService, 'import' | 'holdsInWindow'>;

export interface WaitlistServiceDeps {
  store: WaitlistStore;
  bookings: WalkInBookings;
  seating: SeatingInputs;
  viewer: Viewer;
  timeZone: string;
  now: () => Date;
  onEventsWritten: () => void;
  logger?: Logger;
}

/** The externalId of the walk-in booking of a waitlist entry: its booking id is derived from it (importedId). */
export function walkInExternalId(entryId: string): string {
  return `waitlist:${entryId}`;
}

/**
 * The waitlist of walk-in parties: validation and aliases, the state flow and its events, the quote, and
 * seating (the walk-in booking, the tables' statuses and the entry's final state, crash-safe).
 */
export class WaitlistService {
  constructor(private readonly deps: WaitlistServiceDeps) {}

  /** Adds a party (waiting) with the quote for its place at the end of today's queue. */
  async add(input: VoceAttesaInput): Promise<WaitlistView> {
    const party = checkVoceAttesa(input);
    const now = this.stamp();
    const record: WaitlistRecord = {
      id: randomUUID(),
      customerName: party.customerName,
      cliente: party.customerName,
      covers: party.covers,
      numeroPersone: party.covers,
      customerPhone: party.customerPhone,
      notes: party.notes,
      state: 'waiting',
      quotedMinutes: null,
      quotedAt: now,
      notifiedAt: null,
      seatedAt: null,
      prenotazioneId: null,
      tableIds: [],
      motivo: null,
      localDate: this.today(),
      seating: null,
      createdAt: now,
      updatedAt: now,
      version: 1,
    };
    const queue = [...(await this.deps.store.activeOn(record.localDate)), record];
    const place = (await this.places(queue)).get(record.id) ?? null;
    record.quotedMinutes = place?.estimatedMinutes ?? null;
    const saved = await this.deps.store.insert(record, [this.event('waitlist.added', record, place)]);
    this.deps.onEventsWritten();
    return publicEntry(saved, place);
  }

  /** Today's waiting and notified parties, oldest first, each with its place; half-done seatings finished. */
  async list(): Promise<WaitlistView[]> {
    const today = this.today();
    let entries = await this.deps.store.activeOn(today);
    if (entries.some((e) => e.seating)) {
      await Promise.all(entries.filter((e) => e.seating).map((e) => this.recover(e)));
      entries = await this.deps.store.activeOn(today);
    }
    const places = await this.places(entries);
    return entries.map((e) => publicEntry(e, places.get(e.id)));
  }

  async get(id: string): Promise<WaitlistView | null> {
    let entry = await this.deps.store.findById(id);
    if (!entry) return null;
    if (entry.seating) entry = (await this.recover(entry)) ?? entry;
    return this.view(entry);
  }

  /** To notified: the party was told its table is ready. */
  notify(id: string): Promise<WaitlistView> {
    return this.changeState(id, 'notified', null);
  }

  /** To left or cancelled (default), with the reason. */
  async cancel(id: string, input: AnnullaAttesaInput | null | undefined): Promise<WaitlistView> {
    const { state, motivo } = checkAnnullaAttesa(input);
    return this.changeState(id, state, motivo);
  }

  /**
   * Seats the party in steps a crash cannot leave half done: (1) the intent (tables, start, turn time and the
   * booking's fixed id) is written on the entry; (2) the walk-in booking is created under that id (an existing
   * one is found, not created twice); (3) each table is set occupied (again: no harm); (4) the entry becomes
   * seated with its event. Whoever next reads the entry with an intent on it (a retry, a concurrent siedi, the
   * list, annulla) runs (2)-(4) again, so the seating is rolled forward; a booking refused for good (its tables
   * taken meanwhile) drops the intent instead. A second siedi returns the seated entry, or 409
   * INVALID_TRANSITION when it asks for other tables than the first.
   */
  async seat(id: string, input: SiediAttesaInput | null | undefined): Promise<WaitlistView> {
    const choice = checkSiediAttesa(input);
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      const current = await this.require(id);
      if (current.seating) {
        refuseOtherTables(current.seating, choice);
        return this.view(await this.finishSeating(current));
      }
      if (current.state === 'seated') {
        refuseOtherTables({ tableIds: current.tableIds, combinationId: null }, choice);
        return this.view(current);
      }
      if (waitlistTransition(current.state, 'seated') === 'refused')
        throw new InvalidTransitionError(current.state, 'seated');
      const intent = await this.seatingIntent(current, choice);
      const next: WaitlistRecord = {
        ...current,
        seating: intent,
        version: current.version + 1,
        updatedAt: this.stamp(),
      };
      const saved = await this.deps.store.replace(current.version, next);
      if (!saved) continue;
      return this.view(await this.finishSeating(saved));
    }
    throw new Error(`Waitlist entry ${id} kept changing while being seated`);
  }

  private async changeState(id: string, to: StatoAttesa, motivo: string | null): Promise<WaitlistView> {
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      let current = await this.require(id);
      if (current.seating) current = await this.finishSeating(current);
      const verdict = waitlistTransition(current.state, to);
      if (verdict === 'same') return this.view(current);
      if (verdict === 'refused') throw new InvalidTransitionError(current.state, to);
      const now = this.stamp();
      const next: WaitlistRecord = {
        ...current,
        state: to,
        ...(to === 'notified' ? { notifiedAt: now } : {}),
        ...(to === 'left' || to === 'cancelled' ? { motivo } : {}),
        version: current.version + 1,
        updatedAt: now,
      };
      const event = this.event(EVENT_OF[to as keyof typeof EVENT_OF], next, null);
      const saved = await this.deps.store.replace(current.version, next, [event]);
      if (!saved) continue;
      this.deps.onEventsWritten();
      return this.view(saved);
    }
    throw new Error(`Waitlist entry ${id} kept changing during the state change`);
  }

  /** The tables the party is to take (the host's choice, checked, or the suggested fit free now). */
  private async seatingIntent(entry: WaitlistRecord, choice: SeatingChoice): Promise<SeatingIntent> {
    const [tables, combinations, config] = await Promise.all([
      this.deps.seating.tables(),
      this.deps.seating.combinations(),
      this.deps.seating.seatingConfig(),
    ]);
    const minutes = turnMinutes(config.turnTimes, entry.covers, config.defaultMealMinutes);
    const startsAt = this.stamp();
    let tableIds: string[];
    let combinationId: string | null = null;
    if (choice.kind === 'suggested') {
      const holds = await this.holds(tables);
      const quote = quoteQueue({
        now: Date.parse(startsAt),
        tables,
        combinations,
        holds,
        queue: [{ id: entry.id, covers: entry.covers }],
        turnMinutes: (covers) => turnMinutes(config.turnTimes, covers, config.defaultMealMinutes),
        // seating now takes a table no booking holds: a late party's table is not given away before its no-show
        settings: { lateHoldMinutes: Number.POSITIVE_INFINITY },
      }).get(entry.id);
      if (!quote || quote.minutes !== 0)
        throw new NoTableAvailableError(
          entry.covers,
          startsAt,
          quote?.minutes == null
            ? `No table or combination holds ${entry.covers} covers`
            : `No fitting table is free now (the first in about ${quote.minutes} minutes)`,
        );
      tableIds = quote.tableIds;
      combinationId = quote.combinationId;
    } else {
      if (choice.kind === 'combination') {
        const combination = combinations.find((c) => c.id === choice.combinationId);
        // Not an active combination of the tenant: it cannot seat the party now (state, not shape: 409; a 404
        // here would say the waitlist entry in the path is missing).
        if (!combination) {
          throw new AppError(
            'TABLE_UNAVAILABLE',
            `Not an active combination of this restaurant: ${choice.combinationId}`,
            { combinationId: choice.combinationId },
          );
        }
        tableIds = [...combination.tableIds];
        combinationId = combination.id;
      } else {
        tableIds = choice.tableIds;
      }
      checkChosenTables(tableIds, tables);
    }
    return {
      prenotazioneId: importedId(walkInExternalId(entry.id)),
      tableIds,
      combinationId,
      startsAt,
      turnMinutes: minutes,
    };
  }

  /** Steps (2)-(4) of seat; idempotent, so any reader may run them again. Returns the entry afterwards. */
  private async finishSeating(entry: WaitlistRecord): Promise<WaitlistRecord> {
    const intent = entry.seating!;
    try {
      await this.deps.bookings.import({
        externalId: walkInExternalId(entry.id),
        customerName: entry.customerName,
        covers: entry.covers,
        customerPhone: entry.customerPhone,
        notes: entry.notes,
        dataOra: intent.startsAt,
        durationMinutes: intent.turnMinutes,
        tableIds: intent.tableIds,
        state: 'confermata',
      });
    } catch (error) {
      if (error instanceof AppError && error.status < 500) {
        await this.dropIntent(entry.id, intent);
      }
      throw error;
    }
    await this.deps.seating.setOccupied(intent.tableIds, entry.covers);
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      const current = await this.require(entry.id);
      if (current.seating?.prenotazioneId !== intent.prenotazioneId) return current; // finished by another
      const next: WaitlistRecord = {
        ...current,
        state: 'seated',
        seatedAt: intent.startsAt,
        prenotazioneId: intent.prenotazioneId,
        tableIds: [...intent.tableIds],
        seating: null,
        version: current.version + 1,
        updatedAt: this.stamp(),
      };
      const saved = await this.deps.store.replace(current.version, next, [
        this.event('waitlist.seated', next, null),
      ]);
      if (!saved) continue;
      this.deps.onEventsWritten();
      return saved;
    }
    throw new Error(`Waitlist entry ${entry.id} kept changing while being seated`);
  }

  /** A booking refused for good (e.g. its tables were booked meanwhile): the party is back to waiting. */
  private async dropIntent(id: string, intent: SeatingIntent): Promise<void> {
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      const current = await this.require(id);
      if (current.seating?.prenotazioneId !== intent.prenotazioneId) return;
      const next = { ...current, seating: null, version: current.version + 1, updatedAt: this.stamp() };
      if (await this.deps.store.replace(current.version, next)) return;
    }
  }

  /** Rolls a half-done seating forward on a read; a failure is logged and left for the next reader. */
  private async recover(entry: WaitlistRecord): Promise<WaitlistRecord | null> {
    try {
      return await this.finishSeating(entry);
    } catch (error) {
      this.deps.logger?.warn('a half-done waitlist seating could not be finished yet', {
        id: entry.id,
        error,
      });
      return null;
    }
  }

  /** The entry with its place in today's queue (when it is waiting today). */
  private async view(entry: WaitlistRecord): Promise<WaitlistView> {
    if (!isWaiting(entry.state) || entry.localDate !== this.today()) return publicEntry(entry, null);
    const queue = await this.deps.store.activeOn(entry.localDate);
    return publicEntry(entry, (await this.places(queue)).get(entry.id) ?? null);
  }

  /** Each queued party's position (1 = oldest) and estimate, simulating the queue over the tables. */
  private async places(queue: readonly WaitlistRecord[]): Promise<Map<string, QueuePlace>> {
    if (queue.length === 0) return new Map();
    const [tables, combinations, config] = await Promise.all([
      this.deps.seating.tables(),
      this.deps.seating.combinations(),
      this.deps.seating.seatingConfig(),
    ]);
    const quotes = quoteQueue({
      now: this.deps.now().getTime(),
      tables,
      combinations,
      holds: await this.holds(tables),
      queue: queue.map((e) => ({ id: e.id, covers: e.covers })),
      turnMinutes: turnFor(config),
    });
    return new Map(
      queue.map((entry, index) => {
        const quote = quotes.get(entry.id);
        return [
          entry.id,
          {
            position: index + 1,
            estimatedMinutes: quote?.minutes ?? null,
            suggestedTableIds: quote?.tableIds ?? [],
            suggestedCombinationId: quote?.combinationId ?? null,
          },
        ];
      }),
    );
  }

  /** The tables' holds from now to the quote horizon: prenotazione's own agendas. */
  private holds(tables: readonly QuoteTable[]) {
    if (tables.length === 0) return Promise.resolve([]);
    const now = this.deps.now().getTime();
    return this.deps.bookings.holdsInWindow({
      from: new Date(now).toISOString(),
      to: new Date(now + QUOTE_HORIZON_MS).toISOString(),
      tableIds: tables.map((t) => t.id),
    });
  }

  private async require(id: string): Promise<WaitlistRecord> {
    const found = await this.deps.store.findById(id);
    if (!found) throw new NotFoundError('VoceAttesa', id);
    return found;
  }

  private event(type: WaitlistEventType, record: WaitlistRecord, place: QueuePlace | null): OutboxMessage {
    return buildEvent({
      tenantId: this.deps.viewer.tenantId,
      type,
      source: EVENT_SOURCE,
      subject: record.id,
      data: publicEntry(record, place),
    }).message;
  }

  private today(): string {
    return localDateOf(this.deps.now(), this.deps.timeZone);
  }

  private stamp(): string {
    return this.deps.now().toISOString();
  }
}

function turnFor(config: SeatingConfig): (covers: number) => number {
  return (covers) => turnMinutes(config.turnTimes, covers, config.defaultMealMinutes);
}

/** Chosen tables must be active tables of the tenant without guests at them. */
function checkChosenTables(tableIds: readonly string[], tables: readonly QuoteTable[]): void {
  const byId = new Map(tables.map((t) => [t.id, t]));
  const unknown = tableIds.filter((id) => !byId.has(id));
  // Not active tables of the tenant: they cannot seat the party now (state, not shape: 409; a 404 here would
  // say the waitlist entry in the path is missing).
  if (unknown.length > 0) {
    throw new AppError('TABLE_UNAVAILABLE', `Not active tables of this restaurant: ${unknown.join(', ')}`, {
      tableIds: unknown,
    });
  }
  const taken = tableIds.filter((id) => TAKEN_STATUSES.has(byId.get(id)!.status));
  if (taken.length > 0) {
    throw new AppError('TABLE_UNAVAILABLE', `Table(s) with guests at them: ${taken.join(', ')}`, {
      tableIds: taken,
    });
  }
}

/** A siedi naming other tables (or another combination) than the seating already made or in progress: 409. */
function refuseOtherTables(
  seated: { tableIds: readonly string[]; combinationId: string | null },
  choice: SeatingChoice,
): void {
  const same =
    choice.kind === 'suggested' ||
    (choice.kind === 'combination' && choice.combinationId === seated.combinationId) ||
    (choice.kind === 'tables' && [...choice.tableIds].sort().join() === [...seated.tableIds].sort().join());
  if (!same) throw new InvalidTransitionError('seated', 'seated on other tables');
}
