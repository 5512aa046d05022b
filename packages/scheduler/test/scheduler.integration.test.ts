import fc from 'fast-check';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustedTenantId } from '@coperto/auth';
import { connectMongoStore, type DocumentStore } from '@coperto/store';
import { serverUrls, uniqueName } from '@coperto/testkit';
import { Scheduler, type JobResult } from '../src/index.js';
import { programs, runProgram } from './support/programs.js';

const tenant = trustedTenantId('t1');
let first: DocumentStore;
let second: DocumentStore;
const database = uniqueName('scheduler');

beforeAll(async () => {
  // Two connections, as two processes would have.
  first = await connectMongoStore({ url: serverUrls().mongoUrl, database });
  second = await connectMongoStore({ url: serverUrls().mongoUrl, database });
});
afterAll(async () => {
  await Promise.all([first.close(), second.close()]);
});

describe('Scheduler on MongoDB', () => {
  it('drops the jobs index earlier versions made (tenant_key) on start, and starts again with nothing to drop', async () => {
    const collection = 'jobs_legacy';
    // What an earlier version left on an existing job collection.
    await first.ensureIndexes(collection, [{ name: 'tenant_key', fields: { tenant: 1, key: 1 } }]);
    const client = await MongoClient.connect(serverUrls().mongoUrl);
    try {
      const indexNames = async () =>
        (await client.db(database).collection(collection).indexes()).map((index) => index.name);
      expect(await indexNames()).toContain('tenant_key');
      const make = (store: DocumentStore, owner: string) =>
        new Scheduler({ store, collection, owner, handler: async () => ({ outcome: 'done' }) });

      await make(first, 'a').init();
      expect(await indexNames()).not.toContain('tenant_key');
      expect(await indexNames()).toEqual(expect.arrayContaining(['due', 'key']));
      // Another instance starting (and this one again): nothing left to drop, no error.
      await Promise.all([make(second, 'b').init(), make(first, 'a').init()]);
      expect(await indexNames()).not.toContain('tenant_key');
      expect(await indexNames()).toEqual(expect.arrayContaining(['due', 'key']));
    } finally {
      await client.close();
    }
  });

  it('two instances racing for a batch run each job once; a dead owner’s job is retaken after its lease', async () => {
    let time = Date.parse('2026-06-01T10:00:00.000Z');
    const runs = new Map<string, string[]>();
    const make = (store: DocumentStore, owner: string, hang = false) =>
      new Scheduler({
        store,
        collection: 'jobs_race',
        owner,
        now: () => new Date(time),
        leaseMs: 30_000,
        batchSize: 50,
        handler: async (job) => {
          runs.set(job.key, [...(runs.get(job.key) ?? []), owner]);
          return hang ? new Promise<JobResult>(() => {}) : { outcome: 'done' };
        },
      });
    const a = make(first, 'a');
    const b = make(second, 'b');
    await a.init();
    for (let i = 0; i < 40; i++)
      await a.schedule({ tenantId: tenant, key: `k${i}`, dueAt: new Date(time - i * 1000) });
    const [ra, rb] = await Promise.all([a.poll(), b.poll()]);
    expect(ra.done + rb.done).toBe(40);
    expect([...runs.values()].every((owners) => owners.length === 1)).toBe(true);

    // "dead" claims a job and never finishes it (its process is gone): nobody else takes it until the lease ends.
    await a.schedule({ tenantId: tenant, key: 'orphan', dueAt: new Date(time) });
    void make(second, 'dead', true).poll();
    await expect.poll(async () => (await a.get(tenant, 'orphan'))?.owner).toBe('dead');
    expect((await Promise.all([a.poll(), b.poll()])).map((r) => r.claimed)).toEqual([0, 0]);
    time += 30_000;
    const after = await Promise.all([a.poll(), b.poll()]);
    expect(after[0].done + after[1].done).toBe(1);
    const job = (await a.get(tenant, 'orphan'))!;
    expect(job.state).toBe('done');
    expect(job.history.filter((h) => h.event === 'claimed').map((h) => h.owner)[0]).toBe('dead');
  });

  it('every due job is done exactly once in effect, over generated programs (two connections)', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(programs, async (steps) => {
        await runProgram([first, second], `jobs_p${++n}`, steps);
      }),
      { numRuns: 40, interruptAfterTimeLimit: 8_000 },
    );
  });
});
