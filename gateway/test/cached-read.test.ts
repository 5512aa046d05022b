import { describe, expect, it } from 'vitest';
import { cacheTtlSeconds } from '../src/rest/cached-read.js';

describe('how long a REST answer may be cached', () => {
  const now = Date.parse('2027-01-01T12:00:00.000Z');
  it('is the route maximum when the answer shows no lock', () => {
    expect(cacheTtlSeconds([{ id: 'a', lock: null }], 5, now)).toBe(5);
  });
  it('never runs past the first lock expiry the answer shows', () => {
    const answer = [
      { id: 'a', lock: { expiresAt: '2027-01-01T12:00:03.500Z' } },
      { id: 'b', lock: { expiresAt: '2027-01-01T12:10:00.000Z' } },
    ];
    expect(cacheTtlSeconds(answer, 5, now)).toBe(3);
    expect(cacheTtlSeconds({ lock: { expiresAt: '2027-01-01T12:00:00.400Z' } }, 5, now)).toBe(0);
  });
});
