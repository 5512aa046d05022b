import { join } from 'node:path';
import type { BenchConfig } from './config.js';
import { freePort } from './ports.js';
import { spawnProcess, type Proc } from './processes.js';

export interface CommandCounts {
  commands: Record<string, number>;
  byCollection: Record<string, number>;
}

export interface MongoProxy {
  proc: Proc;
  url: string;
  snapshot(): Promise<CommandCounts>;
}

/** Starts mongo-proxy.ts as its own process in front of `targetPort`. */
export async function startMongoProxy(config: BenchConfig, targetPort: number): Promise<MongoProxy> {
  const port = await freePort();
  const proc = spawnProcess(
    'mongo-proxy',
    process.execPath,
    ['--import', 'tsx', join(config.benchDir, 'src', 'mongo-proxy.ts'), String(port), String(targetPort)],
    { cwd: config.repoRoot, env: {}, ipc: true },
  );
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`mongo-proxy did not start:\n${proc.output()}`)), 30_000);
    proc.child.on('message', (m: { type?: string }) => {
      if (m.type === 'ready') {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return {
    proc,
    url: `mongodb://127.0.0.1:${port}/?directConnection=true`,
    snapshot: () =>
      new Promise((resolve) => {
        const onMessage = (m: CommandCounts & { type?: string }) => {
          if (m.type !== 'snapshot') return;
          proc.child.off('message', onMessage);
          resolve({ commands: m.commands, byCollection: m.byCollection });
        };
        proc.child.on('message', onMessage);
        proc.child.send({ type: 'snapshot' });
      }),
  };
}

/** Per-command difference `after − before`, without the zero entries. */
export function diffCounts(
  before: Record<string, number>,
  after: Record<string, number>,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, value] of Object.entries(after)) {
    const delta = value - (before[key] ?? 0);
    if (delta !== 0) out[key] = delta;
  }
  return out;
}
