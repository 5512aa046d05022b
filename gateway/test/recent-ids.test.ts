import { describe, expect, it } from 'vitest';
import { createRecentIds } from '../src/subscriptions/recent-ids.js';

describe('recent event ids', () => {
  it('recognises an id seen before and forgets the oldest beyond its capacity', () => {
    const recent = createRecentIds(3);
    expect(['a', 'b', 'a', 'c'].map((id) => recent.seenBefore(id))).toEqual([false, false, true, false]);
    expect(recent.seenBefore('d')).toBe(false); // a is forgotten now
    expect(recent.seenBefore('a')).toBe(false);
    expect(recent.seenBefore('d')).toBe(true);
  });
});
