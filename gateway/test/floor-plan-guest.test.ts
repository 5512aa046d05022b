// What the floor plan says of a guest and a guarantee (gateway/public/floor-plan/guest-facts.js's pure
// summaries): counts, money in the currency's own decimals, and each guarantee status with its due time. The
// page showing them beside bookings and waiting parties is test/floor-plan-host.browser.e2e.test.ts.
import { describe, expect, it } from 'vitest';

interface Guarantee {
  type: string;
  status: string;
  amount: number;
  currency: string;
  dueAt: string;
}
const facts = (await import('../public/floor-plan/guest-facts.js' as string)) as {
  guestCounts(guest: { visits: number; noShows: number; lateCancellations: number }): string;
  money(amount: number, currency: string, locale?: string): string;
  clockTime(iso: string, timeZone?: string): string;
  guaranteeSummary(
    guarantee: Guarantee,
    now: number,
    options?: { timeZone?: string; locale?: string },
  ): { tone: string; text: string };
};

const ROME = { timeZone: 'Europe/Rome', locale: 'en-GB' };
const due = '2030-06-14T18:15:00Z';
const guarantee = (over: Partial<Guarantee>): Guarantee => ({
  type: 'deposit',
  status: 'requested',
  amount: 6000,
  currency: 'eur',
  dueAt: due,
  ...over,
});

describe('guest facts', () => {
  it('counts visits, no-shows and late cancellations; a guest never seen is a first visit', () => {
    expect(facts.guestCounts({ visits: 11, noShows: 2, lateCancellations: 0 })).toBe(
      '11 visits · 2 no-shows',
    );
    expect(facts.guestCounts({ visits: 1, noShows: 1, lateCancellations: 1 })).toBe(
      '1 visit · 1 no-show · 1 late cancellation',
    );
    expect(facts.guestCounts({ visits: 0, noShows: 0, lateCancellations: 0 })).toBe('first visit');
  });

  it('writes minor units in the currency’s own decimals', () => {
    expect(facts.money(6000, 'eur', 'en-GB')).toBe('€60.00');
    expect(facts.money(6000, 'JPY', 'en-GB')).toBe('JP¥6,000');
  });

  it('gives a requested guarantee its due time, and says overdue once it passed', () => {
    const before = Date.parse(due) - 60_000;
    expect(facts.guaranteeSummary(guarantee({}), before, ROME)).toEqual({
      tone: 'due',
      text: 'Deposit €60.00 requested · due 20:15',
    });
    expect(facts.guaranteeSummary(guarantee({ type: 'card' }), Date.parse(due), ROME)).toEqual({
      tone: 'due',
      text: 'Card €60.00 requested · overdue since 20:15',
    });
  });

  it('names every other status with a tone the host reads at a glance', () => {
    const now = Date.parse(due);
    const summary = (status: string, type = 'card') =>
      facts.guaranteeSummary(guarantee({ status, type }), now, ROME);
    expect(summary('authorized')).toEqual({ tone: 'ok', text: 'Card €60.00 held' });
    expect(summary('paid', 'deposit')).toEqual({ tone: 'ok', text: 'Deposit €60.00 paid' });
    expect(summary('failed')).toEqual({ tone: 'alert', text: 'Card €60.00 failed' });
    expect(summary('stuck', 'deposit')).toEqual({ tone: 'alert', text: 'Deposit €60.00 stuck: refund it' });
    expect(summary('released')).toEqual({ tone: 'done', text: 'Card €60.00 released' });
    expect(summary('refunded', 'deposit')).toEqual({ tone: 'done', text: 'Deposit €60.00 refunded' });
    expect(summary('charged')).toEqual({ tone: 'done', text: 'Card €60.00 charged' });
  });
});
