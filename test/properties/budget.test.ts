import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { assertProperty, budget, runParameters } from './budget.js';

describe('budget', () => {
  it('bounds the normal run and lets FC_SEED / FC_PATH replay a failure', () => {
    const b = budget({}, 25_000);
    expect(b).toMatchObject({ timeLimitMs: 25_000, torture: false });
    expect(b.testTimeoutMs).toBeGreaterThan(b.timeLimitMs);
    expect(runParameters({})).not.toHaveProperty('seed');
    expect(runParameters({ FC_SEED: '-42', FC_PATH: '3:1' })).toMatchObject({ seed: -42, path: '3:1' });
  });

  it('runs torture for TORTURE_MINUTES (default 20) and refuses a bad value', () => {
    expect(budget({ TORTURE: '1' }).timeLimitMs).toBe(20 * 60_000);
    expect(budget({ TORTURE: '1', TORTURE_MINUTES: '2' }).timeLimitMs).toBe(120_000);
    expect(() => budget({ TORTURE: '1', TORTURE_MINUTES: 'soon' })).toThrow(/TORTURE_MINUTES/);
  });

  it('runs fresh programs until the budget is spent, and reports a failure with the seed and path', async () => {
    const ran = await assertProperty(
      fc.asyncProperty(fc.nat(), async () => {}),
      { ...budget({}, 0), numRuns: 5 },
      {},
    );
    expect(ran).toBe(1);
    const counted = await assertProperty(
      fc.asyncProperty(fc.nat(), async () => {}),
      { ...budget({}, 60_000), numRuns: 5 },
      {},
    );
    expect(counted).toBe(5);
    await expect(
      assertProperty(
        fc.asyncProperty(fc.nat(), async (n) => {
          if (n > 10) throw new Error('too big');
        }),
        { ...budget({}, 60_000), numRuns: 200 },
        {},
      ),
    ).rejects.toThrow(/FC_SEED=-?\d+ FC_PATH="[\d:]+"/);
  });
});
