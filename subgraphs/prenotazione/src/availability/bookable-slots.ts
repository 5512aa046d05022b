import type { SubgraphClient } from '@coperto/server-kit';
import { PrenotazioneBookableSlotsDocument } from '../generated/capacity-calls.js';
import type { BookableSlot } from './day-search.js';

/**
 * capacity's slots of a local date (its opening hours, slot length and zone) with the covers pacing and the
 * kitchen still take in each (`coversBookable`), asked with the caller's token: one call per search.
 */
export function capacitySlots(subgraphs: SubgraphClient, token: string) {
  return async (date: string): Promise<BookableSlot[]> => {
    const { slots } = await subgraphs.request(
      'capacity',
      PrenotazioneBookableSlotsDocument,
      { date },
      `Bearer ${token}`,
    );
    return slots.map((s) => ({ startsAt: Date.parse(s.startsAt), coversBookable: s.coversBookable }));
  };
}
