import { InputChecks } from '@coperto/domain';
import type { CambioRecord } from './event-facts.js';
import type { RapportiStore } from './rapporti-store.js';

export const HISTORY_LIMITS = { default: 50, max: 500 } as const;

/** A status change under both names, as `Tavolo.storico` returns it. */
export interface CambioView {
  id: string;
  tavoloId: string;
  tableId: string;
  at: string;
  stato: string;
  status: string;
  statoPrecedente: string | null;
  previousStatus: string | null;
  orderId: string | null;
  pax: number | null;
  totalAmount: number | null;
}

export function cambioView(record: CambioRecord): CambioView {
  return {
    id: record.id,
    tavoloId: record.tavoloId,
    tableId: record.tavoloId,
    at: record.at,
    stato: record.stato,
    status: record.stato,
    statoPrecedente: record.precedente,
    previousStatus: record.precedente,
    orderId: record.orderId,
    pax: record.pax,
    totalAmount: record.totalAmount,
  };
}

/** A table's status history (staff). */
export class HistoryService {
  constructor(private readonly store: RapportiStore) {}

  async of(tavoloId: string, limite: number | null | undefined): Promise<CambioView[]> {
    new InputChecks().intInRange('limite', limite, 1, HISTORY_LIMITS.max).throwIfAny();
    const records = await this.store.history(tavoloId, limite ?? HISTORY_LIMITS.default);
    return records.map(cambioView);
  }
}
