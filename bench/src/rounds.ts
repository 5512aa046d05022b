/**
 * A/B comparison in one run: a warm-up of each side, then `rounds` rounds that alternate which side goes first
 * (so drift from other work on the machine hits both), and the median of each figure over the rounds.
 */
import type { BenchConfig } from './config.js';
import type { LoadResult } from './load-types.js';
import { log } from './log.js';
import type { Proc } from './processes.js';
import { median } from './stats.js';

export interface Side {
  label: string;
  run(seconds: number): Promise<LoadResult>;
  /** Runs after each of this side's runs, before the next run starts (instead of the fixed pause). */
  settle?: () => Promise<void>;
  /** Server-side processes whose CPU time per successful request is reported (by process name). */
  processes?: readonly Proc[];
}

export interface Summary {
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  /** Summed over the measured rounds. */
  failures: Record<string, number>;
  errors: number;
  rounds: LoadResult[];
  /** Median over the measured rounds of CPU milliseconds per successful request, by process. */
  cpuMsPerRequest: Record<string, number>;
}

export function summarize(rounds: LoadResult[], cpu: Array<Record<string, number>> = []): Summary {
  const failures: Record<string, number> = {};
  for (const round of rounds) {
    for (const [status, count] of Object.entries(round.failures))
      failures[status] = (failures[status] ?? 0) + count;
  }
  return {
    rps: median(rounds.map((r) => r.rps)),
    p50: median(rounds.map((r) => r.p50)),
    p99: median(rounds.map((r) => r.p99)),
    ok: rounds.reduce((sum, r) => sum + r.ok, 0),
    failures,
    errors: rounds.reduce((sum, r) => sum + r.errors, 0),
    rounds,
    cpuMsPerRequest: Object.fromEntries(
      [...new Set(cpu.flatMap((c) => Object.keys(c)))].map((name) => [
        name,
        median(cpu.map((c) => c[name] ?? NaN)),
      ]),
    ),
  };
}

/** CPU seconds of each process now. */
const cpuNow = (processes: readonly Proc[]) => new Map(processes.map((p) => [p.name, p.cpuSeconds()]));

/**
 * Runs `side` once, then its pause, with the CPU milliseconds its processes spent per successful request over
 * both (the pause lets in-flight work and after-the-fact work such as outbox publishing land in the window).
 */
async function measured(
  side: Side,
  seconds: number,
  pause: (side: Side) => Promise<unknown>,
): Promise<{ result: LoadResult; cpu: Record<string, number> }> {
  const processes = side.processes ?? [];
  const before = cpuNow(processes);
  const result = await side.run(seconds);
  await pause(side);
  const after = cpuNow(processes);
  const cpu: Record<string, number> = {};
  for (const [name, start] of before) {
    const end = after.get(name);
    if (start !== null && end !== null && end !== undefined && result.ok > 0) {
      cpu[name] = ((end - start) * 1000) / result.ok;
    }
  }
  return { result, cpu };
}

const PAUSE_MS = 2000;
const line = (r: LoadResult) =>
  `${r.rps.toFixed(0)} req/s p50 ${r.p50.toFixed(2)} ms p99 ${r.p99.toFixed(2)} ms (${r.ok} ok)` +
  (Object.keys(r.failures).length || r.errors
    ? ` failures ${JSON.stringify(r.failures)} errors ${r.errors}`
    : '');

export async function compare(
  config: BenchConfig,
  tag: string,
  a: Side,
  b: Side,
): Promise<{ a: Summary; b: Summary }> {
  // Between runs, a pause lets the server finish what the last run left in flight.
  const pause = (side: Side) => side.settle?.() ?? new Promise((r) => setTimeout(r, PAUSE_MS));
  for (const side of [a, b]) {
    const warm = await side.run(config.warmupSeconds);
    await pause(side);
    log(`${tag} warm-up ${side.label}: ${line(warm)}`);
  }
  const results = new Map<Side, LoadResult[]>([
    [a, []],
    [b, []],
  ]);
  const cpu = new Map<Side, Array<Record<string, number>>>([
    [a, []],
    [b, []],
  ]);
  for (let round = 0; round < config.rounds; round++) {
    for (const side of round % 2 === 0 ? [a, b] : [b, a]) {
      const run = await measured(side, config.roundSeconds, pause);
      results.get(side)!.push(run.result);
      cpu.get(side)!.push(run.cpu);
      const cpuText = Object.entries(run.cpu)
        .map(([name, ms]) => `${name} ${ms.toFixed(2)}`)
        .join(', ');
      log(
        `${tag} round ${round + 1}/${config.rounds} ${side.label}: ${line(run.result)}${cpuText ? `; CPU ms/req ${cpuText}` : ''}`,
      );
    }
  }
  return { a: summarize(results.get(a)!, cpu.get(a)), b: summarize(results.get(b)!, cpu.get(b)) };
}
