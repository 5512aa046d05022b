import { trustedTenantId } from '@coperto/auth';
import { describe, expect, it } from 'vitest';
import { openEmbeddedStore } from '../src/index.js';
import type { Booking } from './fixtures/booking.js';
import { startFixture, temporaryDirectories } from './support/child-process.js';

const newDirectory = temporaryDirectories();

/**
 * kill -9 during a write storm, then start: the store is ready in under 2 s and every acknowledged write is
 * there. 10,000 bookings here; `STORE_CRASH_BOOKINGS=200000 pnpm exec vitest run
 * packages/store/test/embedded-crash.test.ts` for the size run (docs/architecture.md has the figures).
 */
const BOOKINGS = Number(process.env.STORE_CRASH_BOOKINGS ?? 10_000);
/** Acknowledged storm writes to see before the kill. */
const STORM_ACKS = 500;

describe('embedded store: kill -9 during a write storm', () => {
  it(
    `with ${BOOKINGS} bookings, opens in under 2 s with every acknowledged write`,
    { timeout: Math.max(120_000, BOOKINGS * 3) },
    async () => {
      const directory = await newDirectory();
      const { acknowledged, signal } = await stormThenKill(directory);
      expect(signal).toBe('SIGKILL');
      expect(acknowledged.inserts.length + acknowledged.updates.size).toBeGreaterThanOrEqual(STORM_ACKS);

      const started = performance.now();
      const store = await openEmbeddedStore({ directory });
      const bookings = store.forTenant(trustedTenantId('storm')).collection<Booking>('bookings');
      await bookings.findById('b0');
      const readyMs = performance.now() - started;
      try {
        expect(readyMs).toBeLessThan(2000);
        const inserted = await bookings.findByIds(acknowledged.inserts);
        expect(inserted.map((booking) => booking.id).sort()).toEqual([...acknowledged.inserts].sort());
        const updated = await bookings.findByIds([...acknowledged.updates.keys()]);
        expect(updated).toHaveLength(acknowledged.updates.size);
        for (const booking of updated) {
          expect(booking.version).toBeGreaterThanOrEqual(acknowledged.updates.get(booking.id)!);
        }
        expect(await bookings.count()).toBeGreaterThanOrEqual(BOOKINGS + acknowledged.inserts.length);
        process.stdout.write(
          `embedded store: ${BOOKINGS} bookings, ready ${readyMs.toFixed(0)} ms after kill -9\n`,
        );
      } finally {
        await store.close();
      }
    },
  );
});

/** Runs the write-storm fixture and SIGKILLs it once STORM_ACKS storm writes were acknowledged. */
function stormThenKill(directory: string): Promise<{
  signal: NodeJS.Signals | null;
  acknowledged: { inserts: string[]; updates: Map<string, number> };
}> {
  const child = startFixture('write-storm.ts', [directory, String(BOOKINGS)]);
  const inserts: string[] = [];
  const updates = new Map<string, number>();
  let stderr = '';
  let buffered = '';
  let storming = false;
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const line of lines) {
      const [kind, id, version] = line.split(' ');
      if (kind === 'filled') storming = true;
      if (kind === 'insert') inserts.push(id!);
      if (kind === 'update') updates.set(id!, Math.max(updates.get(id!) ?? 0, Number(version)));
    }
    if (storming && inserts.length + updates.size >= STORM_ACKS) child.kill('SIGKILL');
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (_code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`write-storm ended without being killed: ${stderr}`));
      else resolve({ signal, acknowledged: { inserts, updates } });
    });
  });
}
