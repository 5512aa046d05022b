import type { InputChecks, TurnTime } from '@coperto/domain';
import { MAX_TURN_TIMES, TURN_TIME_MAX_COVERS_RANGE, TURN_TIME_MINUTES_RANGE } from './slot-config-record.js';

/**
 * Adds an issue for every problem of the turn times sent (field paths like `turnTimes.1.maxCovers`): at most
 * MAX_TURN_TIMES rows, maxCovers an integer >= 1 and strictly ascending, minutes 15..720.
 */
export function checkTurnTimes(rows: readonly TurnTime[], checks: InputChecks): void {
  if (rows.length > MAX_TURN_TIMES) checks.add('turnTimes', `must have at most ${MAX_TURN_TIMES} rows`);
  rows.forEach((row, i) => {
    checks
      .intInRange(`turnTimes.${i}.maxCovers`, row.maxCovers, ...TURN_TIME_MAX_COVERS_RANGE)
      .intInRange(`turnTimes.${i}.minutes`, row.minutes, ...TURN_TIME_MINUTES_RANGE);
    const previous = rows[i - 1];
    if (previous && row.maxCovers <= previous.maxCovers) {
      checks.add(
        `turnTimes.${i}.maxCovers`,
        `must be greater than the previous row's maxCovers (${previous.maxCovers}): rows ascend`,
      );
    }
  });
}

/** The rows as stored: only their two fields. */
export function turnTimeRows(rows: readonly TurnTime[]): TurnTime[] {
  return rows.map(({ maxCovers, minutes }) => ({ maxCovers, minutes }));
}
