import { describe, expect, it } from 'vitest';
import type { PrenotazioneRecord } from '../src/bookings/prenotazione-record.js';
import { groupToComplete, planSyncPage } from '../src/bookings/sync.js';

const change = (id: string, updatedAt: string) => ({ id, updatedAt }) as PrenotazioneRecord;
const WATERMARK = '2027-01-01T10:00:10.000Z';

describe('planning a sync page', () => {
  it('returns everything and the watermark when all changes fit', () => {
    const fetched = [change('a', '2027-01-01T10:00:01.000Z'), change('b', '2027-01-01T10:00:02.000Z')];
    expect(groupToComplete(fetched, 2)).toBeNull();
    expect(planSyncPage(fetched, 2, WATERMARK)).toEqual({
      items: fetched,
      hasMore: false,
      serverTime: WATERMARK,
    });
  });

  it('cuts after the limit when the next change has a later timestamp', () => {
    const fetched = [change('a', 'T1'), change('b', 'T2'), change('c', 'T3')];
    expect(groupToComplete(fetched, 2)).toBeNull();
    expect(planSyncPage(fetched, 2, WATERMARK)).toEqual({
      items: fetched.slice(0, 2),
      hasMore: true,
      serverTime: 'T2',
    });
  });

  it('never splits a group of equal timestamps: the whole group comes in this page', () => {
    const fetched = [change('a', 'T1'), change('b', 'T2'), change('c', 'T2')];
    expect(groupToComplete(fetched, 2)).toBe('T2');
    const group = [change('b', 'T2'), change('c', 'T2'), change('d', 'T2')];
    const page = planSyncPage(fetched, 2, WATERMARK, group);
    expect(page.items.map((r) => r.id)).toEqual(['a', 'b', 'c', 'd']);
    expect(page).toMatchObject({ hasMore: true, serverTime: 'T2' });
  });

  it('pages through equal timestamps without repeating or skipping (simulated client)', () => {
    const all = ['T1', 'T1', 'T1', 'T2', 'T3', 'T3', 'T4', 'T4', 'T4', 'T4', 'T5'].map((t, i) =>
      change(`r${i}`, t),
    );
    const after = (since: string) => all.filter((r) => r.updatedAt > since);
    const seen: string[] = [];
    let since = 'T0';
    for (let round = 0; round < 20; round++) {
      const fetched = after(since).slice(0, 3);
      const groupAt = groupToComplete(fetched, 2);
      const group = groupAt ? all.filter((r) => r.updatedAt === groupAt) : [];
      const page = planSyncPage(fetched, 2, 'T9', group);
      seen.push(...page.items.map((r) => r.id));
      since = page.serverTime;
      if (!page.hasMore) break;
    }
    expect(seen).toEqual(all.map((r) => r.id));
  });
});
