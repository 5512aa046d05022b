/**
 * Scenario 8's model of how far a guest who books ahead bends (bench/README.md, "Scenario 8"): how far from the
 * time he asked for he still takes a table, and how short a shortened seating he still accepts. Drawn once per
 * booking request from its own seeded stream, so the parties themselves (demand.ts) are the same with and without
 * it, and the same guest meets every policy.
 *
 * No published distribution was found of how far from their wished time diners accept a table, so both mixes are
 * modelling assumptions, shaped by what was found:
 * - Susskind (Cornell Hotel and Restaurant Administration Quarterly, 2004; 367 diners queueing at a casual
 *   restaurant): two of three said they could and would change their dining time, for an incentive; so about a
 *   third will not move at all (TOLERANCE_MIX gives 30 % no tolerance), and without an incentive the others move
 *   by minutes rather than hours (nobody moves by more than an hour here).
 * - Cornell Hospitality Quarterly (2019, doi:10.1177/1938965518805685), extending Thompson's table-pooling
 *   reservation models (J. of Revenue and Pricing Management 14, 2015): "many customers have some flexibility in
 *   when they would accept a reservation"; it evaluates a range of such widths (the widest raised revenue over
 *   21 % against rigid timing). The mix spreads the flexible guests over 15, 30 and 60 minutes either side.
 * - Kimes (Cornell Hospitality Report 8(1), 2008; 1,230 frequent diners): respondents questioned the fairness of a
 *   maximum duration at table. SHORTENED_MIX gives 40 % of guests who never take a table with an end time short of
 *   their turn time, and the rest a floor of 75 % or 60 % of it.
 * Sensitivity to these assumptions is reported beside the figures (bench/RESULTS.md, "Scenario 8").
 */
import type { Random } from './random.js';

/** Minutes either side of the asked time a guest still books, with weights (percent). */
export const TOLERANCE_MIX: readonly (readonly [number, number])[] = [
  [0, 30],
  [15, 25],
  [30, 30],
  [60, 15],
];

/**
 * The shortest shortened seating a guest accepts, as a share of his party's turn time, with weights (percent).
 * 1 = never a shortened one (a shortened time is offered only where the full turn time does not fit).
 */
export const SHORTENED_MIX: readonly (readonly [number, number])[] = [
  [1, 40],
  [0.75, 35],
  [0.6, 25],
];

/** How far one guest bends. */
export interface Flexibility {
  /** Minutes either side of the asked time he still books (0: only the asked time). */
  toleranceMinutes: number;
  /** The shortest shortened stay he accepts (minutes); a turn time's worth or more = none. */
  shortestStayMinutes: number;
}

/**
 * Which tolerance a guest has: `mixed` draws it from TOLERANCE_MIX (the default); `issue` is the demand model issue 37
 * states for its own measurement ("parties asking for their preferred time and trying ±15 and ±30 minutes"): every
 * guest bends ±30 minutes. The shortened-seating floor is drawn from SHORTENED_MIX under both, and the stream is
 * consumed the same way, so the parties and their shortened floors are the same under both.
 */
export const TOLERANCE_MODELS = ['mixed', 'issue'] as const;
export type ToleranceModel = (typeof TOLERANCE_MODELS)[number];
export const ISSUE_TOLERANCE_MINUTES = 30;

/** BENCH_SEATING_TOLERANCE (`mixed`, the default, or `issue`). */
export function toleranceModelFromEnv(raw = process.env.BENCH_SEATING_TOLERANCE): ToleranceModel {
  if (raw === undefined || raw === '') return 'mixed';
  if (!(TOLERANCE_MODELS as readonly string[]).includes(raw))
    throw new Error(`BENCH_SEATING_TOLERANCE: ${raw} is not one of ${TOLERANCE_MODELS.join(', ')}`);
  return raw as ToleranceModel;
}

/** One guest's flexibility, for a party whose turn time is `turnMinutes`. */
export function drawFlexibility(
  random: Random,
  turnMinutes: number,
  model: ToleranceModel = 'mixed',
): Flexibility {
  const drawn = random.weighted(TOLERANCE_MIX);
  const share = random.weighted(SHORTENED_MIX);
  const toleranceMinutes = model === 'issue' ? ISSUE_TOLERANCE_MINUTES : drawn;
  return { toleranceMinutes, shortestStayMinutes: Math.ceil(share * turnMinutes) };
}

/** The seed of the flexibility stream of a demand seed: its own sequence, never the parties'. */
export const flexibilitySeed = (seed: number) => (seed ^ 0x9e3779b9) >>> 0;
