import { describe, expect, it } from 'vitest';
import { bookingOfEvent } from '../src/webhooks/stripe-webhook.js';

const eventWith = (metadata: unknown) => ({
  id: 'evt_1',
  type: 'x',
  data: { object: { id: 'pi_1', metadata } },
});

describe('bookingOfEvent (the tenant and booking a payments token is made for)', () => {
  it('reads them from the metadata the service put on the intent', () => {
    expect(bookingOfEvent(eventWith({ tenantId: 't-1', bookingId: 'b1', tentativo: '1' }))).toEqual({
      tenantId: 't-1',
      bookingId: 'b1',
    });
  });

  it('is null for an event that is not of ours or names an impossible tenant or booking', () => {
    expect(bookingOfEvent(eventWith(undefined))).toBeNull();
    expect(bookingOfEvent(eventWith({ bookingId: 'b1' }))).toBeNull();
    expect(bookingOfEvent(eventWith({ tenantId: 'a b', bookingId: 'b1' }))).toBeNull();
    expect(bookingOfEvent(eventWith({ tenantId: 't1', bookingId: 'x'.repeat(129) }))).toBeNull();
    expect(bookingOfEvent(eventWith({ tenantId: 't1', bookingId: 7 }))).toBeNull();
    expect(bookingOfEvent({ id: 'evt_1', data: null })).toBeNull();
    expect(bookingOfEvent(null)).toBeNull();
  });
});
