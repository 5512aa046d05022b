import { describe, expect, it } from 'vitest';
import { eventTime, PendingAges } from '../src/outbox/pending-ages.js';

const at = (iso: string) => Date.parse(iso);
const message = (id: string, time?: string) => ({ id, subject: 's', body: time ? { id, time } : { id } });

describe('pending event ages (outbox age gauge)', () => {
  it('takes an event’s CloudEvents time, or the fallback when it has none', () => {
    expect(eventTime(message('a', '2030-01-01T00:00:00.000Z'), 5)).toBe(at('2030-01-01T00:00:00Z'));
    expect(eventTime(message('b'), 5)).toBe(5);
    expect(eventTime({ id: 'c', subject: 's', body: { time: 'not a date' } }, 5)).toBe(5);
  });

  it('reports the oldest of the records still pending, and forgets a record once nothing is left', () => {
    const t0 = at('2030-01-01T00:00:00Z');
    const ages = new PendingAges(10_000);
    expect(ages.oldestAgeSeconds(t0)).toBe(0);
    ages.track(
      'r1',
      [message('a', '2030-01-01T00:00:00Z'), message('b', '2030-01-01T00:00:05Z')],
      t0 + 10_000,
      t0,
    );
    ages.track('r2', [message('c', '2030-01-01T00:00:03Z')], t0 + 10_000, t0);
    expect(ages.oldestAgeSeconds(t0 + 8_000)).toBe(8);
    // r1's first event published: its oldest left is 00:05, r2's 00:03 is now the oldest.
    ages.track('r1', [message('b', '2030-01-01T00:00:05Z')], t0 + 10_000, t0 + 8_000);
    expect(ages.oldestAgeSeconds(t0 + 8_000)).toBe(5);
    ages.track('r2', [], t0 + 10_000, t0 + 8_000);
    ages.track('r1', [], t0 + 10_000, t0 + 8_000);
    expect(ages.oldestAgeSeconds(t0 + 9_000)).toBe(0);
  });

  it('stops counting a record whose claim ran out more than a lease ago (another relay’s, unless claimed again)', () => {
    const t0 = at('2030-01-01T00:00:00Z');
    const ages = new PendingAges(10_000);
    ages.track('r1', [message('a', '2030-01-01T00:00:00Z')], t0 + 10_000, t0);
    expect(ages.oldestAgeSeconds(t0 + 20_000)).toBe(20);
    expect(ages.oldestAgeSeconds(t0 + 20_001)).toBe(0);
    ages.track('r1', [message('a', '2030-01-01T00:00:00Z')], t0 + 30_001, t0 + 20_001);
    expect(ages.oldestAgeSeconds(t0 + 25_000)).toBe(25);
  });
});
