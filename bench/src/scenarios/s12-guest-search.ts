/**
 * 12. Guest search (`GET /api/ospiti?q=`, docs/guests.md) on a tenant with 20,000 guests against one with 2,000,
 * in the same embedded process (compiled), same run. The guests are made as in production: bookings uploaded
 * through the batch endpoint, each with its own phone number, linked by ospiti's consumer from their events.
 * Names come from 40 first names × 50 surnames, so a surname is shared by 1 in 50 guests (400 of 20,000) and a
 * first-and-last name by 1 in 2,000. Each round times the same queries on both tenants, alternating which goes
 * first; p99 per query kind, median over the rounds.
 */
import { join } from 'node:path';
import { createApi, mapLimit, type Api } from '../api.js';
import { row, type BenchContext } from '../context.js';
import { ms, num, ratio } from '../format.js';
import { log } from '../log.js';
import { freePorts } from '../ports.js';
import { httpOk, spawnService, waitUntil } from '../processes.js';
import { median, percentile, sortedCopy } from '../stats.js';
import { mintToken } from '../tokens.js';

const SMALL = 2_000;
const LARGE = 20_000;
const BATCH_ITEMS = 200;
const BATCHES_IN_FLIGHT = 1;
const UPLOAD_ATTEMPTS = 5;
const REQUESTS_PER_KIND = 100;
const FIRST =
  'Maria Giulia Anna Sara Elena Laura Chiara Paola Marta Silvia Franca Rita Teresa Ada Irene Luisa Carla Nadia Rosa Lucia Marco Luca Paolo Andrea Giorgio Franco Piero Carlo Enzo Sergio Bruno Dario Ettore Fabio Guido Ivo Lino Mario Nino Ugo'.split(
    ' ',
  );
const LAST =
  'Rossi Russo Ferrari Esposito Bianchi Romano Colombo Ricci Marino Greco Bruno Gallo Conti DeLuca Mancini Costa Giordano Rizzo Lombardi Moretti Barbieri Fontana Santoro Mariani Rinaldi Caruso Ferrara Galli Martini Leone Longo Gentile Martinelli Vitale Lombardo Serra Coppola DeSantis DAngelo Marchetti Parisi Villa Conte Ferraro Ferri Fabbri Bianco Marini Grasso Valentini'.split(
    ' ',
  );

const nameOf = (i: number) =>
  `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]}`;
/** Distinct valid Italian mobile numbers: 347 followed by seven digits. */
const phoneOf = (i: number) => `+39 347 ${String(i).padStart(7, '0')}`;

/**
 * Bookings 0…count-1, each with its guest's name and phone, through POST /api/prenotazioni/batch. An upload that
 * times out (the process is busy linking the previous ones) is sent again: the external ids make that idempotent.
 */
async function fill(api: Api, count: number) {
  const starts = Array.from({ length: Math.ceil(count / BATCH_ITEMS) }, (_, b) => b * BATCH_ITEMS);
  await mapLimit(starts, BATCHES_IN_FLIGHT, async (start) => {
    const items = Array.from({ length: Math.min(BATCH_ITEMS, count - start) }, (_, k) => ({
      externalId: `s12-${start + k}`,
      covers: 2,
      bookingDate: `2031-0${1 + ((start + k) % 9)}-${String(1 + ((start + k) % 28)).padStart(2, '0')}T20:00`,
      customerName: nameOf(start + k),
      customerPhone: phoneOf(start + k),
    }));
    for (let attempt = 1; ; attempt++) {
      try {
        await api.call('POST', '/api/prenotazioni/batch', { items });
        return;
      } catch (error) {
        if (attempt >= UPLOAD_ATTEMPTS || (error as Error).name !== 'TimeoutError') throw error;
        log(`s12: batch at ${start} timed out, sending it again`);
      }
    }
  });
}

/** How long ospiti's consumer may take to link the bookings (fewer than 24 a second was seen on 2 loaded cores). */
const LINK_BOUND_MS = 45 * 60_000;

/** Until ospiti has linked the last booking: its guest is found by its whole phone number. */
async function linked(api: Api, count: number) {
  const deadline = Date.now() + LINK_BOUND_MS;
  const last = encodeURIComponent(phoneOf(count - 1));
  while ((await api.call<unknown[]>('GET', `/api/ospiti?q=${last}`)).length === 0) {
    if (Date.now() > deadline) throw new Error(`ospiti did not link ${count} bookings within 15 minutes`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

const KINDS = {
  surname: (i: number) => LAST[i % LAST.length]!,
  'first and last name': (i: number) => nameOf(i * 37),
  'phone, last 7 digits': (i: number) => String(i * 13).padStart(7, '0'),
} as const;
type Kind = keyof typeof KINDS;

async function timeKind(api: Api, kind: Kind, size: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < REQUESTS_PER_KIND; i++) {
    const q = KINDS[kind](i % Math.min(size, 2_000));
    const began = performance.now();
    await api.call('GET', `/api/ospiti?q=${encodeURIComponent(q)}`);
    times.push(performance.now() - began);
  }
  return times;
}

export async function scenario12(ctx: BenchContext): Promise<void> {
  const scenario = '12 guest search, 20,000 guests against 2,000';
  const [port, health, metrics] = (await freePorts(3)) as [number, number, number];
  const proc = spawnService(ctx.config, 'gateway-s12', 'gateway/src/index.ts', {
    COPERTO_MODE: 'embedded',
    PORT: String(port),
    HEALTH_PORT: String(health),
    METRICS_PORT: String(metrics),
    DATA_DIR: join(ctx.config.tmpDir, 'gateway-s12-data'),
    JWT_SECRET: ctx.jwtSecret,
  });
  try {
    await waitUntil(proc, 'readiness', httpOk(`http://127.0.0.1:${health}/public/health/ready`));
    const baseUrl = `http://127.0.0.1:${port}`;
    const small = createApi(baseUrl, await mintToken(ctx.jwtSecret, 'bench-s12-small'));
    const large = createApi(baseUrl, await mintToken(ctx.jwtSecret, 'bench-s12-large'));
    const seeding = Date.now();
    await fill(small, SMALL);
    await fill(large, LARGE);
    const uploaded = (Date.now() - seeding) / 1000;
    await linked(small, SMALL);
    await linked(large, LARGE);
    const made = (Date.now() - seeding) / 1000;
    log(
      `s12: ${SMALL + LARGE} bookings uploaded in ${uploaded.toFixed(0)} s, their guests linked after ${made.toFixed(0)} s`,
    );
    const sides = [
      { name: 'large', api: large, size: LARGE },
      { name: 'small', api: small, size: SMALL },
    ] as const;
    for (const side of sides)
      for (const kind of Object.keys(KINDS) as Kind[]) await timeKind(side.api, kind, side.size);
    const p99s = new Map<string, number[]>();
    for (let round = 0; round < ctx.config.rounds; round++) {
      const order = round % 2 === 0 ? sides : [...sides].reverse();
      for (const side of order) {
        for (const kind of Object.keys(KINDS) as Kind[]) {
          const times = await timeKind(side.api, kind, side.size);
          const key = `${side.name}/${kind}`;
          p99s.set(key, [...(p99s.get(key) ?? []), percentile(sortedCopy(times), 99)]);
        }
      }
    }
    for (const kind of Object.keys(KINDS) as Kind[]) {
      const ours = median(p99s.get(`large/${kind}`)!);
      const baseline = median(p99s.get(`small/${kind}`)!);
      log(`s12: ${kind}: p99 ${ms(ours)} at ${LARGE} guests, ${ms(baseline)} at ${SMALL}`);
      ctx.rows.push(
        row({
          scenario,
          what: `search by ${kind}: p99 at ${num(LARGE)} guests (baseline: ${num(SMALL)})`,
          ours: ms(ours),
          baseline: ms(baseline),
          ratio: ratio(ours, baseline),
          notes: `guests made (upload and linking) in ${made.toFixed(0)} s; ${REQUESTS_PER_KIND} sequential requests per round and tenant; p99 per round: ${p99s
            .get(`large/${kind}`)!
            .map(ms)
            .join(', ')} against ${p99s.get(`small/${kind}`)!.map(ms).join(', ')}`,
        }),
      );
    }
    ctx.method.push(
      `**12.** The embedded process (compiled), two tenants: ${num(SMALL)} and ${num(LARGE)} guests, each made by one booking uploaded through POST /api/prenotazioni/batch with its own phone (+39 347 …) and a name from 40 first names × 50 surnames, linked by ospiti's consumer (waited for). Per round and tenant (alternating which goes first), ${REQUESTS_PER_KIND} sequential GET /api/ospiti?q= of each kind: a surname (1 guest in 50 has it; at most 50 answered), a first and last name (1 in 2,000), the last 7 digits of a phone; p99 per round, median of ${ctx.config.rounds} rounds, after one untimed pass.`,
    );
  } finally {
    await proc.stop();
  }
}
