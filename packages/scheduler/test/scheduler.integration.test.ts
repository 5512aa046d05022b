import fc from 'fast-check';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustedTenantId } from '@coperto/auth';
import { connectMongoStore, type DocumentStore } from '@coperto/store';
import { serverUrls, uniqueName } from '@coperto/testkit';
import { ClaimEndedError, Scheduler, type JobHandler, type JobResult } from '../src/index.js';
import { killable, programs, runProgram } from './support/programs.js';

const tenant = trustedTenantId('t1');
const done: JobResult = { outcome: 'done' };
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

    // "dead" claims a job and never finishes it (its process is gone, cut off from the store as by kill -9, so its
    // lease is not renewed): nobody else takes it until the lease ends.
    await a.schedule({ tenantId: tenant, key: 'orphan', dueAt: new Date(time) });
    let killed = false;
    void make(
      killable(second, () => killed),
      'dead',
      true,
    ).poll();
    await expect.poll(async () => (await a.get(tenant, 'orphan'))?.owner).toBe('dead');
    killed = true;
    expect((await Promise.all([a.poll(), b.poll()])).map((r) => r.claimed)).toEqual([0, 0]);
    time += 30_000;
    const after = await Promise.all([a.poll(), b.poll()]);
    expect(after[0].done + after[1].done).toBe(1);
    const job = (await a.get(tenant, 'orphan'))!;
    expect(job.state).toBe('done');
    expect(job.history.filter((h) => h.event === 'claimed').map((h) => h.owner)[0]).toBe('dead');
  });

  it('a job that outlives its lease keeps it while its owner runs it (renewed): no other instance takes it', async () => {
    let time = Date.parse('2026-06-01T10:00:00.000Z');
    const runs: string[] = [];
    let open = () => {};
    const slowSend = new Promise<void>((resolve) => (open = resolve));
    const make = (store: DocumentStore, owner: string, handler: JobHandler) =>
      new Scheduler({
        store,
        collection: 'jobs_renew',
        owner,
        now: () => new Date(time),
        leaseMs: 30_000,
        renewMs: 20,
        handler,
      });
    // "a" is a reminder sent to a slow SMTP server: it runs for three leases.
    const a = make(first, 'a', async () => {
      runs.push('a');
      await slowSend;
      return { outcome: 'done' };
    });
    const b = make(second, 'b', async () => {
      runs.push('b');
      return { outcome: 'done' };
    });
    await a.init();
    await a.schedule({ tenantId: tenant, key: 'slow', dueAt: new Date(time) });
    const held = a.poll();
    await expect.poll(async () => (await a.get(tenant, 'slow'))?.owner).toBe('a');
    for (let lease = 1; lease <= 3; lease++) {
      time += 30_000;
      // the owner's renewal moves the lease past the clock; only then is the other instance asked
      const renewed = new Date(time + 30_000).toISOString();
      await expect.poll(async () => (await a.get(tenant, 'slow'))?.leaseUntil).toBe(renewed);
      expect((await b.poll()).claimed).toBe(0);
    }
    open();
    expect(await held).toMatchObject({ claimed: 1, done: 1 });
    expect(runs).toEqual(['a']);
    const job = (await a.get(tenant, 'slow'))!;
    expect(job.history.map((h) => `${h.event}:${h.owner}`)).toEqual(['claimed:a', 'done:a']);
  });

  it('a claim that ends while its handler runs (the job moved) aborts the handler’s signal, and is recorded lost', async () => {
    const time = Date.parse('2026-06-01T10:00:00.000Z');
    const seen: string[] = [];
    const a = new Scheduler({
      store: first,
      collection: 'jobs_renew_lost',
      owner: 'a',
      now: () => new Date(time),
      leaseMs: 30_000,
      renewMs: 20,
      handler: async (job) => {
        await new Promise((resolve) => job.signal.addEventListener('abort', resolve));
        const reason: unknown = job.signal.reason;
        seen.push(reason instanceof ClaimEndedError ? reason.why : String(reason));
        return { outcome: 'done' };
      },
    });
    await a.init();
    await a.schedule({ tenantId: tenant, key: 'moved', dueAt: new Date(time) });
    const held = a.poll();
    await expect.poll(async () => (await a.get(tenant, 'moved'))?.owner).toBe('a');
    // another instance re-arms it (the booking moved): the running claim's next renewal finds it gone
    const other = new Scheduler({ store: second, collection: 'jobs_renew_lost', handler: async () => done });
    await other.schedule({ tenantId: tenant, key: 'moved', dueAt: new Date(time + 3_600_000) });
    expect(await held).toMatchObject({ claimed: 1, lost: 1 });
    expect(seen).toEqual(['lost']);
    expect((await a.get(tenant, 'moved'))!).toMatchObject({ state: 'pending', version: 2, owner: null });
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
