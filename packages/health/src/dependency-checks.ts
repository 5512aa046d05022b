import { runBounded } from './bounded.js';
import {
  DEPENDENCY_NAMES,
  type DependencyReport,
  type DependencyReports,
  type Dependencies,
  type Probe,
} from './types.js';

/** Plain JSON-able details: a non-object result (or a failure) gives none. */
function asDetails(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? { ...(value as object) } : {};
}

/**
 * Checks one dependency: `ping` and `details` run in parallel, each bounded by `timeoutMs`. The result is up
 * with an integer latency (ms), or down with a safe error text (`timeout after N ms` when it did not answer).
 */
export async function checkDependency(probe: Probe, timeoutMs: number): Promise<DependencyReport> {
  const [ping, details] = await Promise.all([
    runBounded(() => probe.ping(timeoutMs), timeoutMs),
    probe.details ? runBounded(() => probe.details?.() ?? {}, timeoutMs) : Promise.resolve(undefined),
  ]);
  return {
    check: ping.ok
      ? { status: 'up', latency: Math.round(ping.elapsedMs) }
      : { status: 'down', error: ping.error },
    details: details?.ok ? asDetails(details.value) : {},
  };
}

/** Checks every configured dependency in parallel. Unconfigured ones are absent from the result. */
export async function checkDependencies(
  dependencies: Dependencies,
  timeoutMs: number,
): Promise<DependencyReports> {
  const entries = await Promise.all(
    DEPENDENCY_NAMES.flatMap((name) => {
      const probe = dependencies[name];
      return probe ? [checkDependency(probe, timeoutMs).then((report) => [name, report] as const)] : [];
    }),
  );
  return Object.fromEntries(entries);
}
