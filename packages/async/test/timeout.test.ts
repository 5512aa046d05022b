import { describe, expect, it } from 'vitest';
import { sleep, withTimeout } from '../src/index.js';

describe('withTimeout', () => {
  it('settles like the promise when it settles first', async () => {
    expect(await withTimeout(Promise.resolve(1), 1000)).toBe(1);
    await expect(withTimeout(Promise.reject(new Error('no')), 1000)).rejects.toThrow('no');
  });

  it('rejects with the default error, or the one asked for, when the promise does not settle in time', async () => {
    const never = new Promise<never>(() => {});
    await expect(withTimeout(never, 10)).rejects.toThrow('timeout after 10 ms');
    await expect(withTimeout(never, 10, () => new RangeError('slow'))).rejects.toThrow(RangeError);
  });
});

describe('sleep', () => {
  it('ends at once when its signal aborts', async () => {
    const controller = new AbortController();
    const started = performance.now();
    const sleeping = sleep(60_000, controller.signal);
    controller.abort('woken');
    await sleeping;
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
