import type { Viewer } from '@coperto/auth';
import { ValidationError } from '@coperto/errors';
import { localDateOf, localDatesBetween, parseLocalDate } from '@coperto/domain';
import type { SubgraphClient } from '@coperto/server-kit';
import type { SlotConfigService } from './slot-config-service.js';
import { CapacityArriviGiornoDocument } from './generated/prenotazione-calls.js';
import type { CategoryService } from './category-service.js';
import {
  countCovers,
  kitchenCoversOf,
  slotsOfDay,
  weekdayOf,
  type Arrivals,
  type CapacitySlot,
} from './slots.js';

/**
 * The longest stay there can be: prenotazione's MAX_DURATION_MINUTES and the longest default meal
 * (MEAL_MINUTES_RANGE) are both 720 minutes. A booking that started longer ago cannot be seated in a slot.
 */
const LONGEST_STAY_MS = 720 * 60_000;

/**
 * The slots of a local day with the covers arriving in each and the covers seated during each. The day and its slots are in the configured zone;
 * prenotazione's days are in the restaurant's zone (RESTAURANT_TIMEZONE), so it is asked for each of its days
 * the slots touch (one, unless the configured zone differs).
 */
export class SlotService {
  constructor(
    private readonly deps: {
      config: SlotConfigService;
      categories: Pick<CategoryService, 'list'>;
      viewer: Viewer;
      subgraphs: SubgraphClient;
      timeZone: string;
    },
  ) {}

  async slots(date: string): Promise<CapacitySlot[]> {
    const day = parseLocalDate(date);
    if (!day) throw new ValidationError([{ field: 'date', message: 'must be a local date YYYY-MM-DD' }]);
    const config = await this.deps.config.get();
    const windows = slotsOfDay(
      day,
      config.openingHours[weekdayOf(day)] ?? [],
      config.slotMinutes,
      config.timeZone,
    );
    const first = windows[0];
    const last = windows.at(-1);
    if (!first || !last) return [];
    // From the longest stay before the first slot: a booking of the evening before may still be seated.
    const arrivals = await this.arrivalsBetween(
      new Date(first.startsAt.getTime() - LONGEST_STAY_MS),
      new Date(last.endsAt.getTime() - 1),
    );
    return countCovers(
      windows,
      arrivals,
      config.maxCoversPerSlot,
      kitchenCoversOf(await this.deps.categories.list()),
    );
  }

  /**
   * The active bookings of prenotazione's local days from `from` to `to`, summed by start and stay (`arriviGiorno`:
   * prenotazione's store sums them, so no booking is read here); a booking is of one local day only.
   */
  private async arrivalsBetween(from: Date, to: Date): Promise<Arrivals[]> {
    const zone = this.deps.timeZone;
    const days = localDatesBetween(localDateOf(from, zone), localDateOf(to, zone));
    const authorization = `Bearer ${this.deps.viewer.token}`;
    const results = await Promise.all(
      days.map((data) =>
        this.deps.subgraphs.request('prenotazione', CapacityArriviGiornoDocument, { data }, authorization),
      ),
    );
    return results.flatMap((r) =>
      r.arriviGiorno.map((a) => ({
        startsAt: new Date(a.startsAt),
        durationMinutes: a.effectiveDurationMinutes,
        covers: a.covers,
        bookings: a.bookings,
      })),
    );
  }
}
