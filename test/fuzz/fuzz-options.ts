/**
 * The fuzz budget and replay settings, from the environment of the test run:
 *   FUZZ_RUNS  generated requests per mode (default 300: the budget of the normal `pnpm test`)
 *   FC_SEED    replay a failing run's seed (printed by fast-check on failure)
 *   FC_PATH    with FC_SEED, replay only the shrunk counterexample's path
 */
export interface FuzzOptions {
  numRuns: number;
  seed?: number;
  path?: string;
}

export const DEFAULT_FUZZ_RUNS = 300;

export function fuzzOptions(env: NodeJS.ProcessEnv = process.env): FuzzOptions {
  const runs = Number(env.FUZZ_RUNS ?? DEFAULT_FUZZ_RUNS);
  if (!Number.isInteger(runs) || runs <= 0)
    throw new Error(`FUZZ_RUNS must be a positive integer, not ${env.FUZZ_RUNS}`);
  const seed = env.FC_SEED === undefined || env.FC_SEED === '' ? undefined : Number(env.FC_SEED);
  if (seed !== undefined && !Number.isInteger(seed))
    throw new Error(`FC_SEED must be an integer, not ${env.FC_SEED}`);
  return {
    numRuns: runs,
    ...(seed === undefined ? {} : { seed }),
    ...(env.FC_PATH ? { path: env.FC_PATH } : {}),
  };
}

/**
 * The test's own timeout for a run of `runs` requests: a minute for the liveness probes and shrinking, plus
 * 100 ms a request (about 35 ms each here in embedded mode, 2 cores), so `pnpm test:fuzz` is not cut off by
 * the e2e project's 90 s default.
 */
export const fuzzTimeoutMs = (runs: number): number => 60_000 + runs * 100;
