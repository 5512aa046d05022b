import type { DocumentStore, TenantCollection, TenantStore } from '@coperto/store';
import { DuplicateKeyError } from '@coperto/store';
import type { CambioRecord, PrenotazioneFatti } from './event-facts.js';

const CAMBI = 'rapporti_cambi';
const TAVOLI = 'rapporti_tavoli';
const PRENOTAZIONI = 'rapporti_prenotazioni';

/**
 * The status changes kept per table (the newest; up to a tenth more until the next trim): the bound of a table's
 * history, and so of what a report can read of it (about four months of a table turned three times a day:
 * docs/reports.md).
 */
export const HISTORY_PER_TABLE = 2000;

export async function ensureRapportiIndexes(store: DocumentStore): Promise<void> {
  await store.ensureIndexes(CAMBI, [
    { name: 'table_time', fields: { tavoloId: 1, at: -1 } },
    { name: 'time', fields: { at: 1 } },
  ]);
  await store.ensureIndexes(PRENOTAZIONI, [{ name: 'starts', fields: { startsAt: 1 } }]);
}

/** How many changes a table's history holds, and the time up to which it let them go. */
interface TavoloConteggio {
  id: string;
  cambi: number;
  potatiFino: string | null;
}

/** rapporti's collections for one tenant: what its consumer writes and its reports read. */
export class RapportiStore {
  private readonly cambi: TenantCollection<CambioRecord>;
  private readonly prenotazioni: TenantCollection<PrenotazioneFatti>;
  private readonly tavoli: TenantCollection<TavoloConteggio>;

  constructor(
    tenant: TenantStore,
    private readonly historyPerTable: number = HISTORY_PER_TABLE,
  ) {
    this.cambi = tenant.collection(CAMBI);
    this.prenotazioni = tenant.collection(PRENOTAZIONI);
    this.tavoli = tenant.collection(TAVOLI);
  }

  /**
   * Keeps a status change once (its id is the event's: a repeated event is a duplicate key; one older than what
   * the table's history already let go is not kept again). Each table's changes are counted; past
   * `historyPerTable` + a tenth, the oldest go, back to `historyPerTable` (one read of the table's changes every
   * tenth of the bound, not at every event: the consumer keeps up with the relay).
   */
  async addChange(cambio: CambioRecord): Promise<void> {
    const table = await this.tavoli.findById(cambio.tavoloId);
    if (table?.potatiFino && cambio.at <= table.potatiFino) return;
    try {
      await this.cambi.insertOne(cambio);
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
      return;
    }
    const count = () =>
      this.tavoli.findOneAndUpdate(
        { id: cambio.tavoloId },
        { $inc: { cambi: 1 }, $setOnInsert: { potatiFino: null } },
        { upsert: true },
      );
    // Two replicas counting a table's first change at once: one insert wins, the other counts on it.
    const counted = await count().catch((error: unknown) => {
      if (error instanceof DuplicateKeyError) return count();
      throw error;
    });
    const step = Math.max(1, Math.ceil(this.historyPerTable / 10));
    if (counted && counted.cambi > this.historyPerTable + step) await this.prune(cambio.tavoloId);
  }

  private async prune(tavoloId: string): Promise<void> {
    const [beyond] = await this.cambi.find(
      { tavoloId },
      { sort: { at: -1 }, skip: this.historyPerTable, limit: 1 },
    );
    if (!beyond) return;
    const deleted = await this.cambi.deleteMany({ tavoloId, at: { $lte: beyond.at } });
    await this.tavoli.findOneAndUpdate({ id: tavoloId }, { $inc: { cambi: -deleted } });
    await this.tavoli.findOneAndUpdate(
      { id: tavoloId, $or: [{ potatiFino: null }, { potatiFino: { $lt: beyond.at } }] },
      { $set: { potatiFino: beyond.at } },
    );
  }

  /** Keeps the booking's latest state: an event older than the one applied (by updatedAt) changes nothing. */
  async putBooking(fatti: PrenotazioneFatti): Promise<void> {
    const { id, ...state } = fatti;
    const update = () =>
      this.prenotazioni.findOneAndUpdate({ id, aggiornatoAt: { $lte: fatti.aggiornatoAt } }, { $set: state });
    if (await update()) return;
    try {
      await this.prenotazioni.insertOne(fatti);
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
      // Another delivery inserted it meanwhile (maybe an older state): this one applies if it is newer.
      await update();
    }
  }

  /** Deletes the facts of the bookings that started before `cutoff` (pruning.ts); how many it deleted. */
  pruneBookings(cutoff: Date): Promise<number> {
    return this.prenotazioni.deleteMany({ startsAt: { $lt: cutoff.toISOString() } });
  }

  /** A table's changes, newest first. */
  history(tavoloId: string, limit: number): Promise<CambioRecord[]> {
    return this.cambi.find({ tavoloId }, { sort: { at: -1 }, limit });
  }

  /** Every change in [from, to), oldest first. */
  changesBetween(from: Date, to: Date): Promise<CambioRecord[]> {
    return this.cambi.find({ at: { $gte: from.toISOString(), $lt: to.toISOString() } }, { sort: { at: 1 } });
  }

  /** Bookings starting in [from, to). */
  bookingsBetween(from: Date, to: Date): Promise<PrenotazioneFatti[]> {
    return this.prenotazioni.find({
      startsAt: { $gte: from.toISOString(), $lt: to.toISOString() },
    });
  }
}
