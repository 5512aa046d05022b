import {
  DuplicateKeyError,
  type DocumentStore,
  type Filter,
  type FindOptions,
  type TenantCollection,
  type TenantStore,
} from '@coperto/store';
import { guestChangeEvents } from './guest-change-events.js';
import {
  SETTINGS_ID,
  type CollegamentoRecord,
  type ImpostazioniRecord,
  type OspiteRecord,
  type RecapitoRecord,
  type TombstoneRecord,
} from './ospite-record.js';
import { foldText, searchKeys } from './search-keys.js';

export const OSPITI_COLLECTION = 'ospiti';
export const RECAPITI_COLLECTION = 'ospiti_recapiti';
export const COLLEGAMENTI_COLLECTION = 'ospiti_collegamenti';
export const IMPOSTAZIONI_COLLECTION = 'ospiti_impostazioni';
export const OBLII_COLLECTION = 'ospiti_oblii';

export async function ensureOspitiIndexes(store: DocumentStore): Promise<void> {
  await store.ensureIndexes(OSPITI_COLLECTION, [
    { name: 'ospiti_chiavi', fields: { chiavi: 1 } },
    { name: 'ospiti_tag', fields: { tag: 1 } },
    { name: 'ospiti_attivita', fields: { ultimaAttivita: 1 } },
  ]);
  await store.ensureIndexes(RECAPITI_COLLECTION, [{ name: 'recapiti_ospite', fields: { ospiteId: 1 } }]);
  await store.ensureIndexes(COLLEGAMENTI_COLLECTION, [
    { name: 'collegamenti_ospite', fields: { ospiteId: 1 } },
    { name: 'collegamenti_tavoli', fields: { tableIds: 1 } },
  ]);
}

/** What a guest record is stored with besides its fields: its sort name and search keys, derived here only. */
export type GuestFields = Omit<OspiteRecord, 'nomeOrdine' | 'chiavi'>;

function withDerived(guest: GuestFields): OspiteRecord {
  return {
    ...guest,
    nomeOrdine: guest.nome ? foldText(guest.nome) : '',
    chiavi: guest.cancellato ? [] : searchKeys(guest),
  };
}

/**
 * Storage of one tenant's guests, their contacts, links and settings: nothing but reads and writes. A write of a
 * guest stores the event it publishes in the guest's outbox, in the same write (guest-change-events.ts).
 */
export class OspitiStore {
  private readonly ospiti: TenantCollection<OspiteRecord>;
  private readonly recapiti: TenantCollection<RecapitoRecord>;
  private readonly collegamenti: TenantCollection<CollegamentoRecord>;
  private readonly impostazioni: TenantCollection<ImpostazioniRecord>;
  private readonly oblii: TenantCollection<TombstoneRecord>;

  constructor(
    private readonly tenantStore: TenantStore,
    /** Wakes the outbox relay after a write that stored events. */
    private readonly onEventsWritten: () => void = () => {},
  ) {
    this.ospiti = tenantStore.collection<OspiteRecord>(OSPITI_COLLECTION);
    this.recapiti = tenantStore.collection<RecapitoRecord>(RECAPITI_COLLECTION);
    this.collegamenti = tenantStore.collection<CollegamentoRecord>(COLLEGAMENTI_COLLECTION);
    this.impostazioni = tenantStore.collection<ImpostazioniRecord>(IMPOSTAZIONI_COLLECTION);
    this.oblii = tenantStore.collection<TombstoneRecord>(OBLII_COLLECTION);
  }

  guest(id: string): Promise<OspiteRecord | null> {
    return this.ospiti.findById(id);
  }

  guests(ids: readonly string[]): Promise<OspiteRecord[]> {
    return this.ospiti.findByIds(ids);
  }

  findGuests(filter: Filter, options?: FindOptions): Promise<OspiteRecord[]> {
    return this.ospiti.find(filter, options);
  }

  /** Guests not erased nor merged whose last activity is before `cutoff` (or not recorded), at most `limit`. */
  inactiveGuests(cutoff: string, limit: number): Promise<OspiteRecord[]> {
    return this.ospiti.find(
      {
        cancellato: false,
        unitoIn: null,
        $or: [
          { ultimaAttivita: { $lt: cutoff } },
          { ultimaAttivita: { $exists: false } },
          { ultimaAttivita: null },
        ],
      },
      { limit },
    );
  }

  /** Null when the id is taken (another writer made the same guest first). Publishes guests.created. */
  async insertGuest(guest: GuestFields): Promise<OspiteRecord | null> {
    const record = withDerived(guest);
    try {
      const saved = await this.ospiti.insertOne(record, {
        events: guestChangeEvents(this.tenantStore.tenantId, null, record),
      });
      this.onEventsWritten();
      return saved;
    } catch (error) {
      if (error instanceof DuplicateKeyError) return null;
      throw error;
    }
  }

  /**
   * Compare-and-set on the version of `current` (the guest as read): null when it changed (or vanished) meanwhile.
   * Publishes what the change is (guest-change-events.ts), if it changed anything the API shows.
   */
  async replaceGuest(current: OspiteRecord, guest: GuestFields): Promise<OspiteRecord | null> {
    const record = withDerived(guest);
    const events = guestChangeEvents(this.tenantStore.tenantId, current, record);
    const { id, ...fields } = record;
    const saved = await this.ospiti.findOneAndUpdate(
      { id, version: current.version },
      { $set: fields },
      { events },
    );
    if (saved && events.length > 0) this.onEventsWritten();
    return saved;
  }

  deleteGuest(id: string): Promise<boolean> {
    return this.ospiti.deleteOne({ id });
  }

  contact(key: string): Promise<RecapitoRecord | null> {
    return this.recapiti.findById(key);
  }

  /** Gives the contact to the guest unless another owns it; returns the owner either way. */
  async claimContact(key: string, ospiteId: string): Promise<string> {
    try {
      await this.recapiti.insertOne({ id: key, ospiteId });
      return ospiteId;
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
      const owner = await this.recapiti.findById(key);
      // Released meanwhile (an erasure): try again.
      return owner ? owner.ospiteId : this.claimContact(key, ospiteId);
    }
  }

  contactsOf(ospiteId: string): Promise<RecapitoRecord[]> {
    return this.recapiti.find({ ospiteId });
  }

  async moveContact(key: string, from: string, to: string): Promise<void> {
    await this.recapiti.findOneAndUpdate({ id: key, ospiteId: from }, { $set: { ospiteId: to } });
  }

  async releaseContact(key: string, ospiteId: string): Promise<void> {
    await this.recapiti.deleteMany({ id: key, ospiteId });
  }

  link(id: string): Promise<CollegamentoRecord | null> {
    return this.collegamenti.findById(id);
  }

  links(ids: readonly string[]): Promise<CollegamentoRecord[]> {
    return this.collegamenti.findByIds(ids);
  }

  linksOf(ospiteId: string): Promise<CollegamentoRecord[]> {
    return this.collegamenti.find({ ospiteId });
  }

  /** The link, or the one another writer inserted first. */
  async insertLink(link: CollegamentoRecord): Promise<CollegamentoRecord> {
    try {
      return await this.collegamenti.insertOne(link);
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
      const existing = await this.collegamenti.findById(link.id);
      if (!existing) throw error;
      return existing;
    }
  }

  /** Records a newer state of the linked record; an event older than the last one applied changes nothing. */
  async updateLinkState(
    id: string,
    state: Pick<CollegamentoRecord, 'stato' | 'startsAt' | 'aggiornatoAt' | 'endsAt' | 'tableIds'>,
  ): Promise<void> {
    await this.collegamenti.findOneAndUpdate(
      { id, aggiornatoAt: { $lt: state.aggiornatoAt } },
      { $set: state },
    );
  }

  /** The bookings linked to a guest that were on the table (spend.ts picks the one the table was seating). */
  bookingLinksOnTable(tableId: string): Promise<CollegamentoRecord[]> {
    return this.collegamenti.find({ tipo: 'prenotazione', tableIds: tableId });
  }

  async relink(id: string, from: string, to: string): Promise<void> {
    await this.collegamenti.findOneAndUpdate({ id, ospiteId: from }, { $set: { ospiteId: to } });
  }

  async saveTombstone(tombstone: TombstoneRecord): Promise<void> {
    const { id, ...fields } = tombstone;
    await this.oblii.findOneAndUpdate({ id }, { $set: fields }, { upsert: true });
  }

  /** The tombstone unless it expired at `now`. */
  async tombstone(id: string, now: string): Promise<TombstoneRecord | null> {
    const found = await this.oblii.findById(id);
    return found && found.scadeAt > now ? found : null;
  }

  async dropExpiredTombstones(now: string): Promise<void> {
    await this.oblii.deleteMany({ scadeAt: { $lte: now } });
  }

  settings(): Promise<ImpostazioniRecord | null> {
    return this.impostazioni.findById(SETTINGS_ID);
  }

  async saveSettings(settings: Omit<ImpostazioniRecord, 'id'>): Promise<ImpostazioniRecord> {
    const saved = await this.impostazioni.findOneAndUpdate(
      { id: SETTINGS_ID },
      { $set: settings },
      { upsert: true },
    );
    return saved!;
  }
}
