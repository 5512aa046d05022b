/**
 * 14. A Friday rush (issue 37 item 8): 300 guests reach the booking channel within ten seconds for the same evening,
 * each asking for times near 20:00 (`GET /api/disponibilita`, the channel's key) and booking the first time offered
 * (`POST /api/prenotazioni` with autoAssign, and the offer's `durationMinutes` when it is a shortened seating). A
 * booking refused because the time was taken meanwhile (409) asks again and books the next offer, at most three
 * times. Counted: guests booked, guests offered nothing (the evening is full), 409s, any 5xx; p50/p99 of the search
 * and of the booking; and, read back afterwards, active bookings of one table that overlap (double bookings).
 */
import { join } from 'node:path';
import { ApiError, createApi, mapLimit, type Api } from '../api.js';
import { row, type BenchContext } from '../context.js';
import { ms, num } from '../format.js';
import { log } from '../log.js';
import { freePorts } from '../ports.js';
import { httpOk, spawnService, waitUntil } from '../processes.js';
import { BOOKING_DAY, seedTables } from '../seed.js';
import { percentile, sortedCopy } from '../stats.js';
import { mintToken } from '../tokens.js';

const GUESTS = 300;
const ARRIVALS_MS = 10_000;
const TABLES = 40;
const TRIES = 3;

interface Offer {
  bookingDate: string;
  durationMinutes: number;
  shortened: boolean;
}
interface Booking {
  id: string;
  state: string;
  tableIds: string[];
  startsAt: string;
  endsAt: string;
}
type Outcome = 'booked' | 'nothing offered' | 'gave up after 409s' | 'error';

/** Guest `n`: a party of 2, 2, 4, 3, 6, 2, 5, 4 … asking for 20:00, or a quarter hour either side. */
function guest(n: number) {
  const covers = [2, 2, 4, 3, 6, 2, 5, 4][n % 8]!;
  const time = ['20:00', '19:45', '20:15', '20:00'][n % 4]!;
  return { covers, time };
}

/** One guest's visit: search, book the first offer, again after a 409, at most TRIES times. */
async function visit(channel: Api, n: number, searches: number[], bookings: number[], statuses: number[]) {
  const { covers, time } = guest(n);
  for (let attempt = 0; attempt < TRIES; attempt++) {
    let start = performance.now();
    const found = await channel
      .call<{ times: Offer[] }>('GET', `/api/disponibilita?date=${BOOKING_DAY}&covers=${covers}&time=${time}`)
      .catch((error: unknown) => error);
    searches.push(performance.now() - start);
    if (found instanceof ApiError) {
      statuses.push(found.status);
      return 'error' as Outcome;
    }
    if (found instanceof Error) return 'error' as Outcome;
    const offer = (found as { times: Offer[] }).times[0];
    if (!offer) return 'nothing offered' as Outcome;
    start = performance.now();
    try {
      await channel.call('POST', '/api/prenotazioni', {
        covers,
        bookingDate: offer.bookingDate,
        ...(offer.shortened ? { durationMinutes: offer.durationMinutes } : {}),
        autoAssign: true,
        customerName: `Ospite ${n}`,
        customerPhone: `+39 333 ${String(1_000_000 + n)}`,
      });
      bookings.push(performance.now() - start);
      statuses.push(201);
      return 'booked' as Outcome;
    } catch (error) {
      bookings.push(performance.now() - start);
      const status = error instanceof ApiError ? error.status : 0;
      statuses.push(status);
      if (status !== 409) return 'error' as Outcome;
    }
  }
  return 'gave up after 409s' as Outcome;
}

/** Active bookings of one table whose stays overlap: what the service promises never happens. */
function doubleBookings(bookings: readonly Booking[]): number {
  const active = bookings.filter((b) => ['pending', 'confermata', 'caparra_pagata'].includes(b.state));
  let overlaps = 0;
  for (const [i, a] of active.entries())
    for (const b of active.slice(i + 1))
      if (a.tableIds.some((t) => b.tableIds.includes(t)) && a.startsAt < b.endsAt && b.startsAt < a.endsAt)
        overlaps++;
  return overlaps;
}

export async function scenario14(ctx: BenchContext): Promise<void> {
  const scenario = `14 Friday rush: ${num(GUESTS)} guests through the channel within ${ARRIVALS_MS / 1000} s`;
  const [port, health, metrics] = (await freePorts(3)) as [number, number, number];
  const proc = spawnService(ctx.config, 'gateway-s14', 'gateway/src/index.ts', {
    COPERTO_MODE: 'embedded',
    PORT: String(port),
    HEALTH_PORT: String(health),
    METRICS_PORT: String(metrics),
    DATA_DIR: join(ctx.config.tmpDir, 'gateway-s14-data'),
    JWT_SECRET: ctx.jwtSecret,
    // The rush measures seating under contention, not the request budgets (its 300 guests all call from this
    // machine's one address: the channel's per-address budget would count them as one).
    RATE_LIMIT_TENANT_RPS: '0',
    RATE_LIMIT_CHANNEL_RPS: '0',
    RATE_LIMIT_CHANNEL_ADDRESS_RPS: '0',
  });
  try {
    await waitUntil(proc, 'readiness', httpOk(`http://127.0.0.1:${health}/public/health/ready`));
    const baseUrl = `http://127.0.0.1:${port}`;
    const admin = createApi(baseUrl, await mintToken(ctx.jwtSecret, 'bench-s14', { admin: true }));
    await admin.call('PUT', '/api/capacity/config', { timeZone: 'UTC', shortenedMinMinutes: 60 });
    await seedTables(admin, { rooms: 2, tables: TABLES });
    const { key } = await admin.call<{ key: string }>('POST', '/api/canali', { name: 'Sito' });
    const channel = createApi(baseUrl, key);

    const searches: number[] = [];
    const bookingTimes: number[] = [];
    const statuses: number[] = [];
    const began = performance.now();
    const cpuBefore = proc.cpuSeconds();
    const outcomes = await mapLimit(
      Array.from({ length: GUESTS }, (_, n) => n),
      GUESTS,
      async (n) => {
        await new Promise((resolve) => setTimeout(resolve, (n * ARRIVALS_MS) / GUESTS));
        return visit(channel, n, searches, bookingTimes, statuses);
      },
    );
    const wall = performance.now() - began;
    const cpuAfter = proc.cpuSeconds();
    const count = (o: Outcome) => outcomes.filter((x) => x === o).length;
    const booked = await admin.call<{ items: Booking[] }>(
      'GET',
      `/api/prenotazioni/sync?dal=${BOOKING_DAY}&al=${BOOKING_DAY}&limit=5000`,
    );
    const overlaps = doubleBookings(booked.items);
    const serverErrors = statuses.filter((s) => s >= 500).length;
    const refusals = statuses.filter((s) => s === 409).length;
    log(
      `s14: ${count('booked')} booked, ${count('nothing offered')} offered nothing, ${count('gave up after 409s')} gave up, ${count('error')} errors; ${refusals} 409s, ${serverErrors} 5xx, ${overlaps} double bookings, ${booked.items.length} bookings read back, ${ms(wall)}`,
    );
    const p = (values: number[], q: number) => ms(percentile(sortedCopy(values), q));
    ctx.rows.push(
      row({
        scenario,
        what: 'guests booked / offered nothing / gave up after 409s / errors',
        ours: `${count('booked')} / ${count('nothing offered')} / ${count('gave up after 409s')} / ${count('error')}`,
        baseline: '',
        ratio: '',
        notes: `${refusals} bookings refused 409 (the time taken meanwhile; asked again), ${serverErrors} answers 5xx, ${booked.items.length} bookings read back`,
      }),
      row({
        scenario,
        what: 'double bookings (active bookings of one table overlapping), read back',
        ours: String(overlaps),
        baseline: '0',
        ratio: '',
      }),
      row({
        scenario,
        what: 'search p50 / p99',
        ours: `${p(searches, 50)} / ${p(searches, 99)}`,
        baseline: '',
        ratio: '',
        notes: `${num(searches.length)} searches`,
      }),
      row({
        scenario,
        what: 'booking p50 / p99',
        ours: `${p(bookingTimes, 50)} / ${p(bookingTimes, 99)}`,
        baseline: '',
        ratio: '',
        notes: `${num(bookingTimes.length)} bookings tried; the rush took ${ms(wall)}, the process's CPU ${cpuBefore !== null && cpuAfter !== null ? ms((cpuAfter - cpuBefore) * 1000) : 'unknown'}`,
      }),
    );
    ctx.method.push(
      `**14.** The embedded process (compiled), one tenant: ${TABLES} tables in 2 rooms (2, 4, 4, 6 and 8 seats), capacity's zone UTC and default opening hours, shortened seatings from 60 minutes, no tenant rate limit. ${num(GUESTS)} guests arrive evenly over ${ARRIVALS_MS / 1000} s, all in flight at once, with a booking channel's key: each asks GET /api/disponibilita for ${BOOKING_DAY} near 20:00 (parties of 2–6) and books the first time offered with autoAssign; a 409 asks again, at most ${TRIES} times. Then the day's bookings are read back (sync) and every pair of active bookings of one table is checked for overlap.`,
    );
  } finally {
    await proc.stop();
  }
}
