import { parseLocalDate } from '@coperto/domain';
import { ValidationError } from '@coperto/errors';
import type { Group } from '@coperto/store';
import type { PrenotazioneStore } from '../bookings/prenotazione-store.js';
import { effectiveMinutes } from '../seating/holds.js';

/** Active bookings of a day that start at one instant and stay as long (schema.graphql's ArriviGiorno). */
export interface Arrivals {
  /** UTC instant, ISO 8601. */
  startsAt: string;
  effectiveDurationMinutes: number;
  /** Their covers, summed. */
  covers: number;
  bookings: number;
}

/**
 * `arriviGiorno`: what capacity's pacing and occupancy count reads of a day (its slots' covers booked to arrive
 * and seated), summed by the store instead of read booking by booking: the count does not grow with the
 * restaurant's bookings beyond the store's own pass over the day's records.
 */
export class DayArrivals {
  constructor(private readonly store: Pick<PrenotazioneStore, 'arrivalsOfDay'>) {}

  async ofDay(data: string): Promise<Arrivals[]> {
    const date = parseLocalDate(data);
    if (!date) throw new ValidationError([{ field: 'data', message: 'must be a date YYYY-MM-DD' }]);
    return arrivalsOf(await this.store.arrivalsOfDay(date));
  }
}

/**
 * The store's groups (by start, stored effective duration and own duration) by start and effective duration
 * (`effectiveMinutes`, the fallbacks of records stored before effective durations were), by start then duration
 * (pure).
 */
export function arrivalsOf(groups: readonly Group[]): Arrivals[] {
  const merged = new Map<string, Arrivals>();
  for (const group of groups) {
    const startsAt = group.key.startsAt as string;
    const minutes = effectiveMinutes({
      effectiveDurationMinutes: (group.key.effectiveDurationMinutes as number | null) ?? undefined,
      durationMinutes: group.key.durationMinutes as number | null,
    });
    const id = `${startsAt}|${minutes}`;
    const known = merged.get(id);
    if (known) {
      known.covers += group.sums.covers ?? 0;
      known.bookings += group.count;
    } else {
      merged.set(id, {
        startsAt,
        effectiveDurationMinutes: minutes,
        covers: group.sums.covers ?? 0,
        bookings: group.count,
      });
    }
  }
  return [...merged.values()].sort(
    (a, b) => a.startsAt.localeCompare(b.startsAt) || a.effectiveDurationMinutes - b.effectiveDurationMinutes,
  );
}
