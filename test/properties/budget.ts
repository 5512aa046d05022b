/**
 * How long the generated suites run. In the normal `pnpm test` a bounded budget with fresh seeds; under
 * `pnpm test:torture` (TORTURE_MINUTES) as long as asked. `FC_SEED` (and `FC_PATH`) replay a reported failure.
 */
import fc from 'fast-check';

export interface Budget {
  /** Time for generating and running programs, shrinking included (ms). */
  timeLimitMs: number;
  numRuns: number;
  /** The vitest timeout of the test that runs them: the budget plus room to shrink, judge and stop. */
  testTimeoutMs: number;
  torture: boolean;
}

export function budget(env: NodeJS.ProcessEnv = process.env, defaultMs = 25_000): Budget {
  const torture = env.TORTURE === '1';
  const minutes = Number(env.TORTURE_MINUTES ?? 20);
  if (torture && !(Number.isFinite(minutes) && minutes > 0)) {
    throw new Error(`TORTURE_MINUTES must be a positive number of minutes, not ${env.TORTURE_MINUTES}`);
  }
  const timeLimitMs = torture ? minutes * 60_000 : Number(env.PROPS_BUDGET_MS ?? defaultMs);
  return {
    timeLimitMs,
    numRuns: torture ? 1_000_000 : Number(env.PROPS_NUM_RUNS ?? 1000),
    // The budget, one program that started just before it ended, and shrinking a failure.
    testTimeoutMs: timeLimitMs + 120_000 + SHRINK_LIMIT_MS,
    torture,
  };
}

/** How long shrinking a failure may take before the best program so far is reported (replay resumes it). */
export const SHRINK_LIMIT_MS = 90_000;

/**
 * fast-check parameters of one run: the seed and path to replay when FC_SEED / FC_PATH are set, and a bound on
 * shrinking. (No `interruptAfterTimeLimit`: it abandons a run in flight, which would leave a fault unhealed while
 * the next program starts.)
 */
export function runParameters<T>(env: NodeJS.ProcessEnv = process.env): fc.Parameters<T> {
  return {
    numRuns: 1,
    endOnFailure: false,
    skipAllAfterTimeLimit: SHRINK_LIMIT_MS,
    ...(env.FC_SEED !== undefined ? { seed: Number(env.FC_SEED) } : {}),
    ...(env.FC_PATH !== undefined ? { path: env.FC_PATH } : {}),
  };
}

/**
 * Runs the property on fresh programs until the budget is spent (a program under way always finishes), or once
 * with FC_SEED / FC_PATH. Throws fast-check's report (minimal program, seed and path to replay) on a failure.
 * Returns how many programs ran.
 */
export async function assertProperty<T>(
  property: fc.IAsyncProperty<T>,
  plan: Budget,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const deadline = Date.now() + plan.timeLimitMs;
  const replay = env.FC_SEED !== undefined;
  let runs = 0;
  do {
    const details = await fc.check(property, runParameters<T>(env));
    runs += details.numRuns;
    if (details.failed) {
      throw new Error(
        `${fc.defaultReportMessage(details)}\n${String((details.errorInstance as Error | undefined)?.message ?? details.errorInstance)}\nReplay: FC_SEED=${details.seed} FC_PATH="${details.counterexamplePath}"`,
      );
    }
  } while (!replay && runs < plan.numRuns && Date.now() < deadline);
  return runs;
}
