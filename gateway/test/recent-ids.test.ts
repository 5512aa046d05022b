import { describe, expect, it } from 'vitest';
import { createRecentIds, type RecentIdsTally } from '../src/subscriptions/recent-ids.js';

describe('recent event ids', () => {
  it('recognises an id seen before and forgets the oldest beyond its capacity', () => {
    const recent = createRecentIds(3);
    expect(['a', 'b', 'a', 'c'].map((id) => recent.seenBefore(id))).toEqual([false, false, true, false]);
    expect(recent.seenBefore('d')).toBe(false); // a is forgotten now
    expect(recent.seenBefore('a')).toBe(false);
    expect(recent.seenBefore('d')).toBe(true);
  });

  it('counts what every group holds in one tally, and takes a released group out of it', () => {
    const tally: RecentIdsTally = { entries: 0, evictions: 0 };
    const first = createRecentIds(2, tally);
    const second = createRecentIds(2, tally);
    for (const id of ['a', 'b', 'c', 'd', 'a']) first.seenBefore(id);
    second.seenBefore('x');
    expect(tally).toEqual({ entries: 3, evictions: 3 });
    first.release();
    first.release();
    expect(tally).toEqual({ entries: 1, evictions: 3 });
  });
});
