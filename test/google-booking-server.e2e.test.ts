// Reserve with Google's booking server (docs/integrations.md): HTTP Basic, merchant links, BatchAvailabilityLookup,
// CreateBooking once per idempotency token under concurrency, UpdateBooking, GetBookingStatus, ListBookings and the
// availability feed, through the gateway in both modes.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mintToken, newTenantId } from '@coperto/testkit';
import { MODES, SHARED_STACK_ENV, startStack } from './support/modes.js';
import type { Stack } from './support/stack.js';

const { GOOGLE_BOOKING_USER: USER, GOOGLE_BOOKING_PASSWORD: PASSWORD } = SHARED_STACK_ENV;
const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
/** Europe/Rome (the stacks' RESTAURANT_TIMEZONE) is UTC+2 in May 2027. */
const startSec = (local: string) => String(Date.parse(`${local}:00+02:00`) / 1000);

describe.each(MODES)("Reserve with Google's booking server (%s mode)", (mode) => {
  let stack: Stack;
  let admin: string;
  let staff: string;
  let merchantId: string;
  let channelId: string;

  beforeAll(async () => {
    stack = await startStack(mode);
    const tenantId = newTenantId();
    admin = await mintToken({ tenantId, admin: true });
    staff = await mintToken({ tenantId });
    merchantId = `trattoria-${tenantId}`;
    for (const seats of [2, 2, 4, 6]) {
      await stack.api('POST', '/api/tavoli', {
        token: admin,
        body: { name: `T${seats}-${randomUUID()}`, seats },
      });
    }
  });
  afterAll(async () => stack?.close());

  const google = (method: string, body?: unknown, authorization = basic(USER, PASSWORD)) =>
    stack.api(body === undefined ? 'GET' : 'POST', `/google/v3/${method}`, {
      headers: { authorization },
      ...(body === undefined ? {} : { body }),
    });
  const slot = (local: string, party: number) => ({
    merchant_id: merchantId,
    service_id: 'prenotazione',
    start_sec: startSec(local),
    duration_sec: '5400',
    resources: { party_size: party },
  });
  const user = (id: string) => ({
    user_id: id,
    given_name: 'Giulia',
    family_name: 'Bianchi',
    telephone: '+39 347 555 0101',
    email: 'giulia@example.com',
  });

  it('answers only with the partner credentials (401 otherwise, before anything else)', async () => {
    expect((await google('HealthCheck')).status).toBe(200);
    for (const authorization of ['', basic(USER, 'wrong'), basic('other', PASSWORD), `Bearer ${admin}`]) {
      const health = await google('HealthCheck', undefined, authorization);
      expect(health.status).toBe(401);
      expect(health.headers.get('www-authenticate')).toMatch(/^Basic /);
      expect((await google('BatchAvailabilityLookup', { merchant_id: 'x' }, authorization)).status).toBe(401);
    }
  });

  it('an administrator links the restaurant to its merchant id; Google finds it by that id only', async () => {
    expect((await google('BatchAvailabilityLookup', { merchant_id: merchantId, slot_time: [] })).status).toBe(
      404,
    );
    expect((await stack.api('GET', '/api/integrazioni/google', { token: admin })).status).toBe(404);
    const forbidden = await stack.api('PUT', '/api/integrazioni/google', {
      token: staff,
      body: { merchantId },
    });
    expect(forbidden.status).toBe(403);
    const bad = await stack.api('PUT', '/api/integrazioni/google', {
      token: admin,
      body: { merchantId: 'a b' },
    });
    expect(bad.status).toBe(400);
    const linked = await stack.api('PUT', '/api/integrazioni/google', { token: admin, body: { merchantId } });
    expect(linked.status).toBe(200);
    expect(linked.body).toMatchObject({ merchantId, canaleId: linked.body.channelId });
    channelId = linked.body.channelId;
    expect((await stack.api('GET', '/api/integrazioni/google', { token: admin })).body).toEqual(linked.body);
    const other = await mintToken({ tenantId: newTenantId(), admin: true });
    const taken = await stack.api('PUT', '/api/integrazioni/google', { token: other, body: { merchantId } });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('DUPLICATE');
  });

  it('BatchAvailabilityLookup: one answer per slot, in order, from the availability search', async () => {
    const asked = [
      slot('2027-05-04T20:00', 2),
      slot('2027-05-04T20:00', 6),
      slot('2027-05-04T20:00', 40),
      slot('2027-05-04T04:00', 2),
      { ...slot('2027-05-04T20:00', 2), service_id: 'other' },
    ].map(({ merchant_id: _, resources, ...rest }) => ({ ...rest, resource_ids: resources }));
    const res = await google('BatchAvailabilityLookup', { merchant_id: merchantId, slot_time: asked });
    expect(res.status).toBe(200);
    expect(res.body.slot_time_availability).toEqual(
      asked.map((slotTime, index) => ({ slot_time: slotTime, available: index < 2 })),
    );
    const bad = await google('BatchAvailabilityLookup', {
      merchant_id: merchantId,
      slot_time: [{ start_sec: 'x' }],
    });
    expect(bad.status).toBe(400);
  });

  it('CreateBooking repeated concurrently with one idempotency_token makes one booking, origine google', async () => {
    const request = {
      slot: slot('2027-05-05T20:00', 2),
      user_information: user(`user-${randomUUID()}`),
      idempotency_token: randomUUID(),
      payment_information: { prepayment_status: 'PREPAYMENT_NOT_PROVIDED' },
    };
    const answers = await Promise.all(Array.from({ length: 6 }, () => google('CreateBooking', request)));
    for (const answer of answers) expect(answer.status).toBe(200);
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    const { booking } = answers[0]!.body;
    expect(booking).toMatchObject({
      slot: { merchant_id: merchantId, start_sec: request.slot.start_sec, resources: { party_size: 2 } },
      status: 'CONFIRMED',
      user_information: request.user_information,
    });
    const day = await stack.api('GET', '/api/prenotazioni?dal=2027-05-05&al=2027-05-05', { token: staff });
    expect(day.body).toHaveLength(1);
    expect(day.body[0]).toMatchObject({
      customerName: 'Giulia Bianchi',
      covers: 2,
      origine: 'google',
      canale: { id: channelId, nome: 'Google' },
    });
    expect(booking.booking_id).toBe(`${day.body[0].id}:${merchantId}`);
    // Later repeats get the same answer; the booking is linked to its guest by the phone.
    expect((await google('CreateBooking', request)).body).toEqual(answers[0]!.body);
    await vi.waitFor(
      async () => {
        const guests = await stack.api('GET', '/api/ospiti?q=%2B393475550101', { token: staff });
        expect(guests.body).toHaveLength(1);
      },
      { timeout: 15_000, interval: 200 },
    );
  });

  it('a slot nobody can take is a booking_failure (HTTP 200), kept for the token too', async () => {
    const request = {
      slot: slot('2027-05-06T20:00', 40),
      user_information: user(`user-${randomUUID()}`),
      idempotency_token: randomUUID(),
    };
    const res = await google('CreateBooking', request);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      booking_failure: { cause: 'SLOT_UNAVAILABLE', description: expect.any(String) },
    });
    expect((await google('CreateBooking', request)).body).toEqual(res.body);
  });

  it('GetBookingStatus, UpdateBooking (cancel) and ListBookings of Google bookings only', async () => {
    const userId = `user-${randomUUID()}`;
    const made = await google('CreateBooking', {
      slot: slot('2027-05-07T19:30', 4),
      user_information: user(userId),
      idempotency_token: randomUUID(),
    });
    const bookingId = made.body.booking.booking_id as string;
    const status = await google('GetBookingStatus', { booking_id: bookingId });
    expect(status.body).toEqual({
      booking_id: bookingId,
      booking_status: 'CONFIRMED',
      prepayment_status: 'PREPAYMENT_NOT_PROVIDED',
    });
    const listed = await google('ListBookings', { user_id: userId });
    expect(listed.body.bookings).toEqual([
      expect.objectContaining({ booking_id: bookingId, status: 'CONFIRMED', slot: made.body.booking.slot }),
    ]);

    // A move, as the booking's guest would make it: placed again at the new time.
    const later = startSec('2027-05-07T21:00');
    const moved = await google('UpdateBooking', {
      update_mask: 'start_sec',
      booking: { booking_id: bookingId, slot: { start_sec: later, duration_sec: '3600' } },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.booking).toMatchObject({ booking_id: bookingId, slot: { start_sec: later } });
    const full = await google('UpdateBooking', {
      booking: { booking_id: bookingId, slot: { start_sec: later, resources: { party_size: 40 } } },
    });
    expect(full.body).toEqual({
      booking_failure: { cause: 'SLOT_UNAVAILABLE', description: expect.any(String) },
    });

    const cancel = { booking: { booking_id: bookingId, status: 'CANCELED' }, update_mask: 'status' };
    const cancelled = await google('UpdateBooking', cancel);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.booking).toMatchObject({ booking_id: bookingId, status: 'CANCELED' });
    expect((await google('UpdateBooking', cancel)).body).toEqual({
      booking_failure: { cause: 'BOOKING_ALREADY_CANCELLED', description: expect.any(String) },
    });
    expect((await google('GetBookingStatus', { booking_id: bookingId })).body.booking_status).toBe(
      'CANCELED',
    );
    const coperto = await stack.api('GET', `/api/prenotazioni/${bookingId.split(':')[0]}`, { token: staff });
    expect(coperto.body.state).toBe('annullata');

    // A staff booking of the same restaurant is not Google's: 404, as an id that does not exist.
    const own = await stack.api('POST', '/api/prenotazioni', {
      token: staff,
      body: { covers: 2, bookingDate: '2027-05-08T20:00', customerName: 'Rossi', autoAssign: true },
    });
    for (const id of [`${own.body.id}:${merchantId}`, `${randomUUID()}:${merchantId}`, 'nonsense']) {
      expect((await google('GetBookingStatus', { booking_id: id })).status).toBe(404);
      expect(
        (await google('UpdateBooking', { booking: { booking_id: id, status: 'CANCELED' } })).status,
      ).toBe(404);
    }
  });

  it('the availability feed: every slot and party size up to the largest fit, from the same search', async () => {
    expect((await stack.api('GET', '/api/integrazioni/google/feed?giorni=2', { token: staff })).status).toBe(
      403,
    );
    expect((await stack.api('GET', '/api/integrazioni/google/feed?giorni=91', { token: admin })).status).toBe(
      400,
    );
    const feed = await stack.api('GET', '/api/integrazioni/google/feed?giorni=2', { token: admin });
    expect(feed.status).toBe(200);
    expect(feed.body.metadata).toMatchObject({ processing_instruction: 'PROCESS_AS_COMPLETE' });
    const records = feed.body.service_availability[0].availability as Array<Record<string, any>>;
    const parties = new Set(records.map((r) => r.resources.party_size));
    // 2+2+4+6 seats: single tables up to 6 (no combination was made).
    expect([...parties].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(records.every((r) => r.merchant_id === merchantId)).toBe(true);
    // spots_total: the tables that seat the party; spots_open: how many of them are free then
    const totals = new Map(records.map((r) => [r.resources.party_size, r.spots_total]));
    expect([...totals].sort((a, b) => a[0] - b[0])).toEqual([
      [1, 4],
      [2, 4],
      [3, 2],
      [4, 2],
      [5, 1],
      [6, 1],
    ]);
    expect(records.every((r) => r.spots_open >= 0 && r.spots_open <= r.spots_total)).toBe(true);
    expect(records.some((r) => r.resources.party_size === 2 && r.spots_open > 1)).toBe(true);
    const sample = records.find((r) => r.spots_open === 1 && r.resources.party_size === 6)!;
    const check = await google('BatchAvailabilityLookup', {
      merchant_id: merchantId,
      slot_time: [
        { service_id: 'prenotazione', start_sec: sample.start_sec, resource_ids: { party_size: 6 } },
      ],
    });
    expect(check.body.slot_time_availability[0].available).toBe(true);
  });
});
