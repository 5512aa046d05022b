import type {
  DocumentStore,
  Filter,
  Group,
  GroupSpec,
  IndexSpec,
  OutboxMessage,
  TenantCollection,
  TenantStore,
} from '@coperto/store';
import { ACTIVE_STATES, type BookingState, type PrenotazioneRecord } from './prenotazione-record.js';

export const PRENOTAZIONI_COLLECTION = 'prenotazioni';
export const CODICE_INDEX = 'prenotazioni_codice_unique';

export const prenotazioniIndexes: readonly IndexSpec[] = [
  { name: CODICE_INDEX, fields: { codice: 1 }, unique: true },
  { name: 'prenotazioni_day', fields: { localDate: 1, state: 1 } },
  { name: 'prenotazioni_sync', fields: { updatedAt: 1, id: 1 } },
  { name: 'prenotazioni_tables', fields: { tableIds: 1, startsAt: 1 } },
];

export function ensurePrenotazioniIndexes(store: DocumentStore): Promise<void> {
  return store.ensureIndexes(PRENOTAZIONI_COLLECTION, prenotazioniIndexes);
}

export interface PrenotazioniQuery {
  dal?: string | undefined;
  al?: string | undefined;
  state?: BookingState | undefined;
  tableId?: string | undefined;
  activeOnly?: boolean | undefined;
  /** Only bookings starting at or after this instant. */
  startsFrom?: string | undefined;
}

/** The store filter of a list query (pure). */
export function prenotazioniFilter(query: PrenotazioniQuery): Filter {
  const filter: Filter = {};
  if (query.dal || query.al) {
    filter.localDate = { ...(query.dal ? { $gte: query.dal } : {}), ...(query.al ? { $lte: query.al } : {}) };
  }
  if (query.state) filter.state = query.state;
  else if (query.activeOnly) filter.state = { $in: [...ACTIVE_STATES] };
  if (query.tableId) filter.tableIds = query.tableId;
  if (query.startsFrom) filter.startsAt = { $gte: query.startsFrom };
  return filter;
}

export const LIST_LIMIT = 5000;

/** A day's arrivals (`arrivalsOfDay`): by start and stay (the effective duration, and the own one of older records). */
const ARRIVALS: GroupSpec = {
  by: ['startsAt', 'effectiveDurationMinutes', 'durationMinutes'] satisfies Array<keyof PrenotazioneRecord>,
  sum: ['covers'] satisfies Array<keyof PrenotazioneRecord>,
};

/** Storage of one tenant's bookings: nothing but reads and writes. */
export class PrenotazioneStore {
  private readonly prenotazioni: TenantCollection<PrenotazioneRecord>;

  /**
   * `onWritten` runs after every write (insert, replace), before it is answered, also when the write failed (it may
   * have happened): it replaces the version of the bookings' read scope (day sums kept under it, DayArrivals).
   */
  constructor(
    tenantStore: TenantStore,
    private readonly onWritten: () => Promise<void> = async () => {},
  ) {
    this.prenotazioni = tenantStore.collection<PrenotazioneRecord>(PRENOTAZIONI_COLLECTION);
  }

  list(query: PrenotazioniQuery): Promise<PrenotazioneRecord[]> {
    return this.prenotazioni.find(prenotazioniFilter(query), {
      sort: { startsAt: 1, id: 1 },
      limit: LIST_LIMIT,
    });
  }

  /** The active bookings of a local day (as `list` finds them) grouped by start and stay, their covers summed. */
  arrivalsOfDay(localDate: string): Promise<Group[]> {
    return this.prenotazioni.group(
      prenotazioniFilter({ dal: localDate, al: localDate, activeOnly: true }),
      ARRIVALS,
    );
  }

  findById(id: string): Promise<PrenotazioneRecord | null> {
    return this.prenotazioni.findById(id);
  }

  findByIds(ids: readonly string[]): Promise<PrenotazioneRecord[]> {
    return this.prenotazioni.findByIds(ids);
  }

  findByCodice(codice: string): Promise<PrenotazioneRecord | null> {
    return this.prenotazioni.findOne({ codice });
  }

  async insert(record: PrenotazioneRecord, events: readonly OutboxMessage[]): Promise<PrenotazioneRecord> {
    try {
      return await this.prenotazioni.insertOne(record, { events });
    } finally {
      await this.onWritten();
    }
  }

  /** Compare-and-set on `version`, events in the same atomic write; null when the record changed meanwhile. */
  async replace(
    expectedVersion: number,
    next: PrenotazioneRecord,
    events: readonly OutboxMessage[],
  ): Promise<PrenotazioneRecord | null> {
    const { id, ...fields } = next;
    try {
      return await this.prenotazioni.findOneAndUpdate(
        { id, version: expectedVersion },
        { $set: fields },
        { events },
      );
    } finally {
      await this.onWritten();
    }
  }

  /** Changes in sync order: updatedAt in (after, upTo], then id; at most `limit`. */
  changes(options: {
    after: string;
    upTo: string;
    filter: Filter;
    limit: number;
  }): Promise<PrenotazioneRecord[]> {
    return this.prenotazioni.find(
      { ...options.filter, updatedAt: { $gt: options.after, $lte: options.upTo } },
      { sort: { updatedAt: 1, id: 1 }, limit: options.limit },
    );
  }

  /** Every change with exactly this updatedAt (a page never splits a group of equal timestamps). */
  changesAt(updatedAt: string, filter: Filter): Promise<PrenotazioneRecord[]> {
    return this.prenotazioni.find({ ...filter, updatedAt }, { sort: { id: 1 } });
  }
}
