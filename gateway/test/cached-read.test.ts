import { describe, expect, it } from 'vitest';
import { cacheTtlSeconds } from '../src/rest/cached-read.js';

describe('how long a REST answer may be cached', () => {
  const now = Date.parse('2027-01-01T12:00:00.000Z');
  const ttlOf = (answer: unknown) => cacheTtlSeconds(JSON.stringify(answer), 5, now);
  it('is the route maximum when the answer shows no lock', () => {
    expect(ttlOf([{ id: 'a', lock: null }])).toBe(5);
    expect(ttlOf([{ id: 'a', lock: { expiresAt: null } }])).toBe(5);
  });
  it('never runs past the first lock expiry the answer shows', () => {
    const answer = [
      { id: 'a', lock: { expiresAt: '2027-01-01T12:10:00.000Z' } },
      { id: 'b', lock: { expiresAt: '2027-01-01T12:00:03.500Z' } },
    ];
    expect(ttlOf(answer)).toBe(3);
    expect(ttlOf({ lock: { expiresAt: '2027-01-01T12:00:00.400Z' } })).toBe(0);
    expect(ttlOf({ lock: { expiresAt: '2026-12-31T12:00:00.000Z' } })).toBe(0);
  });
  it('reads no expiry out of a string value that spells one', () => {
    expect(ttlOf([{ id: 'a', notes: '"expiresAt":"2027-01-01T12:00:01.000Z"' }])).toBe(5);
  });
  it('caches nothing whose expiry is not a date', () => {
    expect(ttlOf({ lock: { expiresAt: 'soon' } })).toBe(0);
  });
});
