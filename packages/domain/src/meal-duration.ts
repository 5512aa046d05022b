/**
 * How long a table is taken by a meal when nobody said otherwise: the default of a tenant's
 * `defaultMealMinutes` (capacity's slot configuration, which bookings without `durationMinutes` get) and of the
 * availability check's `durataMediaPasto` (tavolo). One figure, so that a fresh tenant's check and guard agree.
 */
export const DEFAULT_MEAL_DURATION_MINUTES = 120;
