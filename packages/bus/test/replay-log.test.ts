import { describe, expect, it } from 'vitest';
import { arrivalSequence } from '../src/arrival-subject.js';
import { createReplayLog } from '../src/replay-log.js';

const SUBJECT = 'tenant.a.restaurant.tables.status';
const event = (id: string) => JSON.stringify({ id, data: { id } });
const OPTIONS = { windowMs: 60_000, maxEvents: 100 };

describe('replay log', () => {
  it('keeps at most maxEvents: the oldest go first, and an id that went is unknown', () => {
    const log = createReplayLog({ maxEvents: 3, maxAgeMs: 60_000 });
    for (let i = 1; i <= 5; i++) log.append(SUBJECT, `e${i}`, event(`e${i}`));
    expect(log.size).toBe(3);
    expect(log.evicted).toBe(2);
    expect(log.replay(SUBJECT, 'e2', OPTIONS)).toEqual({ ok: false, reason: 'unknown' });
    const kept = log.replay(SUBJECT, 'e3', OPTIONS);
    expect(kept.ok && kept.events.map((e) => e.id)).toEqual(['e4', 'e5']);
    expect(kept.ok && kept.events.map((e) => arrivalSequence(e))).toEqual([4, 5]);
    expect(kept.ok && kept.afterSequence).toBe(3);
  });

  it('drops events older than maxAgeMs, and replays none older than the window', () => {
    let now = 0;
    const log = createReplayLog({ maxEvents: 100, maxAgeMs: 10_000, now: () => now });
    log.append(SUBJECT, 'old', event('old'));
    now = 5_000;
    log.append(SUBJECT, 'mid', event('mid'));
    now = 12_000;
    log.append(SUBJECT, 'new', event('new'));
    expect(log.size).toBe(2);
    expect(log.replay(SUBJECT, 'old', OPTIONS)).toEqual({ ok: false, reason: 'unknown' });
    // Kept, but outside a 5 s window.
    expect(log.replay(SUBJECT, 'mid', { ...OPTIONS, windowMs: 5_000 })).toEqual({
      ok: false,
      reason: 'unknown',
    });
    const inWindow = log.replay(SUBJECT, 'mid', OPTIONS);
    expect(inWindow.ok && inWindow.events.map((e) => e.id)).toEqual(['new']);
    now = 30_000;
    expect(log.replay(SUBJECT, 'new', OPTIONS)).toEqual({ ok: false, reason: 'unknown' });
    expect(log.size).toBe(0);
  });

  it('hands each replay fresh copies', () => {
    const log = createReplayLog({ maxEvents: 10, maxAgeMs: 60_000 });
    log.append(SUBJECT, 'e1', event('e1'));
    log.append(SUBJECT, 'e2', event('e2'));
    const first = log.replay(SUBJECT, 'e1', OPTIONS);
    const second = log.replay(SUBJECT, 'e1', OPTIONS);
    expect(first.ok && second.ok && first.events[0] !== second.events[0]).toBe(true);
    expect(second).toEqual(first);
  });

  it('refuses a bound that is not a positive integer', () => {
    expect(() => createReplayLog({ maxEvents: 0, maxAgeMs: 1 })).toThrow(RangeError);
  });
});
