import { describe, expect, it } from 'vitest';
import { basicAuthMatcher } from '../src/google/basic-auth.js';
import { dayAvailability } from '../src/google/feed.js';
import {
  bookingFailureOf,
  bookingInput,
  googleBookingId,
  googleStatusOf,
  isAvailable,
  offeredByStart,
  parseGoogleBookingId,
  restaurantInstants,
  slotSearches,
  toGoogleBooking,
  updateIntent,
  wallClockOf,
} from '../src/google/mapping.js';

const ZONE = 'Europe/Rome';
/** 2027-05-04T20:00 in Rome (UTC+2). */
const EIGHT_PM = Date.parse('2027-05-04T18:00:00Z') / 1000;
const slotTime = (start: number, party: number, extra: Record<string, unknown> = {}) => ({
  service_id: 'prenotazione',
  start_sec: String(start),
  resource_ids: { party_size: party },
  ...extra,
});

describe("Google's slots and Coperto's times", () => {
  it("a slot's instant is the restaurant's wall clock, across midnight and DST", () => {
    expect(wallClockOf(EIGHT_PM, ZONE)).toEqual({ date: '2027-05-04', dataOra: '2027-05-04T20:00:00' });
    expect(wallClockOf(Date.parse('2027-05-04T22:30:00Z') / 1000, ZONE).date).toBe('2027-05-05');
    // 2027-10-31 03:00 CEST becomes 02:00 CET: 01:30 UTC is 02:30 local (winter time).
    expect(wallClockOf(Date.parse('2027-10-31T01:30:00Z') / 1000, ZONE).dataOra).toBe('2027-10-31T02:30:00');
  });

  it('the search a slot needs: its local date and party size', () => {
    const searchOf = slotSearches(ZONE);
    expect(searchOf(slotTime(EIGHT_PM, 4))).toEqual({ date: '2027-05-04', covers: 4 });
    expect(searchOf(slotTime(EIGHT_PM + 6 * 3600, 2))).toEqual({ date: '2027-05-05', covers: 2 });
    expect(searchOf(slotTime(EIGHT_PM + 6 * 3600, 5))).toEqual({ date: '2027-05-05', covers: 5 });
  });

  it('a slot is available when an offered time starts then and allows its duration, for our one service', () => {
    const offered = offeredByStart(
      {
        spotsTotal: 5,
        times: [
          { bookingDate: '2027-05-04T20:00:00', durationMinutes: 90, spotsOpen: 3 },
          { bookingDate: '2027-05-04T21:00:00', durationMinutes: 60, spotsOpen: 1 },
        ],
      },
      restaurantInstants(ZONE),
    );
    expect(offered).toEqual({
      spotsTotal: 5,
      starts: new Map([
        [EIGHT_PM, { minutes: 90, spotsOpen: 3 }],
        [EIGHT_PM + 3600, { minutes: 60, spotsOpen: 1 }],
      ]),
    });
    expect(isAvailable(slotTime(EIGHT_PM, 2), offered)).toBe(true);
    expect(isAvailable(slotTime(EIGHT_PM, 2, { duration_sec: '5400' }), offered)).toBe(true);
    expect(isAvailable(slotTime(EIGHT_PM + 3600, 2, { duration_sec: '5400' }), offered)).toBe(false);
    expect(isAvailable(slotTime(EIGHT_PM + 900, 2), offered)).toBe(false);
    expect(isAvailable({ ...slotTime(EIGHT_PM, 2), service_id: 'other' }, offered)).toBe(false);
  });
});

describe('requests as operation variables', () => {
  it("CreateBooking books by the autoAssign rule, the slot's stay, the guest's name and phone", () => {
    const request = {
      slot: {
        merchant_id: 'm',
        service_id: 'prenotazione',
        start_sec: EIGHT_PM,
        duration_sec: '5400',
        resources: { party_size: 3 },
      },
      user_information: {
        user_id: 'u',
        given_name: ' Giulia ',
        family_name: 'Bianchi',
        telephone: ' +39 347 1 ',
      },
      idempotency_token: 't',
      additional_request: ' window table ',
    };
    expect(bookingInput(request, ZONE)).toEqual({
      autoAssign: true,
      bookingDate: '2027-05-04T20:00:00',
      covers: 3,
      customerName: 'Giulia Bianchi',
      customerPhone: '+39 347 1',
      durationMinutes: 90,
      notes: 'window table',
    });
    const bare = bookingInput({ ...request, user_information: {}, additional_request: '' }, ZONE);
    expect(bare).toMatchObject({ customerName: 'Google', customerPhone: null });
    expect(bare).not.toHaveProperty('notes');
  });

  it('UpdateBooking: a cancel, a move of the fields the mask names, or nothing', () => {
    const booking = { booking_id: 'b:m' };
    expect(updateIntent({ booking: { ...booking, status: 'CANCELED' } }, ZONE)).toEqual({ kind: 'cancel' });
    expect(
      updateIntent(
        {
          update_mask: 'start_sec,party_size',
          booking: {
            ...booking,
            slot: { start_sec: EIGHT_PM, duration_sec: 3600, resources: { party_size: 5 } },
          },
        },
        ZONE,
      ),
    ).toEqual({ kind: 'move', patch: { bookingDate: '2027-05-04T20:00:00', covers: 5 } });
    expect(updateIntent({ booking: { ...booking, status: 'CONFIRMED' } }, ZONE)).toBeNull();
    // A guest's move keeps the party's turn time: a new duration alone changes nothing.
    expect(updateIntent({ booking: { ...booking, slot: { duration_sec: 3600 } } }, ZONE)).toBeNull();
    expect(
      updateIntent({ update_mask: 'status', booking: { ...booking, slot: { start_sec: 1 } } }, ZONE),
    ).toBeNull();
  });
});

describe("Coperto's answers as Google's", () => {
  it('a booking id carries the merchant id (GetBookingStatus names only the booking); bad ids parse to null', () => {
    const id = googleBookingId('trattoria:roma', '6f1c');
    expect(parseGoogleBookingId(id)).toEqual({ bookingId: '6f1c', merchantId: 'trattoria:roma' });
    for (const bad of ['nocolon', ':m', 'b:']) expect(parseGoogleBookingId(bad)).toBeNull();
  });

  it('a held table is CONFIRMED whatever the restaurant flow; cancelled and no-show as such', () => {
    expect(['pending', 'confermata', 'caparra_pagata', 'completata'].map(googleStatusOf)).toEqual(
      Array(4).fill('CONFIRMED'),
    );
    expect(googleStatusOf('annullata')).toBe('CANCELED');
    expect(googleStatusOf('no_show')).toBe('NO_SHOW');
  });

  it("a booking's slot: its start, its effective stay, its party", () => {
    const booking = toGoogleBooking(
      {
        id: 'b1',
        startsAt: '2027-05-04T18:00:00.000Z',
        covers: 2,
        state: 'pending',
        effectiveDurationMinutes: 105,
        customerName: 'x',
        customerPhone: null,
      },
      'm1',
      undefined,
    );
    expect(booking).toEqual({
      booking_id: 'b1:m1',
      slot: {
        merchant_id: 'm1',
        service_id: 'prenotazione',
        start_sec: String(EIGHT_PM),
        duration_sec: '6300',
        resources: { party_size: 2 },
      },
      status: 'CONFIRMED',
      payment_information: { prepayment_status: 'PREPAYMENT_NOT_PROVIDED' },
    });
  });

  it('refusals as booking_failure causes; a bad request or an outage is no business failure', () => {
    for (const code of [
      'NO_TABLE_AVAILABLE',
      'TABLE_UNAVAILABLE',
      'OPTION_EXPIRED',
      'LOCK_CONFLICT',
    ] as const) {
      expect(bookingFailureOf(code, false)?.cause).toBe('SLOT_UNAVAILABLE');
    }
    expect(bookingFailureOf('INVALID_TRANSITION', true)?.cause).toBe('BOOKING_NOT_CANCELLABLE');
    expect(bookingFailureOf('INVALID_TRANSITION', false)?.cause).toBe('CAUSE_UNSPECIFIED');
    for (const code of ['VALIDATION_FAILED', 'UNAVAILABLE', 'INTERNAL', 'NOT_FOUND'] as const) {
      expect(bookingFailureOf(code, false)).toBeNull();
    }
  });
});

describe("the feed's day", () => {
  it("every start any party may take, for each party size; the party's places and how many are free then", () => {
    const byParty = [
      {
        spotsTotal: 6,
        starts: new Map([
          [100, { minutes: 120, spotsOpen: 4 }],
          [200, { minutes: 90, spotsOpen: 1 }],
        ]),
      },
      { spotsTotal: 3, starts: new Map([[100, { minutes: 120, spotsOpen: 2 }]]) },
      { spotsTotal: 1, starts: new Map() },
    ];
    const records = dayAvailability('m', byParty);
    expect(
      records.map((r) => [r.start_sec, r.resources.party_size, r.spots_open, r.spots_total, r.duration_sec]),
    ).toEqual([
      ['100', 1, 4, 6, '7200'],
      ['100', 2, 2, 3, '7200'],
      ['100', 3, 0, 1, '7200'],
      ['200', 1, 1, 6, '5400'],
      ['200', 2, 0, 3, '5400'],
      ['200', 3, 0, 1, '5400'],
    ]);
    expect(records.every((r) => r.merchant_id === 'm')).toBe(true);
  });
});

describe("Google's partner credentials", () => {
  const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;
  it('passes exactly the configured user and password; nothing when none are configured', () => {
    const matches = basicAuthMatcher({ user: 'google', password: 'p:ss' });
    expect(matches(basic('google:p:ss'))).toBe(true);
    expect(matches(basic('google:p:s'))).toBe(false);
    expect(matches(basic('Google:p:ss'))).toBe(false);
    expect(matches('Bearer x')).toBe(false);
    expect(matches(undefined)).toBe(false);
    expect(basicAuthMatcher(undefined)(basic('google:p:ss'))).toBe(false);
  });
});
