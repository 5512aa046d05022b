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
    testTimeoutMs: timeLimitMs + 60_000,
    torture,
  };
}

/** fast-check parameters: the budget, plus the seed and path to replay when FC_SEED / FC_PATH are set. */
export function runParameters<T>(b: Budget, env: NodeJS.ProcessEnv = process.env): fc.Parameters<T> {
  return {
    numRuns: b.numRuns,
    interruptAfterTimeLimit: b.timeLimitMs,
    endOnFailure: false,
    ...(env.FC_SEED !== undefined ? { seed: Number(env.FC_SEED) } : {}),
    ...(env.FC_PATH !== undefined ? { path: env.FC_PATH } : {}),
  };
}

/**
 * Runs the property and throws fast-check's report (minimal program, seed and path to replay) when it fails.
 * Returns how many programs ran.
 */
export async function assertProperty<T>(
  property: fc.IAsyncProperty<T>,
  params: fc.Parameters<T>,
): Promise<number> {
  const details = await fc.check(property, params);
  if (details.failed) {
    throw new Error(
      `${fc.defaultReportMessage(details)}\n${String((details.errorInstance as Error | undefined)?.message ?? details.errorInstance)}\nReplay: FC_SEED=${details.seed} FC_PATH="${details.counterexamplePath}"`,
    );
  }
  return details.numRuns;
}
