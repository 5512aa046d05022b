import { turnMinutes } from '@coperto/domain';
import type { TableHoldsReader } from '../seating/agenda-service.js';
import { QUOTE_HORIZON_MS, quoteQueue, type QuoteTable } from './waitlist-quote.js';
import type { QueuePlace, WaitlistRecord } from './waitlist-record.js';
import type { SeatingInputs, TurnTimeConfig } from './waitlist-seating-inputs.js';

export interface QueuePlacesDeps {
  seating: SeatingInputs;
  /** The tables' agendas: the holds of bookings and options ahead of now. */
  agenda: TableHoldsReader;
  now: () => Date;
}

/** Where each waiting party stands: its position and the quote, simulated over the tables (waitlist-quote.ts). */
export class QueuePlaces {
  constructor(private readonly deps: QueuePlacesDeps) {}

  /** Each queued party's position (1 = oldest) and estimate, simulating the queue over the tables. */
  async of(queue: readonly WaitlistRecord[]): Promise<Map<string, QueuePlace>> {
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
  holds(tables: readonly QuoteTable[]) {
    if (tables.length === 0) return Promise.resolve([]);
    const now = this.deps.now().getTime();
    return this.deps.agenda.holdsInWindow({
      from: new Date(now).toISOString(),
      to: new Date(now + QUOTE_HORIZON_MS).toISOString(),
      tableIds: tables.map((t) => t.id),
    });
  }
}

/** The turn time for a party of `covers` in the tenant's settings. */
export function turnFor(config: TurnTimeConfig): (covers: number) => number {
  return (covers) => turnMinutes(config.turnTimes, covers, config.defaultMealMinutes);
}
