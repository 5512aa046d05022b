import { cpus, tmpdir } from 'node:os';
import { mkdtempSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Everything a run can be tuned with, read once from the environment (BENCH_*). */
export interface BenchConfig {
  repoRoot: string;
  benchDir: string;
  /** This run's temporary directory (data dirs, patched supergraph, server stores). */
  tmpDir: string;
  /** Where --cpu-prof writes (bench/profiles, ignored by git through *.cpuprofile). */
  profileDir: string;
  /** Measured rounds per comparison; the median is reported. */
  rounds: number;
  roundSeconds: number;
  warmupSeconds: number;
  /** autocannon connections (closed loop). */
  connections: number;
  /** Duration of scenario 5's mixed load. */
  soakSeconds: number;
  /** Scenario 5's size run: the bookings its own embedded process holds when it is killed, restarted and measured idle. */
  sizeBookings: number;
  /** Scenario 4: the socket counts it runs with (one pair of rows each), and status changes per second. */
  sockets: readonly number[];
  pushRate: number;
  /** Scenario 4: when a timed socket's frame counts as received (push-load.ts, `PushJob.timing`). */
  pushTiming: 'raw' | 'graphql-ws';
  /** Scenario numbers to run (all when empty). */
  only: ReadonlySet<number>;
  /** Names of the processes to start with --cpu-prof (e.g. gateway-embedded, gateway-distributed, tavolo). */
  cpuProf: readonly string[];
  /** BENCH_MONGO_JFR: where mongo-java-server writes a Java Flight Recording (none when null). */
  mongoJfr: string | null;
  cores: number;
}

const int = (name: string, fallback: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer`);
  return value;
};

/** A comma-separated list of positive integers. */
const ints = (name: string, fallback: readonly number[]): readonly number[] => {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const values = raw.split(',').map((s) => Number(s.trim()));
  if (!values.every((v) => Number.isInteger(v) && v > 0))
    throw new Error(`${name} must be positive integers separated by commas`);
  return values;
};

/** BENCH_PUSH_TIMING: `raw` (the default) or `graphql-ws`. */
function pushTiming(raw: string | undefined): 'raw' | 'graphql-ws' {
  const value = raw?.trim() || 'raw';
  if (value !== 'raw' && value !== 'graphql-ws')
    throw new Error('BENCH_PUSH_TIMING must be raw or graphql-ws');
  return value;
}

export function readConfig(): BenchConfig {
  const benchDir = resolve(import.meta.dirname, '..');
  const only = (process.env.BENCH_ONLY ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map(Number);
  return {
    repoRoot: resolve(benchDir, '..'),
    benchDir,
    tmpDir: mkdtempSync(join(tmpdir(), 'coperto-bench-')),
    profileDir: join(benchDir, 'profiles'),
    rounds: int('BENCH_ROUNDS', 3),
    roundSeconds: int('BENCH_ROUND_S', 10),
    warmupSeconds: int('BENCH_WARMUP_S', 3),
    connections: int('BENCH_CONNECTIONS', 20),
    soakSeconds: int('BENCH_SOAK_S', 600),
    sizeBookings: int('BENCH_SIZE_BOOKINGS', 200_000),
    sockets: ints('BENCH_SOCKETS', [100, 1000]),
    pushRate: int('BENCH_PUSH_RATE', 200),
    pushTiming: pushTiming(process.env.BENCH_PUSH_TIMING),
    only: new Set(only),
    cpuProf: (process.env.BENCH_CPU_PROF ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    mongoJfr: process.env.BENCH_MONGO_JFR?.trim() || null,
    cores: cpus().length,
  };
}

export const runs = (config: BenchConfig, scenario: number) =>
  config.only.size === 0 || config.only.has(scenario);
