import { TURN_TIME_MAX_MINUTES, TURN_TIME_MIN_MINUTES } from '@coperto/domain';
import type { TurnRow } from './report.js';

/** Seatings a row needs before its median is proposed (the decisions: at least 20). */
export const MIN_SEATINGS_FOR_SUGGESTION = 20;

export interface TurnSuggestion {
  coperti: number;
  maxCovers: number;
  configuratiMinuti: number;
  configuredMinutes: number;
  suggeritiMinuti: number;
  suggestedMinutes: number;
  sedute: number;
  seatings: number;
  datiSufficienti: boolean;
  enoughData: boolean;
}

/**
 * Per row: the median actual turn when MIN_SEATINGS_FOR_SUGGESTION finished seatings back it (within capacity's
 * bounds of a turn time), else the configured minutes, marked as not enough data.
 */
export function suggestTurnTimes(rows: readonly TurnRow[]): TurnSuggestion[] {
  return rows.map((row) => {
    const enough = row.seatings >= MIN_SEATINGS_FOR_SUGGESTION && row.median !== null;
    const suggested = enough
      ? Math.min(TURN_TIME_MAX_MINUTES, Math.max(TURN_TIME_MIN_MINUTES, row.median!))
      : row.configured;
    return {
      coperti: row.maxCovers,
      maxCovers: row.maxCovers,
      configuratiMinuti: row.configured,
      configuredMinutes: row.configured,
      suggeritiMinuti: suggested,
      suggestedMinutes: suggested,
      sedute: row.seatings,
      seatings: row.seatings,
      datiSufficienti: enough,
      enoughData: enough,
    };
  });
}
