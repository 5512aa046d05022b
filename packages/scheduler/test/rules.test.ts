import { describe, expect, it } from 'vitest';
import {
  canonicalJson,
  claimDecision,
  effectIdOf,
  jobId,
  nextPollDelay,
  retryDelay,
  scheduleChange,
} from '../src/rules.js';

const now = new Date('2026-06-01T10:00:00.000Z');
const at = (ms: number) => new Date(now.getTime() + ms).toISOString();

describe('claimDecision', () => {
  it('claims a pending job that is due and holds no live lease', () => {
    expect(claimDecision({ state: 'pending', dueAt: at(0), leaseUntil: null }, now)).toBe('claim');
    expect(claimDecision({ state: 'pending', dueAt: at(-5000), leaseUntil: at(-1) }, now)).toBe('claim');
    // a lease that ends exactly now is over (the store filter uses $lte too)
    expect(claimDecision({ state: 'pending', dueAt: at(-5000), leaseUntil: at(0) }, now)).toBe('claim');
  });
  it('leaves a job that is not due, leased, or finished', () => {
    expect(claimDecision({ state: 'pending', dueAt: at(1), leaseUntil: null }, now)).toBe('not-due');
    expect(claimDecision({ state: 'pending', dueAt: at(-1), leaseUntil: at(1) }, now)).toBe('leased');
    for (const state of ['done', 'cancelled', 'failed'] as const)
      expect(claimDecision({ state, dueAt: at(-1), leaseUntil: null }, now)).toBe('finished');
  });
});

describe('nextPollDelay', () => {
  it('polls at once after a full batch', () => {
    expect(nextPollDelay({ now, fullBatch: true, earliest: at(60_000), pollMs: 5000 })).toBe(0);
  });
  it('sleeps until the earliest due job, at most pollMs, at least minMs', () => {
    expect(nextPollDelay({ now, fullBatch: false, earliest: at(1200), pollMs: 5000 })).toBe(1200);
    expect(nextPollDelay({ now, fullBatch: false, earliest: at(60_000), pollMs: 5000 })).toBe(5000);
    expect(nextPollDelay({ now, fullBatch: false, earliest: null, pollMs: 5000 })).toBe(5000);
    expect(nextPollDelay({ now, fullBatch: false, earliest: at(-100), pollMs: 5000, minMs: 10 })).toBe(10);
  });
});

describe('retryDelay', () => {
  it('doubles from the base up to the cap', () => {
    expect([1, 2, 3, 4, 10].map((n) => retryDelay(n, 1000, 5000))).toEqual([1000, 2000, 4000, 5000, 5000]);
  });
});

describe('scheduleChange', () => {
  const job = { dueAt: at(0), payload: { a: 1, b: [1, 2] }, state: 'pending' as const };
  it('inserts a new key and changes nothing for the same time and payload (any key order), even when done', () => {
    expect(scheduleChange(null, at(0), {})).toBe('insert');
    expect(scheduleChange(job, at(0), { b: [1, 2], a: 1 })).toBe('unchanged');
    expect(scheduleChange({ ...job, state: 'done' }, at(0), job.payload)).toBe('unchanged');
  });
  it('re-arms on another time or payload, and a cancelled job scheduled again', () => {
    expect(scheduleChange(job, at(1), job.payload)).toBe('rearm');
    expect(scheduleChange(job, at(0), { a: 2, b: [1, 2] })).toBe('rearm');
    expect(scheduleChange({ ...job, state: 'done' }, at(1), job.payload)).toBe('rearm');
    expect(scheduleChange({ ...job, state: 'cancelled' }, at(0), job.payload)).toBe('rearm');
  });
});

describe('effect ids', () => {
  it('are UUID-shaped, the same for the same job and due time, different otherwise', () => {
    const id = effectIdOf(jobId('t1', 'b1/24'), at(0));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(effectIdOf(jobId('t1', 'b1/24'), at(0))).toBe(id);
    expect(effectIdOf(jobId('t1', 'b1/24'), at(1))).not.toBe(id);
    expect(effectIdOf(jobId('t2', 'b1/24'), at(0))).not.toBe(id);
  });
  it('job ids keep tenants apart', () => {
    expect(jobId('t1', 'x/y')).toBe('t1/x/y');
    expect(canonicalJson({ b: 1, a: { d: 1, c: 2 } })).toBe('{"a":{"c":2,"d":1},"b":1}');
  });
});
