/**
 * The test's side of the virtual clock (virtual-clock-preload.mjs runs in the service processes the test starts):
 * the environment that installs it in each of them, the test's reading of their shared time, and moving it forward
 * in every one of them at once. Test-only: nothing of this is in the product.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PRELOAD = fileURLToPath(new URL('./virtual-clock-preload.mjs', import.meta.url));

export interface VirtualClock {
  /** The environment of a process that runs on this clock (NODE_OPTIONS imports the preload). */
  readonly env: Record<string, string>;
  /** The processes' time now (ms since the epoch): the real clock plus the offset they were all given. */
  now(): number;
  /** How far ahead of the real clock it is. */
  offsetMs(): number;
  /**
   * Moves every running process's clock `ms` forward (resolves once each has it). A process that is gone (its
   * socket refuses) has no clock to move.
   */
  advance(ms: number): Promise<void>;
  /** Removes the sockets' directory (after the processes stopped). */
  close(): void;
}

function putOffset(socketPath: string, offsetMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ offsetMs });
    const req = request(
      { socketPath, path: '/offset', method: 'PUT', headers: { 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () =>
          res.statusCode === 204
            ? resolve()
            : reject(new Error(`virtual clock ${socketPath}: ${res.statusCode} ${text}`)),
        );
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error(`virtual clock ${socketPath}: no answer`)));
    req.on('error', (error: NodeJS.ErrnoException) =>
      ['ECONNREFUSED', 'ENOENT'].includes(error.code ?? '') ? resolve() : reject(error),
    );
    req.end(body);
  });
}

export function createVirtualClock(): VirtualClock {
  const dir = mkdtempSync(join(tmpdir(), 'coperto-clock-'));
  let offset = 0;
  return {
    env: { NODE_OPTIONS: `--import "${PRELOAD}"`, VIRTUAL_CLOCK_DIR: dir },
    now: () => Date.now() + offset,
    offsetMs: () => offset,
    async advance(ms) {
      if (!Number.isSafeInteger(ms) || ms < 0) throw new RangeError(`advance by ${ms} ms: never back`);
      const next = offset + ms;
      const sockets = readdirSync(dir).filter((name) => name.endsWith('.sock'));
      await Promise.all(sockets.map((name) => putOffset(join(dir, name), next)));
      offset = next;
    },
    close: () => rmSync(dir, { recursive: true, force: true }),
  };
}
