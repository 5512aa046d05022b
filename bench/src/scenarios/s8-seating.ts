/**
 * 8. Seating simulator: one restaurant (60 tables, combinations, turn times), one evening at three demand levels
 * (60 %, 100 %, 140 % of its seat-minutes), each replayed through the REST API of the embedded service under
 * three booking policies (first-listed, auto-assign, auto-assign with re-seating), on a virtual clock. Figures:
 * covers seated, requests refused, seat-minutes used, double bookings found in the read-back bookings, and the
 * waitlist's quote accuracy for walk-ins. The model: seating/demand.ts and bench/README.md.
 */
import { createApi } from '../api.js';
import { row, type BenchContext } from '../context.js';
import { num, ratio } from '../format.js';
import { log } from '../log.js';
import { freePorts } from '../ports.js';
import { generateDemand } from '../seating/demand.js';
import { toleranceModelFromEnv, type ToleranceModel } from '../seating/guest-flexibility.js';
import { addDays, localInstant } from '../seating/local-time.js';
import { needsSeatingApi, POLICIES, reseatFor, shortenedFor, type PolicyName } from '../seating/policies.js';
import { replayEvening } from '../seating/replay.js';
import { restaurant, seatMinutesAvailable } from '../seating/restaurant.js';
import { failedRun, goalLines, renderSeatingTable, runFigures, type RunFigures } from '../seating/results.js';
import { setUpRestaurant } from '../seating/setup.js';
import { virtualClockClient, virtualClockEnv, virtualClockNodeArgs } from '../seating/virtual-clock.js';
import { startEmbedded } from '../stack-embedded.js';
import { mintToken } from '../tokens.js';

export const SEATING_HEADING = '## Scenario 8: seating simulator';
/** Written by hand from runs over seeds 1–5 (one run has one seed); kept by every run like SEATING_HEADING. */
export const SEATING_TIMES_HEADING = '## Scenario 8: offered times against retrying, seeds 1–5';
export const DEMAND_LEVELS = [0.6, 1, 1.4] as const;
/** BENCH_SEATING_LEVELS (comma-separated percentages, e.g. `100,140`) runs only those levels. */
const levelsFromEnv = (): readonly number[] => {
  const raw = process.env.BENCH_SEATING_LEVELS;
  if (raw === undefined || raw === '') return DEMAND_LEVELS;
  const levels = raw.split(',').map((p) => Number(p) / 100);
  if (levels.some((l) => !DEMAND_LEVELS.includes(l as (typeof DEMAND_LEVELS)[number]))) {
    throw new Error(`BENCH_SEATING_LEVELS: each of ${raw} must be one of 60, 100, 140`);
  }
  return levels;
};
/** BENCH_SEATING_POLICIES (comma-separated names, e.g. `retry,times,times-shortened`) runs only those policies. */
const policiesFromEnv = (): readonly PolicyName[] => {
  const raw = process.env.BENCH_SEATING_POLICIES;
  if (raw === undefined || raw === '') return POLICIES;
  const names = raw.split(',');
  const unknown = names.filter((n) => !(POLICIES as readonly string[]).includes(n));
  if (unknown.length > 0)
    throw new Error(`BENCH_SEATING_POLICIES: ${unknown.join(', ')} not one of ${POLICIES.join(', ')}`);
  return names as PolicyName[];
};
/** The first service evening; each run gets its own evening, RUN_SPACING_DAYS later (the clock never goes back). */
const FIRST_DATE = '2031-01-13';
const RUN_SPACING_DAYS = 21;
/** A run's restaurant is set up this many days before its evening (bookings arrive up to 14 days ahead). */
const SETUP_DAYS_BEFORE = 15;
const TIME_ZONE = 'Europe/Rome';

const seedFromEnv = () => {
  const raw = process.env.BENCH_SEATING_SEED;
  const seed = raw === undefined || raw === '' ? 1 : Number(raw);
  if (!Number.isSafeInteger(seed)) throw new Error('BENCH_SEATING_SEED must be an integer');
  return seed;
};

export async function scenario8(ctx: BenchContext) {
  const seed = seedFromEnv();
  const tolerance = toleranceModelFromEnv();
  const spec = restaurant();
  const available = seatMinutesAvailable(spec);
  const policies = policiesFromEnv();
  const plan = levelsFromEnv().flatMap((level) => policies.map((policy) => ({ level, policy })));
  const dates = plan.map((_, i) => addDays(FIRST_DATE, i * RUN_SPACING_DAYS));
  const startMs = localInstant(dates[0]!, -SETUP_DAYS_BEFORE * 1440 - 60, TIME_ZONE);
  const endMs = localInstant(dates[dates.length - 1]!, 3 * 1440, TIME_ZONE);

  const [clockPort] = (await freePorts(1)) as [number];
  log(`s8: starting the embedded process on a virtual clock (from ${new Date(startMs).toISOString()})`);
  const stack = await startEmbedded(ctx.config, ctx.jwtSecret, {
    name: 'gateway-seating',
    nodeArgs: virtualClockNodeArgs(),
    env: { ...virtualClockEnv(clockPort, startMs), RESTAURANT_TIMEZONE: TIME_ZONE },
  });
  const clock = virtualClockClient(clockPort);
  const validity = { issuedAt: Math.floor(startMs / 1000), expiresAt: Math.ceil(endMs / 1000) };

  const runs: RunFigures[] = [];
  for (const [i, { level, policy }] of plan.entries()) {
    const date = dates[i]!;
    const label = `${Math.round(level * 100)} % / ${policy}`;
    try {
      const began = performance.now();
      await clock.set(localInstant(date, -SETUP_DAYS_BEFORE * 1440, TIME_ZONE));
      const token = await mintToken(ctx.jwtSecret, `bench-s8-${i + 1}`, { admin: true, validity });
      const api = createApi(stack.baseUrl, token);
      const setUp = await setUpRestaurant(api, spec, {
        reseat: reseatFor(policy),
        shortenedMinMinutes: shortenedFor(policy),
      });
      const missing = [setUp.combinationsMissing, setUp.configMissing].filter((m): m is string => m !== null);
      if (missing.length > 0 && needsSeatingApi(policy)) {
        throw new Error(`the service lacks the seating API: ${missing.join('; ')}`);
      }
      const demand = generateDemand(seed + Math.round(level * 1000), level, spec, available, tolerance);
      const diagnose = process.env.BENCH_SEATING_DIAG === '1' ? setUp.seats : undefined;
      const evening = await replayEvening({
        api,
        clock,
        spec,
        demand,
        policy,
        date,
        timeZone: TIME_ZONE,
        diagnose,
        tableNames: new Map([...setUp.tableIds].map(([name, id]) => [id, name])),
      });
      for (const line of evening.diagnostics) log(`s8 diag ${label}: ${line}`);
      const window = {
        start: localInstant(date, spec.open, TIME_ZONE),
        end: localInstant(date, spec.close, TIME_ZONE),
        seatMinutesAvailable: available,
      };
      const notes = missing.map((m) => `run without it: ${m}`);
      const figures = runFigures(level, policy, evening, window, notes);
      runs.push(figures);
      log(
        `s8: ${label}: ${figures.seatedCovers} covers seated, ${figures.refused} of ${figures.requests} refused, ` +
          `${figures.doubleBookings} double bookings (${((performance.now() - began) / 1000).toFixed(0)} s)`,
      );
    } catch (error) {
      const message = (error as Error).message.split('\n')[0]!.slice(0, 300);
      log(`s8: ${label} FAILED: ${(error as Error).stack ?? message}`);
      runs.push(failedRun(level, policy, message));
    }
  }
  await stack.proc.stop();

  addMainRows(ctx, runs);
  ctx.sections.set(SEATING_HEADING, renderSection(seed, spec.tables.length, runs, tolerance));
  ctx.method.push(
    '- **8**: the embedded process runs on a virtual clock (a bench-only `--import` preload fakes `Date` with ' +
      '@sinonjs/fake-timers; timers stay real); the simulator moves it to each event and replays one evening ' +
      'per demand level and policy through the REST API, one call at a time, each run in its own tenant and on ' +
      'its own date; the figures come from reading back every booking of the day. Model and rules: bench/README.md.',
  );
  // Figures and section are kept; a failed run still fails the scenario (the bench then exits 1).
  const failed = runs.filter((r) => r.failed);
  if (failed.length > 0) {
    throw new Error(`${failed.length} of ${runs.length} runs failed; first: ${failed[0]!.failed}`);
  }
}

function addMainRows(ctx: BenchContext, runs: readonly RunFigures[]) {
  const find = (level: number, policy: PolicyName) =>
    runs.find((r) => r.level === level && r.policy === policy);
  for (const level of DEMAND_LEVELS) {
    const base = find(level, 'first-listed');
    const ours = find(level, 'auto-reseat');
    const name = '8 seating simulator';
    if (!base || !ours || base.failed || ours.failed) {
      ctx.rows.push(
        row({
          scenario: name,
          what: `covers seated at ${Math.round(level * 100)} % demand`,
          ours: ours?.failed ? 'FAILED' : num(ours?.seatedCovers ?? NaN),
          baseline: base?.failed ? 'FAILED' : num(base?.seatedCovers ?? NaN),
          ratio: '',
          notes: (ours?.failed ?? base?.failed ?? '').slice(0, 160),
        }),
      );
      continue;
    }
    ctx.rows.push(
      row({
        scenario: name,
        what: `covers seated at ${Math.round(level * 100)} % demand: auto-assign + re-seating vs first-listed`,
        ours: num(ours.seatedCovers),
        baseline: num(base.seatedCovers),
        ratio: ratio(ours.seatedCovers, base.seatedCovers),
        notes: `refused ${ours.refused} vs ${base.refused} of ${ours.requests}`,
      }),
    );
  }
  const measured = runs.filter((r) => !r.failed);
  ctx.rows.push(
    row({
      scenario: '8 seating simulator',
      what: 'double bookings in the read-back bookings (goal 0)',
      ours: num(measured.reduce((sum, r) => sum + r.doubleBookings, 0)),
      baseline: '0',
      ratio: '',
      notes: `${measured.length} of ${runs.length} runs measured; per run in the scenario 8 section`,
    }),
  );
}

function renderSection(
  seed: number,
  tables: number,
  runs: readonly RunFigures[],
  tolerance: ToleranceModel,
): string {
  return [
    SEATING_HEADING,
    '',
    `Seed ${seed} (\`BENCH_SEATING_SEED\`), guests' tolerance \`${tolerance}\` (\`BENCH_SEATING_TOLERANCE\`); ${tables} tables; one evening per run, 18:00–23:00, demand as a ` +
      "share of the evening's seat-minutes. The model, the policies and the walk-away rule: bench/README.md " +
      '("Scenario 8"). "gave up" = reneged after waiting or still waiting at closing time.',
    '',
    renderSeatingTable(runs),
    '',
    ...goalLines(runs),
    '',
  ].join('\n');
}
