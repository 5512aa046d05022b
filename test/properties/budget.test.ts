import { describe, expect, it } from 'vitest';
import { budget, runParameters } from './budget.js';

describe('budget', () => {
  it('bounds the normal run and lets FC_SEED / FC_PATH replay a failure', () => {
    const b = budget({}, 25_000);
    expect(b).toMatchObject({ timeLimitMs: 25_000, torture: false });
    expect(b.testTimeoutMs).toBeGreaterThan(b.timeLimitMs);
    expect(runParameters(b, {})).not.toHaveProperty('seed');
    expect(runParameters(b, { FC_SEED: '-42', FC_PATH: '3:1' })).toMatchObject({ seed: -42, path: '3:1' });
  });

  it('runs torture for TORTURE_MINUTES (default 20) and refuses a bad value', () => {
    expect(budget({ TORTURE: '1' }).timeLimitMs).toBe(20 * 60_000);
    expect(budget({ TORTURE: '1', TORTURE_MINUTES: '2' }).timeLimitMs).toBe(120_000);
    expect(() => budget({ TORTURE: '1', TORTURE_MINUTES: 'soon' })).toThrow(/TORTURE_MINUTES/);
  });
});
