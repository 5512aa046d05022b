import { join } from 'node:path';
import type { BenchConfig } from './config.js';
import type { HttpJob, Job, LoadResult, MongoInsertJob, PushJob, PushResult } from './load-types.js';
import { spawnProcess, type Proc } from './processes.js';

/** The load generator: one long-lived child process (load-worker.ts) that runs autocannon and friends. */
export interface LoadGenerator {
  proc: Proc;
  http(job: Omit<HttpJob, 'kind'>): Promise<LoadResult>;
  mongoInserts(job: Omit<MongoInsertJob, 'kind'>): Promise<LoadResult>;
  push(job: Omit<PushJob, 'kind'>): Promise<PushResult>;
}

const NUMERIC = new Set(['rps', 'p50', 'p99', 'mean', 'putP50', 'putP99', 'pushP50', 'pushP99', 'rate']);

/** NaN (no sample) crosses IPC as null: turn it back into NaN. */
function revive(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(revive);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, v === null && NUMERIC.has(k) ? Number.NaN : revive(v)]),
  );
}

export async function startLoadGenerator(config: BenchConfig): Promise<LoadGenerator> {
  const proc = spawnProcess(
    'load-worker',
    process.execPath,
    ['--import', 'tsx', join(config.benchDir, 'src', 'load-worker.ts')],
    { cwd: config.repoRoot, env: {}, ipc: true },
  );
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`load worker did not start:\n${proc.output()}`)), 30_000);
    proc.child.on('message', (m: { ready?: boolean; id?: number; result?: unknown; error?: string }) => {
      if (m.ready) {
        clearTimeout(timer);
        resolve();
        return;
      }
      const entry = m.id === undefined ? undefined : waiting.get(m.id);
      if (!entry) return;
      waiting.delete(m.id!);
      if (m.error !== undefined) entry.reject(new Error(`load worker: ${m.error}`));
      else entry.resolve(revive(m.result));
    });
    proc.child.once('exit', () => {
      for (const entry of waiting.values()) entry.reject(new Error(`load worker exited:\n${proc.output()}`));
      waiting.clear();
    });
  });
  const run = <T>(job: Job) =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      proc.child.send({ id, job });
    });
  return {
    proc,
    http: (job) => run<LoadResult>({ kind: 'http', ...job }),
    mongoInserts: (job) => run<LoadResult>({ kind: 'mongo-insert', ...job }),
    push: (job) => run<PushResult>({ kind: 'push', ...job }),
  };
}
