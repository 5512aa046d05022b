import { describe, expect, it } from 'vitest';
import { mapWithConcurrency } from '../src/concurrency.js';

describe('mapWithConcurrency', () => {
  it('keeps the input order whatever order the calls finish in', async () => {
    const delays = [30, 5, 20, 0, 10, 25, 1];
    const results = await mapWithConcurrency(delays, 3, async (delay, index) => {
      await new Promise((r) => setTimeout(r, delay));
      return `${index}:${delay}`;
    });
    expect(results).toEqual(delays.map((delay, index) => `${index}:${delay}`));
  });

  it('never runs more than the limit at once, and uses the whole limit', async () => {
    let running = 0;
    let peak = 0;
    await mapWithConcurrency(
      Array.from({ length: 40 }, (_, i) => i),
      8,
      async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 1));
        running--;
      },
    );
    expect(peak).toBe(8);
  });

  it('calls work once per item, and maps an empty list to an empty list', async () => {
    const seen: number[] = [];
    await mapWithConcurrency([1, 2, 3], 10, async (item) => void seen.push(item));
    expect(seen.sort()).toEqual([1, 2, 3]);
    expect(await mapWithConcurrency([], 4, async () => 1)).toEqual([]);
  });

  it('refuses a limit below 1', async () => {
    await expect(mapWithConcurrency([1], 0, async () => 1)).rejects.toThrow(RangeError);
  });
});
