import { DEFAULT_MEAL_DURATION_MINUTES } from './meal-duration.js';

/**
 * The booking states that hold a table and take capacity: what the double-booking guard, the availability check
 * and capacity's slot counts all mean by "active". Declared once here.
 */
export const ACTIVE_BOOKING_STATES = ['pending', 'confermata', 'caparra_pagata'] as const;
export type ActiveBookingState = (typeof ACTIVE_BOOKING_STATES)[number];

const ACTIVE = new Set<string>(ACTIVE_BOOKING_STATES);

/** Whether a booking in `state` holds its tables and takes capacity. */
export function isActiveBookingState(state: string): state is ActiveBookingState {
  return ACTIVE.has(state);
}

/** One row of a tenant's turn times: parties of up to `maxCovers` stay `minutes`. */
export interface TurnTime {
  maxCovers: number;
  minutes: number;
}

/** Bounds of a turn time row's minutes (capacity's configuration validates against them). */
export const TURN_TIME_MIN_MINUTES = 15;
export const TURN_TIME_MAX_MINUTES = 720;

/**
 * How long a party of `covers` keeps its table: the first row (ascending maxCovers) whose maxCovers >= covers;
 * beyond the last row, the last row's minutes; no rows, the tenant's default meal duration.
 */
export function turnMinutes(
  turnTimes: readonly TurnTime[] | null | undefined,
  covers: number,
  defaultMealMinutes: number = DEFAULT_MEAL_DURATION_MINUTES,
): number {
  if (!turnTimes || turnTimes.length === 0) return defaultMealMinutes;
  const row = turnTimes.find((t) => t.maxCovers >= covers);
  return (row ?? turnTimes[turnTimes.length - 1]!).minutes;
}
