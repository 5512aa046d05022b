import { randomUUID } from 'node:crypto';
import type { WaitlistEventType } from '@coperto/bus';
import { localDateOf } from '@coperto/domain';
import { InvalidTransitionError, WriteConflictError } from '@coperto/errors';
import type { WaitlistEvent } from '../events.js';
import type { AnnullaAttesaInput, SiediAttesaInput, VoceAttesaInput } from '../generated/resolvers-types.js';
import {
  checkAnnullaAttesa,
  checkSiediAttesa,
  checkVoceAttesa,
  refuseOtherTables,
} from './waitlist-input.js';
import type { QueuePlaces } from './waitlist-places.js';
import {
  isWaiting,
  publicEntry,
  waitlistTransition,
  type StatoAttesa,
  type WaitlistRecord,
  type WaitlistView,
} from './waitlist-record.js';
import type { WaitlistSeating } from './waitlist-seating.js';
import { requireEntry, type WaitlistStore } from './waitlist-store.js';

const MAX_CAS_ATTEMPTS = 8;

const EVENT_OF: Record<Exclude<StatoAttesa, 'waiting'>, WaitlistEventType> = {
  notified: 'waitlist.notified',
  seated: 'waitlist.seated',
  left: 'waitlist.left',
  cancelled: 'waitlist.cancelled',
};

export interface WaitlistServiceDeps {
  store: WaitlistStore;
  /** Each waiting party's place and quote. */
  places: QueuePlaces;
  /** The seating steps: the walk-in booking, the tables occupied, the entry seated. */
  seating: WaitlistSeating;
  event: WaitlistEvent;
  timeZone: string;
  now: () => Date;
  onEventsWritten: () => void;
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
    const place = (await this.deps.places.of(queue)).get(record.id) ?? null;
    record.quotedMinutes = place?.estimatedMinutes ?? null;
    const saved = await this.deps.store.insert(record, [this.deps.event('waitlist.added', record, place)]);
    this.deps.onEventsWritten();
    return publicEntry(saved, place);
  }

  /** Today's waiting and notified parties, oldest first, each with its place; half-done seatings finished. */
  async list(): Promise<WaitlistView[]> {
    const today = this.today();
    let entries = await this.deps.store.activeOn(today);
    if (entries.some((e) => e.seating)) {
      await Promise.all(entries.filter((e) => e.seating).map((e) => this.deps.seating.recover(e)));
      entries = await this.deps.store.activeOn(today);
    }
    const places = await this.deps.places.of(entries);
    return entries.map((e) => publicEntry(e, places.get(e.id)));
  }

  async get(id: string): Promise<WaitlistView | null> {
    let entry = await this.deps.store.findById(id);
    if (!entry) return null;
    if (entry.seating) entry = (await this.deps.seating.recover(entry)) ?? entry;
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
   * list, annulla) runs (2)-(4) again (waitlist-seating.ts), so the seating is rolled forward; a booking refused
   * for good (its tables taken meanwhile) drops the intent instead. A second siedi returns the seated entry, or
   * 409 INVALID_TRANSITION when it asks for other tables than the first.
   */
  async seat(id: string, input: SiediAttesaInput | null | undefined): Promise<WaitlistView> {
    const choice = checkSiediAttesa(input);
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      const current = await requireEntry(this.deps.store, id);
      if (current.seating) {
        refuseOtherTables(current.seating, choice);
        return this.view(await this.deps.seating.finish(current));
      }
      if (current.state === 'seated') {
        refuseOtherTables({ tableIds: current.tableIds, combinationId: null }, choice);
        return this.view(current);
      }
      if (waitlistTransition(current.state, 'seated') === 'refused')
        throw new InvalidTransitionError(current.state, 'seated');
      const intent = await this.deps.seating.intent(current, choice);
      const next: WaitlistRecord = {
        ...current,
        seating: intent,
        version: current.version + 1,
        updatedAt: this.stamp(),
      };
      const saved = await this.deps.store.replace(current.version, next);
      if (!saved) continue;
      return this.view(await this.deps.seating.finish(saved));
    }
    throw new WriteConflictError('VoceAttesa', id);
  }

  private async changeState(id: string, to: StatoAttesa, motivo: string | null): Promise<WaitlistView> {
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      let current = await requireEntry(this.deps.store, id);
      if (current.seating) current = await this.deps.seating.finish(current);
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
      const event = this.deps.event(EVENT_OF[to as keyof typeof EVENT_OF], next, null);
      const saved = await this.deps.store.replace(current.version, next, [event]);
      if (!saved) continue;
      this.deps.onEventsWritten();
      return this.view(saved);
    }
    throw new WriteConflictError('VoceAttesa', id);
  }

  /** The entry with its place in today's queue (when it is waiting today). */
  private async view(entry: WaitlistRecord): Promise<WaitlistView> {
    if (!isWaiting(entry.state) || entry.localDate !== this.today()) return publicEntry(entry, null);
    const queue = await this.deps.store.activeOn(entry.localDate);
    return publicEntry(entry, (await this.deps.places.of(queue)).get(entry.id) ?? null);
  }

  private today(): string {
    return localDateOf(this.deps.now(), this.deps.timeZone);
  }

  private stamp(): string {
    return this.deps.now().toISOString();
  }
}
