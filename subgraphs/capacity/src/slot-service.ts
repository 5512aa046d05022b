import type { Viewer } from '@coperto/auth';
import { ValidationError } from '@coperto/errors';
import { localDateOf, localDatesBetween, parseLocalDate } from '@coperto/domain';
import type { SubgraphClient } from '@coperto/server-kit';
import type { SlotConfigService } from './slot-config-service.js';
import { CapacityPrenotazioniGiornoDocument } from './generated/prenotazione-calls.js';
import type { CategoryService } from './category-service.js';
import {
  countCovers,
  kitchenCoversOf,
  slotsOfDay,
  weekdayOf,
  type ArrivingBooking,
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
    const bookings = await this.bookingsBetween(
      new Date(first.startsAt.getTime() - LONGEST_STAY_MS),
      new Date(last.endsAt.getTime() - 1),
    );
    return countCovers(
      windows,
      bookings,
      config.maxCoversPerSlot,
      config.defaultMealMinutes,
      config.turnTimes,
      kitchenCoversOf(await this.deps.categories.list()),
    );
  }

  private async bookingsBetween(from: Date, to: Date): Promise<ArrivingBooking[]> {
    const zone = this.deps.timeZone;
    const days = localDatesBetween(localDateOf(from, zone), localDateOf(to, zone));
    const authorization = `Bearer ${this.deps.viewer.token}`;
    const results = await Promise.all(
      days.map((data) =>
        this.deps.subgraphs.request(
          'prenotazione',
          CapacityPrenotazioniGiornoDocument,
          { data },
          authorization,
        ),
      ),
    );
    const byId = new Map<string, ArrivingBooking>();
    for (const booking of results.flatMap((r) => r.prenotazioniGiorno)) {
      byId.set(booking.id, {
        id: booking.id,
        covers: booking.covers,
        state: booking.state,
        startsAt: new Date(booking.startsAt),
        durationMinutes: booking.effectiveDurationMinutes,
      });
    }
    return [...byId.values()];
  }
}
