import { describe, expect, it } from 'vitest';
import { currentStallMs, isAlive } from '../src/event-loop-monitor.js';

const base = { sampleIntervalMs: 100, maxDelayMs: 2000, windowMs: 1000, lastStallAt: null };

describe('liveness rule', () => {
  it('alive while the sampler runs on time', () => {
    expect(isAlive({ ...base, now: 10_050, lastTickAt: 10_000 })).toBe(true);
    expect(currentStallMs({ now: 10_050, lastTickAt: 10_000, sampleIntervalMs: 100 })).toBe(0);
  });

  it('dead while the loop is stalled beyond the threshold right now', () => {
    expect(isAlive({ ...base, now: 13_000, lastTickAt: 10_000 })).toBe(false);
    expect(currentStallMs({ now: 13_000, lastTickAt: 10_000, sampleIntervalMs: 100 })).toBe(2900);
  });

  it('a stall below the threshold (a GC pause, a slow tick) does not count', () => {
    expect(isAlive({ ...base, now: 11_500, lastTickAt: 10_000 })).toBe(true);
  });

  it('dead for the window after a stall ended, alive afterwards', () => {
    expect(isAlive({ ...base, now: 20_500, lastTickAt: 20_450, lastStallAt: 20_000 })).toBe(false);
    expect(isAlive({ ...base, now: 21_001, lastTickAt: 20_950, lastStallAt: 20_000 })).toBe(true);
  });
});
