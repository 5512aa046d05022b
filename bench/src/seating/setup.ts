/**
 * Creates the simulated restaurant in a fresh tenant through the REST API, as an administrator would: rooms,
 * tables (in their standing order, so that lists come back in that order), combinations and the capacity
 * config (turn times, re-seating, slots, shortened seatings). What the running service does not support yet is
 * reported, not hidden: the caller decides whether the policy can run without it.
 */
import { ApiError, type Api } from '../api.js';
import { briefError } from './api-errors.js';
import type { RestaurantSpec, TurnTime } from './restaurant.js';
import { clockOfMinute } from './time-policies.js';

export interface SetUpRestaurant {
  /** Table id by table name. */
  tableIds: Map<string, string>;
  /** Seats by table id. */
  seats: Map<string, number>;
  /** Why combinations could not be created, or null when they were. */
  combinationsMissing: string | null;
  /** Why the turn times / re-seating setting did not take, or null when they did. */
  configMissing: string | null;
}

/** The capacity settings a run varies: re-seating, and shortened seatings (null = never). */
export interface RunSettings {
  reseat: boolean;
  shortenedMinMinutes: number | null;
}

/**
 * The capacity config of the simulated restaurant: its turn times; slots every 15 minutes from opening to the
 * last booking time, every day (the times the availability search may offer); pacing off (a cap of every seat
 * per slot: the simulator models tables, not the kitchen, and a booking is not paced anyway).
 */
export function capacityConfig(spec: RestaurantSpec, settings: RunSettings): Record<string, unknown> {
  const intervals = [{ open: clockOfMinute(spec.open), close: clockOfMinute(spec.lastSeating + 15) }];
  return {
    turnTimes: spec.turnTimes,
    reseat: settings.reseat,
    shortenedMinMinutes: settings.shortenedMinMinutes,
    slotMinutes: 15,
    openingHours: Array.from({ length: 7 }, (_, weekday) => ({ weekday, intervals })),
    maxCoversPerSlot: spec.tables.reduce((sum, t) => sum + t.seats, 0),
  };
}

export async function setUpRestaurant(
  api: Api,
  spec: RestaurantSpec,
  settings: RunSettings,
): Promise<SetUpRestaurant> {
  const roomIds = new Map<string, string>();
  for (const [i, room] of spec.rooms.entries()) {
    const created = await api.call<{ id: string }>('POST', '/api/sale', {
      codice: `R${i + 1}`,
      descrizione: room,
    });
    roomIds.set(room, created.id);
  }
  const tableIds = new Map<string, string>();
  const seats = new Map<string, number>();
  for (const table of spec.tables) {
    const created = await api.call<{ id: string }>('POST', '/api/tavoli', {
      name: table.name,
      seats: table.seats,
      salaId: roomIds.get(table.room),
    });
    tableIds.set(table.name, created.id);
    seats.set(created.id, table.seats);
  }

  let combinationsMissing: string | null = null;
  for (const combination of spec.combinations) {
    try {
      await api.call('POST', '/api/combinazioni', {
        name: combination.name,
        tableIds: combination.tables.map((name) => tableIds.get(name)),
        minCovers: combination.minCovers,
        maxCovers: combination.maxCovers,
      });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      combinationsMissing = briefError(error);
      break;
    }
  }

  let configMissing: string | null = null;
  try {
    await api.call('PUT', '/api/capacity/config', capacityConfig(spec, settings));
    const config = await api.call<{
      turnTimes?: TurnTime[];
      reseat?: unknown;
      shortenedMinMinutes?: unknown;
    }>('GET', '/api/capacity/config');
    const rows = (turnTimes: readonly TurnTime[] | undefined) =>
      (turnTimes ?? []).map((t) => `${t.maxCovers}:${t.minutes}`).join(',');
    if (
      rows(config.turnTimes) !== rows(spec.turnTimes) ||
      config.reseat !== settings.reseat ||
      (config.shortenedMinMinutes ?? null) !== settings.shortenedMinMinutes
    ) {
      configMissing =
        'PUT /api/capacity/config: turnTimes/reseat/shortenedMinMinutes not kept (read back differently)';
    }
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    configMissing = briefError(error);
  }
  return { tableIds, seats, combinationsMissing, configMissing };
}
