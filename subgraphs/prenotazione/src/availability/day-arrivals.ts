import { createKeptLoads, type KeptLoads } from '@coperto/async';
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

/** How long one process reuses a day's sums at most (a write it was not told of is missed at most this long). */
export const ARRIVALS_KEPT_MS = 60_000;
/** Tenant days whose sums one process keeps (the least recently used is dropped beyond it). */
const ARRIVALS_KEPT_DAYS = 10_000;

/** The day sums one process keeps, shared by its requests (`DayArrivals`' `kept`). */
export function createKeptArrivals(now?: () => number): KeptLoads<Arrivals[]> {
  return createKeptLoads<Arrivals[]>({ ttlMs: ARRIVALS_KEPT_MS, maxKeys: ARRIVALS_KEPT_DAYS, now });
}

/** Where a tenant's day sums are kept: the process's copies, under the version of its bookings' read scope. */
export interface KeptDayArrivals {
  copies: KeptLoads<Arrivals[]>;
  tenantId: string;
  /** The version of the tenant's bookings read scope (READ_SCOPES.bookings), replaced by every booking write. */
  version: () => Promise<string>;
}

/**
 * `arriviGiorno`: what capacity's pacing and occupancy count reads of a day (its slots' covers booked to arrive
 * and seated), summed by the store instead of read booking by booking. With `kept`, the sums of a day are kept in
 * this process under the version of the tenant's bookings read scope, which every booking write replaces before
 * it is answered (PrenotazioneStore's `onWritten`; in the shared cache, Redis in distributed mode, so a write
 * through any prenotazione process is seen by all): each count asks the version first (one cache get) and reuses
 * sums loaded under it, so a booking written is in the next count, and a day nobody books meanwhile is summed
 * once. At most ARRIVALS_KEPT_MS in any case (a version the cache lost while it could not be reached).
 */
export class DayArrivals {
  constructor(
    private readonly store: Pick<PrenotazioneStore, 'arrivalsOfDay'>,
    private readonly kept: KeptDayArrivals | null = null,
  ) {}

  async ofDay(data: string): Promise<Arrivals[]> {
    const date = parseLocalDate(data);
    if (!date) throw new ValidationError([{ field: 'data', message: 'must be a date YYYY-MM-DD' }]);
    const load = async () => arrivalsOf(await this.store.arrivalsOfDay(date));
    if (!this.kept) return load();
    // The version is read before the sums: sums loaded after it hold every write answered before it was replaced.
    const version = await this.kept.version();
    return this.kept.copies.get(`${this.kept.tenantId}\u0000${date}\u0000${version}`, load);
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
