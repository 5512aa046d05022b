/**
 * Generated programs for the property "every due job is done exactly once in effect": schedule, reschedule and
 * cancel keyed jobs, advance the clock, poll from any of two instances (also both at once), kill an instance in
 * the middle of a job (before or after its effect) and start it again, or hold a poll's jobs between their
 * effect and their end while the program goes on (a handler outliving its lease). The store is real (embedded
 * or MongoDB); a killed instance is cut off from it at once, as kill -9 would (nothing it does afterwards lands).
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { trustedTenantId } from '@coperto/auth';
import type { DocumentStore, TenantCollection } from '@coperto/store';
import { Scheduler } from '../../src/index.js';
import type { JobRecord } from '../../src/types.js';

const LEASE_MS = 30_000;
const T0 = Date.parse('2026-06-01T10:00:00.000Z');
const tenant = trustedTenantId('t1');

type Crash = 'before-effect' | 'after-effect';
export type Step =
  | { op: 'schedule'; key: number; minutes: number }
  | { op: 'cancel'; key: number }
  | { op: 'advance'; ms: number }
  | { op: 'poll'; instance: number; crash: Crash | null }
  | { op: 'pollBoth' }
  | { op: 'begin'; instance: number }
  | { op: 'release'; instance: number }
  | { op: 'restart'; instance: number };

export const programs: fc.Arbitrary<Step[]> = fc.array(
  fc.oneof(
    fc.record({
      op: fc.constant('schedule' as const),
      key: fc.nat(3),
      minutes: fc.integer({ min: -5, max: 30 }),
    }),
    fc.record({ op: fc.constant('cancel' as const), key: fc.nat(3) }),
    fc.record({ op: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 2 * LEASE_MS }) }),
    fc.record({
      op: fc.constant('poll' as const),
      instance: fc.nat(1),
      crash: fc.constantFrom(null, null, 'before-effect' as const, 'after-effect' as const),
    }),
    fc.record({ op: fc.constant('pollBoth' as const) }),
    fc.record({ op: fc.constant('begin' as const), instance: fc.nat(1) }),
    fc.record({ op: fc.constant('release' as const), instance: fc.nat(1) }),
    fc.record({ op: fc.constant('restart' as const), instance: fc.nat(1) }),
  ),
  { minLength: 1, maxLength: 25 },
);

interface Effect {
  effectId: string;
  key: string;
  version: number;
  at: number;
}

/** One scheduler instance and the switch that cuts it off from the store (its kill -9). */
class Instance {
  killed = false;
  crash: Crash | null = null;
  /** While set, handlers wait here after their effect (a `begin`'s poll, finished by `release`). */
  gate: Promise<void> | null = null;
  open: () => void = () => {};
  /** The held poll: resolves to its error, or null. */
  inflight: Promise<unknown> | null = null;
  readonly scheduler: Scheduler;

  constructor(store: DocumentStore, collection: string, name: string, clock: () => Date, effects: Effect[]) {
    this.scheduler = new Scheduler({
      store: killable(store, () => this.killed),
      collection,
      owner: name,
      now: clock,
      leaseMs: LEASE_MS,
      // Renewal runs on real time while the programs run on their own clock: left out of them (it would make a
      // held poll's outcome depend on how fast the machine is), tested on its own (scheduler.integration.test.ts).
      renewMs: 24 * 60 * 60_000,
      batchSize: 3,
      maxAttempts: 1000,
      retryBaseMs: 1000,
      handler: async (job) => {
        if (this.killed) throw new Error('killed');
        const crash = this.crash;
        if (crash === 'before-effect') this.killed = true;
        else
          effects.push({ effectId: job.effectId, key: job.key, version: job.version, at: clock().getTime() });
        if (crash === 'after-effect') this.killed = true;
        if (this.killed) throw new Error('killed');
        if (this.gate) await this.gate;
        return { outcome: 'done' };
      },
    });
  }
}

/** The store as a killed process sees it: every call fails once `isKilled()`. */
export function killable(store: DocumentStore, isKilled: () => boolean): DocumentStore {
  const check = () => {
    if (isKilled()) throw new Error('killed: no store');
  };
  return {
    ensureIndexes: (c, i) => store.ensureIndexes(c, i),
    dropIndexes: (c, n) => store.dropIndexes(c, n),
    outbox: (c) => store.outbox(c),
    ping: (ms) => store.ping(ms),
    info: () => store.info(),
    close: () => store.close(),
    forTenant(tenantId) {
      const scoped = store.forTenant(tenantId);
      return {
        tenantId,
        collection<T extends { id: string }>(name: string): TenantCollection<T> {
          const inner = scoped.collection<T>(name);
          return new Proxy(inner, {
            get(target, property, receiver) {
              const value = Reflect.get(target, property, receiver) as unknown;
              if (typeof value !== 'function') return value;
              return async (...args: unknown[]) => {
                check();
                return (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
              };
            },
          });
        },
      };
    },
  };
}

/**
 * Runs `steps` against a fresh collection, instance 0 on `stores[0]` and instance 1 on `stores[1]` (two
 * connections to one database, or one embedded store twice), then checks the property.
 */
export async function runProgram(
  stores: readonly [DocumentStore, DocumentStore],
  collection: string,
  steps: readonly Step[],
): Promise<void> {
  const store = stores[0];
  let time = T0;
  const clock = () => new Date(time);
  const effects: Effect[] = [];
  let generation = 0;
  const make = (i: number) => new Instance(stores[i]!, collection, `i${i}.${generation++}`, clock, effects);
  const instances = [make(0), make(1)];
  await instances[0]!.scheduler.init();
  /** What the program asked last of each key: its due time, or cancelled. */
  const asked = new Map<string, { dueAt: string } | 'cancelled'>();
  const poll = async (instance: Instance) => {
    await instance.scheduler.poll().catch((error: unknown) => {
      if (!instance.killed) throw error;
    });
  };
  for (const step of steps) {
    const live = instances.find((i) => !i.killed) ?? instances[0]!;
    switch (step.op) {
      case 'schedule': {
        const dueAt = new Date(time + step.minutes * 60_000).toISOString();
        if (live.killed) break;
        await live.scheduler.schedule({ tenantId: tenant, key: `k${step.key}`, dueAt });
        asked.set(`k${step.key}`, { dueAt });
        break;
      }
      case 'cancel':
        if (live.killed) break;
        await live.scheduler.cancel(tenant, `k${step.key}`);
        if (asked.has(`k${step.key}`)) asked.set(`k${step.key}`, 'cancelled');
        break;
      case 'advance':
        time += step.ms;
        break;
      case 'poll': {
        const instance = instances[step.instance]!;
        instance.crash = step.crash;
        await poll(instance);
        instance.crash = null;
        break;
      }
      case 'pollBoth':
        await Promise.all(instances.map(poll));
        break;
      case 'begin': {
        const instance = instances[step.instance]!;
        if (instance.inflight) break;
        instance.gate = new Promise((resolve) => (instance.open = resolve));
        // kept settled until `release` awaits it (a rejection waiting there is not an unhandled one)
        instance.inflight = poll(instance).then(
          () => null,
          (error: unknown) => error,
        );
        // the jobs it claimed are now past their effect, waiting at the gate
        await new Promise((resolve) => setTimeout(resolve, 5));
        break;
      }
      case 'release':
        await release(instances[step.instance]!);
        break;
      case 'restart':
        instances[step.instance]!.killed = true;
        await release(instances[step.instance]!);
        instances[step.instance] = make(step.instance);
        break;
    }
  }
  await Promise.all(instances.map(release));
  // Everyone comes back; time runs past every due time and lease; polls until nothing is left to claim.
  instances[0] = make(0);
  instances[1] = make(1);
  time += 60 * 60_000 + 2 * LEASE_MS;
  for (let round = 0; round < 20; round++) {
    const [a, b] = await Promise.all(instances.map((i) => i.scheduler.poll()));
    if (a!.claimed + b!.claimed === 0) break;
  }
  await checkProperty(store, collection, asked, effects);
}

async function release(instance: Instance): Promise<void> {
  instance.gate = null;
  instance.open();
  const error = await instance.inflight;
  instance.inflight = null;
  if (error) throw error;
}

async function checkProperty(
  store: DocumentStore,
  collection: string,
  asked: Map<string, { dueAt: string } | 'cancelled'>,
  effects: readonly Effect[],
): Promise<void> {
  const probe = new Scheduler({ store, collection, handler: () => Promise.reject(new Error('unused')) });
  for (const [key, last] of asked) {
    const job = (await probe.get(tenant, key))!;
    expect(job, key).not.toBeNull();
    const mine = effects.filter((e) => e.key === key && e.version === job.version);
    if (last === 'cancelled') {
      // Cancelled while pending: dropped, no effect of that version after the cancel; or it was done before.
      expect(['cancelled', 'done']).toContain(job.state);
    } else {
      // Asked last to run at dueAt: done, exactly one `done` line for its version, its effect (id of the time).
      expect({ key, state: job.state, dueAt: job.dueAt }).toEqual({ key, state: 'done', dueAt: last.dueAt });
      expect(job.history.filter((h) => h.event === 'done' && h.version === job.version)).toHaveLength(1);
      expect(mine.length, `${key}: effects of version ${job.version}`).toBeGreaterThanOrEqual(1);
      expect(new Set(mine.map((e) => e.effectId)).size).toBe(1);
    }
    for (const effect of mine) expect(effect.at).toBeGreaterThanOrEqual(Date.parse(job.dueAt));
    // A second effect of one version only after a claim that did not end within its lease (README): its owner
    // died (no end line) or overran and found the job retaken (`lost`).
    expect(mine.length - 1, `${key}: repeated effects`).toBeLessThanOrEqual(unendedClaims(job, job.version));
  }
}

/** Claims of `version` that recorded no end of their own (died) or ended `lost`. */
function unendedClaims(job: JobRecord, version: number): number {
  const ended = new Set(
    job.history.filter((h) => h.event !== 'claimed' && h.event !== 'lost').map((h) => h.claimId),
  );
  return job.history.filter((h) => h.event === 'claimed' && h.version === version && !ended.has(h.claimId))
    .length;
}
