import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mintToken, newTenantId } from '@coperto/testkit';
import { createApi } from './support/http.js';
import { startProcess, type ProcessHandle } from './support/stack.js';

/**
 * kill -9 of the embedded process during a write storm, then start: every acknowledged write is there and the
 * restarted process serves. The real process (gateway/src/index.ts, everything in it, as `pnpm start` runs it)
 * on a DATA_DIR that outlives it, holding 3,000 bookings uploaded through the batch endpoint before the storm
 * (10,000 took 106 s in CI once four subgraphs followed every booking event in the same process; bench scenario 5
 * measures the restart at 10,000 and 200,000).
 * Embedded mode only: this is the embedded store's durability; distributed mode's process kills are the
 * fault suite's (test/properties/faults.e2e.test.ts).
 *
 * The time from spawn to ready is printed, not asserted (speed is measured in bench/, never by a timed test):
 * bench scenario 5 measures it on the compiled build at 10,000 and 200,000 bookings.
 */
const PRELOADED = 3_000;
const BATCH_ITEMS = 500;
const STORM_WRITERS = 16;
/** Acknowledged storm writes to see before the kill. */
const STORM_ACKS = 400;
/** The month every booking of this test is on (its 28 days). */
const MONTH = '2031-02';

const day = (n: number) => `${MONTH}-${String(1 + (n % 28)).padStart(2, '0')}`;

interface Booking {
  id: string;
  notes: string | null;
}

interface Acknowledged {
  inserts: string[];
  /** Booking id → the highest storm sequence number whose PATCH of its notes was acknowledged. */
  updates: Map<string, number>;
}

describe('kill -9 of the embedded process during a write storm (embedded)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'coperto-restart-'));
  const env = { COPERTO_MODE: 'embedded', DATA_DIR: dataDir, RATE_LIMIT_TENANT_RPS: '0' };
  let gateway: ProcessHandle | undefined;
  afterAll(async () => {
    await gateway?.stop('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    `with ${PRELOADED.toLocaleString('en-US')} bookings, starts again with every acknowledged write`,
    {
      timeout: 300_000,
    },
    async () => {
      const token = await mintToken({ tenantId: newTenantId() });
      gateway = await startProcess('gateway-restart', 'gateway/src/index.ts', env);
      const preloaded = await preload(createApi(`http://127.0.0.1:${gateway.port}`), token);
      expect(preloaded).toHaveLength(PRELOADED);

      const acknowledged = await stormThenKill(gateway, token, preloaded);
      expect(gateway.child.signalCode).toBe('SIGKILL');
      expect(acknowledged.inserts.length + acknowledged.updates.size).toBeGreaterThanOrEqual(STORM_ACKS);

      const spawned = performance.now();
      gateway = await startProcess('gateway-restart', 'gateway/src/index.ts', env);
      const readyMs = performance.now() - spawned;
      const api = createApi(`http://127.0.0.1:${gateway.port}`);

      const byId = await readMonth(api, token);
      expect(preloaded.filter((id) => !byId.has(id))).toEqual([]);
      expect(acknowledged.inserts.filter((id) => !byId.has(id))).toEqual([]);
      const stale = [...acknowledged.updates].filter(([id, seq]) => stormSequence(byId.get(id)?.notes) < seq);
      expect(stale).toEqual([]);

      const after = await api('POST', '/api/prenotazioni', {
        token,
        body: { covers: 2, bookingDate: `${day(0)}T21:00`, customerName: 'After the restart' },
      });
      expect(after.status).toBe(201);
      process.stdout.write(
        `embedded process (tsx): ${PRELOADED} bookings, ${acknowledged.inserts.length} inserts and ` +
          `${acknowledged.updates.size} updates acknowledged before kill -9; spawn → ready ${readyMs.toFixed(0)} ms\n`,
      );
    },
  );
});

/** Every booking of MONTH, read a day at a time (a list answers at most 5,000). */
async function readMonth(api: ReturnType<typeof createApi>, token: string): Promise<Map<string, Booking>> {
  const byId = new Map<string, Booking>();
  for (let n = 0; n < 28; n++) {
    const listed = await api<Booking[]>('GET', `/api/prenotazioni?dal=${day(n)}&al=${day(n)}`, { token });
    expect(listed.status).toBe(200);
    for (const booking of listed.body) byId.set(booking.id, booking);
  }
  return byId;
}

/** PRELOADED bookings through the batch endpoint, two batches in flight; returns their ids. */
async function preload(api: ReturnType<typeof createApi>, token: string): Promise<string[]> {
  const batches = Array.from({ length: PRELOADED / BATCH_ITEMS }, (_, b) => b);
  const ids: string[] = [];
  const upload = async (b: number) => {
    const items = Array.from({ length: BATCH_ITEMS }, (_, i) => ({
      covers: 2,
      bookingDate: `${day(i)}T20:00`,
      customerName: `Preloaded ${b}-${i}`,
    }));
    const answer = await api<{ created: number; results: Array<{ id: string }> }>(
      'POST',
      '/api/prenotazioni/batch',
      { token, body: { items } },
    );
    expect(answer.status).toBe(200);
    expect(answer.body.created).toBe(BATCH_ITEMS);
    ids.push(...answer.body.results.map((result) => result.id));
  };
  for (let next = 0; next < batches.length; next += 2) {
    await Promise.all(batches.slice(next, next + 2).map(upload));
  }
  return ids;
}

/**
 * STORM_WRITERS writers, one request in flight each, alternate creating a booking and moving the notes of one
 * of their own preloaded bookings forward (so an acknowledged sequence number can only be overtaken by the same
 * writer's next one); the process is SIGKILLed once STORM_ACKS writes were acknowledged, with writes in flight.
 */
async function stormThenKill(gateway: ProcessHandle, token: string, preloaded: string[]) {
  const api = createApi(`http://127.0.0.1:${gateway.port}`);
  const acknowledged: Acknowledged = { inserts: [], updates: new Map() };
  const died = new Promise<void>((resolve) => gateway.child.once('exit', () => resolve()));
  let killed = false;
  const count = () => acknowledged.inserts.length + acknowledged.updates.size;
  const writer = async (w: number) => {
    for (let seq = 1; !killed; seq++) {
      try {
        if (seq % 2 === 1) {
          const created = await api<{ id: string }>('POST', '/api/prenotazioni', {
            token,
            body: { covers: 2, bookingDate: `${day(seq)}T19:00`, customerName: `Storm ${w}-${seq}` },
          });
          if (created.status === 201) acknowledged.inserts.push(created.body.id);
        } else {
          const id = preloaded[(w + STORM_WRITERS * seq) % preloaded.length]!;
          const moved = await api('PATCH', `/api/prenotazioni/${id}`, {
            token,
            body: { notes: `storm ${seq}` },
          });
          if (moved.status === 200) acknowledged.updates.set(id, seq);
        }
      } catch {
        return; // the connection died with the process: not acknowledged
      }
      if (!killed && count() >= STORM_ACKS) {
        killed = true;
        gateway.child.kill('SIGKILL');
      }
    }
  };
  await Promise.all(Array.from({ length: STORM_WRITERS }, (_, w) => writer(w)));
  await died;
  return acknowledged;
}

/** The sequence number in notes a storm PATCH wrote ("storm 12" → 12); 0 for anything else. */
function stormSequence(notes: string | null | undefined): number {
  const match = /^storm (\d+)$/.exec(notes ?? '');
  return match ? Number(match[1]) : 0;
}
