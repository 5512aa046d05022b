import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustedTenantId } from '@coperto/auth';
import { openEmbeddedStore, type DocumentStore } from '@coperto/store';
import {
  ClaimEndedError,
  SCHEDULER_PARTITION,
  Scheduler,
  type JobHandler,
  type JobResult,
} from '../src/index.js';
import { killable, programs, runProgram } from './support/programs.js';

const tenant = trustedTenantId('t1');
let store: DocumentStore;
let directory: string;
let collections = 0;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'scheduler-'));
  store = await openEmbeddedStore({ directory, fsync: false });
});
afterAll(async () => {
  await store.close();
  rmSync(directory, { recursive: true, force: true });
});

function setup(handler: JobHandler, options: { leaseMs?: number } = {}) {
  let time = Date.parse('2026-06-01T10:00:00.000Z');
  const collection = `jobs_${++collections}`;
  const make = (owner: string, h = handler, on: DocumentStore = store) =>
    new Scheduler({
      store: on,
      collection,
      handler: h,
      owner,
      now: () => new Date(time),
      leaseMs: options.leaseMs ?? 30_000,
      retryBaseMs: 1000,
      maxAttempts: 3,
    });
  return {
    a: make('a'),
    make,
    at: (ms: number) => new Date(time + ms).toISOString(),
    advance: (ms: number) => void (time += ms),
  };
}

const done = (): Promise<JobResult> => Promise.resolve({ outcome: 'done' });

describe('Scheduler', () => {
  it('runs a job once when due, not before, and keeps it done', async () => {
    const seen: string[] = [];
    const { a, at, advance } = setup(async (job) => {
      seen.push(`${job.key}@${job.dueAt}#${job.attempt}`);
      return done();
    });
    await a.init();
    await a.schedule({ tenantId: tenant, key: 'b1/24', dueAt: at(60_000), payload: { booking: 'b1' } });
    expect((await a.poll()).claimed).toBe(0);
    advance(60_000);
    expect(await a.poll()).toMatchObject({ claimed: 1, done: 1 });
    expect(await a.poll()).toMatchObject({ claimed: 0 });
    expect(seen).toEqual([`b1/24@${at(0)}#1`]);
    const job = (await a.get(tenant, 'b1/24'))!;
    expect(job).toMatchObject({ state: 'done', outcome: 'done', owner: null, attempts: 1 });
    expect(job.history.map((h) => h.event)).toEqual(['claimed', 'done']);
    // the same schedule again changes nothing: it is not run twice
    await a.schedule({ tenantId: tenant, key: 'b1/24', dueAt: at(0), payload: { booking: 'b1' } });
    expect((await a.poll()).claimed).toBe(0);
  });

  it('reschedules (a new version and effect id) and cancels by key', async () => {
    const effects: string[] = [];
    const { a, at, advance } = setup(async (job) => {
      effects.push(job.effectId);
      return done();
    });
    await a.schedule({ tenantId: tenant, key: 'k', dueAt: at(1000) });
    const moved = await a.schedule({ tenantId: tenant, key: 'k', dueAt: at(5000) });
    expect(moved.version).toBe(2);
    advance(1000);
    expect((await a.poll()).claimed).toBe(0);
    advance(4000);
    await a.poll();
    // a done job scheduled at another time runs again, with another effect id
    await a.schedule({ tenantId: tenant, key: 'k', dueAt: at(-1000) });
    await a.poll();
    expect(effects).toHaveLength(2);
    expect(effects[0]).not.toBe(effects[1]);

    await a.schedule({ tenantId: tenant, key: 'gone', dueAt: at(10) });
    expect(await a.cancel(tenant, 'gone')).toBe(true);
    expect(await a.cancel(tenant, 'gone')).toBe(false);
    advance(20);
    expect((await a.poll()).claimed).toBe(0);
    expect((await a.get(tenant, 'gone'))!.state).toBe('cancelled');
  });

  it('keeps tenants apart and lists a tenant’s keys by prefix', async () => {
    const { a, at } = setup(done);
    await a.schedule({ tenantId: tenant, key: 'b1/24', dueAt: at(10) });
    await a.schedule({ tenantId: tenant, key: 'b1/2', dueAt: at(10) });
    await a.schedule({ tenantId: tenant, key: 'b10/2', dueAt: at(10) });
    await a.schedule({ tenantId: trustedTenantId('t2'), key: 'b1/24', dueAt: at(10) });
    // A tenant whose id starts with this one's (t1, t10): list matches the tenant through the job id.
    await a.schedule({ tenantId: trustedTenantId('t10'), key: 'b1/2', dueAt: at(10) });
    expect((await a.list(tenant, 'b1/')).map((j) => j.key)).toEqual(['b1/2', 'b1/24']);
    expect((await a.list(trustedTenantId('t10'), 'b1/')).map((j) => j.tenant)).toEqual(['t10']);
    expect(await a.get(trustedTenantId('t3'), 'b1/24')).toBeNull();
    const many = await a.getMany(tenant, ['b1/24', 'b10/2', 'missing']);
    expect(many.map((j) => `${j.tenant}:${j.key}`).sort()).toEqual(['t1:b1/24', 't1:b10/2']);
    // jobs live in the scheduler's partition, which no tenant id can name
    expect(await store.forTenant(tenant).collection('jobs_3').count()).toBe(0);
    expect(await store.forTenant(SCHEDULER_PARTITION).collection('jobs_3').count()).toBe(5);
  });

  it('retries a failing handler with growing waits, then marks it failed', async () => {
    const { a, at, advance } = setup(() => Promise.reject(new Error('smtp down')));
    await a.schedule({ tenantId: tenant, key: 'k', dueAt: at(0) });
    expect(await a.poll()).toMatchObject({ failed: 1 });
    let job = (await a.get(tenant, 'k'))!;
    expect(job).toMatchObject({ state: 'pending', lastError: 'smtp down', leaseUntil: at(1000) });
    expect((await a.poll()).claimed).toBe(0);
    advance(1000);
    await a.poll();
    expect((await a.get(tenant, 'k'))!.leaseUntil).toBe(at(2000));
    advance(2000);
    await a.poll();
    job = (await a.get(tenant, 'k'))!;
    expect(job).toMatchObject({ state: 'failed', attempts: 3 });
    expect(job.history.map((h) => h.event)).toEqual([
      'claimed',
      'error',
      'claimed',
      'error',
      'claimed',
      'error',
    ]);
  });

  it('a job cancelled or moved while its handler runs is not marked done by that claim (history: lost)', async () => {
    let release!: () => void;
    const { a, at } = setup(
      () => new Promise<JobResult>((resolve) => (release = () => resolve({ outcome: 'done' }))),
    );
    await a.schedule({ tenantId: tenant, key: 'k', dueAt: at(0) });
    const running = a.poll();
    await expect.poll(() => release).toBeDefined();
    await a.schedule({ tenantId: tenant, key: 'k', dueAt: at(60_000) });
    release();
    expect(await running).toMatchObject({ lost: 1 });
    const job = (await a.get(tenant, 'k'))!;
    expect(job).toMatchObject({ state: 'pending', version: 2, dueAt: at(60_000) });
    expect(job.history.map((h) => `${h.event}:${h.version}`)).toEqual(['claimed:1', 'lost:1']);
  });

  it('stores the events a handler returns with the done mark, in the outbox', async () => {
    const { a, at } = setup(async (job) => ({
      outcome: 'done',
      events: [
        { id: job.effectId, subject: 'tenant.t1.restaurant.reminders.due', body: { id: job.effectId } },
      ],
    }));
    await a.schedule({ tenantId: tenant, key: 'k', dueAt: at(0) });
    await a.poll();
    const pending = await store.outbox(['jobs_6']).claimPending(10, 1000);
    expect(pending.map((p) => p.messages.map((m) => m.subject))).toEqual([
      ['tenant.t1.restaurant.reminders.due'],
    ]);
  });

  it('a handler that runs past maxRunMs stops being renewed and is told so (overran); the job is then retaken', async () => {
    let time = Date.parse('2026-06-01T10:00:00.000Z');
    const collection = `jobs_${++collections}`;
    const reasons: string[] = [];
    const make = (owner: string, handler: JobHandler) =>
      new Scheduler({
        store,
        collection,
        owner,
        handler,
        now: () => new Date(time),
        leaseMs: 30_000,
        renewMs: 10,
        maxRunMs: 90_000,
      });
    // stuck: it waits until its signal tells it the claim is over
    const stuck = make('stuck', async (job) => {
      await new Promise((resolve) => job.signal.addEventListener('abort', resolve));
      const reason: unknown = job.signal.reason;
      reasons.push(reason instanceof ClaimEndedError ? reason.why : String(reason));
      return new Promise<JobResult>(() => {});
    });
    await stuck.schedule({ tenantId: tenant, key: 'k', dueAt: new Date(time) });
    void stuck.poll();
    await expect.poll(async () => (await stuck.get(tenant, 'k'))!.owner).toBe('stuck');
    time += 60_000;
    await expect
      .poll(async () => (await stuck.get(tenant, 'k'))!.leaseUntil)
      .toBe(new Date(time + 30_000).toISOString());
    time += 30_000;
    await expect.poll(() => reasons).toEqual(['overran']);
    const lastLease = (await stuck.get(tenant, 'k'))!.leaseUntil!;
    time = Date.parse(lastLease);
    expect(await make('b', done).poll()).toMatchObject({ claimed: 1, done: 1 });
  });

  it('a second instance retakes a job whose owner died holding it, after the lease', async () => {
    let calls = 0;
    const { a, make, at, advance } = setup(async () => {
      calls++;
      return done();
    });
    await a.schedule({ tenantId: tenant, key: 'k', dueAt: at(0) });
    // the dead owner's claim, as it left it: claimed, never finished, its lease no longer renewed (kill -9)
    let killed = false;
    const dead = make(
      'dead',
      () => new Promise<JobResult>(() => {}),
      killable(store, () => killed),
    );
    void dead.poll();
    await expect.poll(async () => (await a.get(tenant, 'k'))!.owner).toBe('dead');
    killed = true;
    const b = make('b');
    expect((await b.poll()).claimed).toBe(0);
    advance(30_000);
    expect(await b.poll()).toMatchObject({ claimed: 1, done: 1 });
    expect(calls).toBe(1);
    expect((await b.get(tenant, 'k'))!.history.map((h) => `${h.event}:${h.owner}`)).toEqual([
      'claimed:dead',
      'claimed:b',
      'done:b',
    ]);
  });

  it('start() catches up overdue jobs at once and stop() waits for the job in hand', async () => {
    const ran: string[] = [];
    const { a, at } = setup(async (job) => {
      ran.push(job.key);
      return done();
    });
    await a.schedule({ tenantId: tenant, key: 'overdue', dueAt: at(-3_600_000) });
    a.start();
    await expect.poll(() => ran).toEqual(['overdue']);
    await a.schedule({ tenantId: tenant, key: 'soon', dueAt: at(0) });
    await expect.poll(() => ran).toEqual(['overdue', 'soon']);
    await a.stop();
  });

  it('every due job is done exactly once in effect, over generated programs (embedded store)', async () => {
    await fc.assert(
      fc.asyncProperty(programs, async (steps) => {
        await runProgram([store, store], `jobs_p${++collections}`, steps);
      }),
      { numRuns: 60, interruptAfterTimeLimit: 5_000 },
    );
  }, 30_000);
});
