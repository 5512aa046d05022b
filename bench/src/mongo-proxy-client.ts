import { join } from 'node:path';
import type { BenchConfig } from './config.js';
import { freePort } from './ports.js';
import { spawnProcess, type Proc } from './processes.js';

export interface CommandCounts {
  commands: Record<string, number>;
  byCollection: Record<string, number>;
  /** Bytes client → server and server → client. */
  bytes: { toServer: number; fromServer: number };
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
          resolve({ commands: m.commands, byCollection: m.byCollection, bytes: m.bytes });
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

/** Commands that are not the application's work: connection handshakes, heartbeats, health checks. */
export const HOUSEKEEPING = new Set([
  'hello',
  'ismaster',
  'isMaster',
  'ping',
  'endSessions',
  '(legacy OP_QUERY)',
]);

/**
 * Waits until the application's commands (everything but HOUSEKEEPING) fall under `quietPerSecond` over a 1 s
 * window, e.g. until the outbox relays have published the events of a bulk seeding. Returns the seconds waited.
 */
export async function waitForQuiet(
  proxy: MongoProxy,
  quietPerSecond: number,
  timeoutMs: number,
): Promise<number> {
  const began = Date.now();
  for (;;) {
    const a = await proxy.snapshot();
    await new Promise((r) => setTimeout(r, 1000));
    const b = await proxy.snapshot();
    const busy = Object.entries(diffCounts(a.commands, b.commands))
      .filter(([command]) => !HOUSEKEEPING.has(command))
      .reduce((sum, [, n]) => sum + n, 0);
    if (busy < quietPerSecond || Date.now() - began > timeoutMs) return (Date.now() - began) / 1000;
  }
}
