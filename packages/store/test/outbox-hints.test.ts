import { trustedTenantId } from '@coperto/auth';
import { describe, expect, it } from 'vitest';
import { OutboxHints, type HintedRecord } from '../src/outbox/hints.js';

const tenantId = trustedTenantId('t1');
const event = (id: string) => ({ id, subject: `test.${id}`, body: { id } });
const hint = (collection: string, id: string, leasedUntil = 10_000): HintedRecord => ({
  collection,
  tenantId,
  id,
  messages: [event(`${id}-e`)],
  leasedUntil,
  claimId: `claim-${id}`,
});

describe('outbox hints', () => {
  it('leases nothing until a relay of the process serves the collection', () => {
    const hints = new OutboxHints();
    expect(hints.writeLease('a', 0)).toBeNull();
    hints.serve(['a'], 5000);
    expect(hints.writeLease('a', 1000)).toMatchObject({ until: 6000, claimId: expect.any(String) });
    expect(hints.writeLease('b', 1000)).toBeNull();
  });

  it('hands each claim at most its limit of the collections it asks for, oldest first; the rest wait', () => {
    const hints = new OutboxHints();
    hints.serve(['a', 'b'], 5000);
    for (const [collection, id] of [
      ['a', '1'],
      ['b', '2'],
      ['a', '3'],
      ['a', '4'],
    ] as const) {
      hints.offer(hint(collection, id));
    }
    expect(hints.take(['a'], 2).map((h) => h.id)).toEqual(['1', '3']);
    expect(hints.take(['a', 'b'], 10).map((h) => h.id)).toEqual(['2', '4']);
    expect(hints.take(['a', 'b'], 10)).toEqual([]);
  });

  it('an update of a waiting record replaces its events; once taken, the hint is gone', () => {
    const hints = new OutboxHints();
    hints.serve(['a'], 5000);
    hints.offer(hint('a', '1'));
    expect(hints.isWaiting('a', tenantId, '1')).toBe(true);
    expect(hints.refresh('a', tenantId, '1', [event('1-e'), event('1-f')])).toBe(true);
    const [taken] = hints.take(['a'], 10);
    expect(taken!.messages.map((m) => m.id)).toEqual(['1-e', '1-f']);
    expect(hints.isWaiting('a', tenantId, '1')).toBe(false);
    expect(hints.refresh('a', tenantId, '1', [event('1-g')])).toBe(false);
  });

  it('of two updates answered out of order, the hint keeps the longer (later) outbox', () => {
    const hints = new OutboxHints();
    hints.serve(['a'], 5000);
    hints.offer(hint('a', '1'));
    expect(hints.refresh('a', tenantId, '1', [event('1-e'), event('1-f'), event('1-g')])).toBe(true);
    expect(hints.refresh('a', tenantId, '1', [event('1-e'), event('1-f')])).toBe(true);
    // An update's hand-over (unleased) likewise.
    const longer = {
      ...hint('a', '2', 0),
      leasedUntil: null,
      claimId: null,
      messages: [event('2-e'), event('2-f')],
    };
    hints.offer(longer);
    hints.offer({ ...longer, messages: [event('2-e')] });
    expect(hints.take(['a'], 10).map((h) => [h.id, h.leasedUntil, h.messages.map((m) => m.id)])).toEqual([
      ['1', 10_000, ['1-e', '1-f', '1-g']],
      ['2', null, ['2-e', '2-f']],
    ]);
  });

  it('hands updates over only for collections a relay of the process serves, while there is room', () => {
    const hints = new OutboxHints(1);
    expect(hints.accepts('a')).toBe(false);
    hints.serve(['a'], 5000);
    expect([hints.accepts('a'), hints.accepts('b')]).toEqual([true, false]);
    hints.offer(hint('a', '1'));
    expect(hints.accepts('a')).toBe(false);
  });

  it('stops leasing new records while the most it keeps are waiting', () => {
    const hints = new OutboxHints(2);
    hints.serve(['a'], 5000);
    hints.offer(hint('a', '1'));
    hints.offer(hint('a', '2'));
    expect(hints.writeLease('a', 0)).toBeNull();
    hints.take(['a'], 1);
    expect(hints.writeLease('a', 0)).not.toBeNull();
  });
});

describe('outbox hints: announcing a write that left nothing else pending', () => {
  it("tells the collection's listener only when the outbox is exactly the write's events", () => {
    const hints = new OutboxHints();
    const told: string[][] = [];
    hints.onAnnounce(['a'], (messages) => told.push(messages.map((m) => m.id)));
    const [e1, e2] = [event('e1'), event('e2')];
    hints.announce('a', [e2], [e2]);
    hints.announce('a', [e1, e2], [e1, e2]);
    // An earlier event still pending, another order, or no events: nothing.
    hints.announce('a', [e2], [e1, e2]);
    hints.announce('a', [e1, e2], [e2, e1]);
    hints.announce('a', [], []);
    // Another collection has no listener.
    hints.announce('b', [e1], [e1]);
    expect(told).toEqual([['e2'], ['e1', 'e2']]);
  });

  it('a throwing listener does not fail the write', () => {
    const hints = new OutboxHints();
    hints.onAnnounce(['a'], () => {
      throw new Error('bus gone');
    });
    expect(() => hints.announce('a', [event('e1')], [event('e1')])).not.toThrow();
  });
});
