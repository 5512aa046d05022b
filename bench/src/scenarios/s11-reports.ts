/**
 * 11. A month's report (GET /api/report, docs/reports.md) for a tenant with 20,000 bookings in the month against
 * one with 2,000, in the same embedded process (compiled): the time of the report and the process's CPU per
 * report, and their growth (ratio). Each tenant: 60 tables, its bookings uploaded through the batch endpoint over
 * the 30 days up to today, and a seating for every tenth booking (occupied, payment_pending with a check, free:
 * the table status events rapporti's consumer keeps).
 */
import { join } from 'node:path';
import { createApi, mapLimit, type Api } from '../api.js';
import { row, type BenchContext } from '../context.js';
import { ms, num, ratio } from '../format.js';
import { log } from '../log.js';
import { freePorts } from '../ports.js';
import { httpOk, spawnService, waitUntil } from '../processes.js';
import { seedTables, type Table } from '../seed.js';
import { median } from '../stats.js';
import { mintToken } from '../tokens.js';

const SIZES = [2_000, 20_000] as const;
const DAYS = 30;
const BATCH_ITEMS = 500;
const SEATED_EVERY = 10;
const TIMED_REQUESTS = 5;
const DAY_MS = 86_400_000;

/** The local date (UTC) `days` before today. */
const dateBefore = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString().slice(0, 10);

async function seedTenant(api: Api, bookings: number): Promise<{ tables: Table[]; seatings: number }> {
  await api.call('PUT', '/api/capacity/config', { timeZone: 'UTC' });
  const tables = await seedTables(api, { rooms: 3, tables: 60 });
  const batches = Array.from({ length: Math.ceil(bookings / BATCH_ITEMS) }, (_, b) => b * BATCH_ITEMS);
  await mapLimit(batches, 2, async (start) => {
    const items = Array.from({ length: Math.min(BATCH_ITEMS, bookings - start) }, (_, i) => {
      const n = start + i;
      // Spread over the month's evenings, 19:00–22:45, without tables (they are many more than 60 tables seat).
      const minute = 19 * 60 + ((n * 15) % 240);
      return {
        covers: 1 + (n % 6),
        bookingDate: `${dateBefore(1 + (n % (DAYS - 1)))}T${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`,
        customerName: `Ospite ${n}`,
        externalId: `s11-${n}`,
      };
    });
    const answer = await api.call<{ created: number }>('POST', '/api/prenotazioni/batch', { items });
    if (answer.created !== items.length) throw new Error(`s11: batch at ${start}: ${answer.created} created`);
  });
  // One table at a time in order (its turns follow each other); the tables in parallel.
  const seatings = Math.floor(bookings / SEATED_EVERY);
  const perTable = Math.ceil(seatings / tables.length);
  await mapLimit(tables, 8, async (table, t) => {
    for (let s = 0; s < perTable && t * perTable + s < seatings; s++) {
      await api.call('PUT', `/api/tavoli/${table.id}/status`, { status: 'occupied', pax: 2 });
      await api.call('PUT', `/api/tavoli/${table.id}/status`, { status: 'payment_pending', totalAmount: 60 });
      await api.call('PUT', `/api/tavoli/${table.id}/status`, { status: 'free' });
    }
  });
  return { tables, seatings };
}

export async function scenario11(ctx: BenchContext): Promise<void> {
  const scenario = `11 Reports: a month's report, ${num(SIZES[1])} bookings against ${num(SIZES[0])}`;
  const [port, health, metrics] = (await freePorts(3)) as [number, number, number];
  const proc = spawnService(ctx.config, 'gateway-s11', 'gateway/src/index.ts', {
    COPERTO_MODE: 'embedded',
    PORT: String(port),
    HEALTH_PORT: String(health),
    METRICS_PORT: String(metrics),
    DATA_DIR: join(ctx.config.tmpDir, 'gateway-s11-data'),
    JWT_SECRET: ctx.jwtSecret,
  });
  try {
    await waitUntil(proc, 'readiness', httpOk(`http://127.0.0.1:${health}/public/health/ready`));
    const baseUrl = `http://127.0.0.1:${port}`;
    const query = `/api/report?dal=${dateBefore(DAYS - 1)}&al=${dateBefore(0)}`;
    const results: Array<{ size: number; wall: number[]; cpu: number[]; seated: number }> = [];
    for (const size of SIZES) {
      const api = createApi(baseUrl, await mintToken(ctx.jwtSecret, `bench-s11-${size}`, { admin: true }));
      const began = performance.now();
      const { seatings } = await seedTenant(api, size);
      log(
        `s11: ${num(size)} bookings and ${num(seatings)} seatings seeded in ${ms(performance.now() - began)}`,
      );
      // The consumer follows the events in order: once the last seating is in, every booking is.
      let seated = 0;
      for (const deadline = Date.now() + 120_000; Date.now() < deadline;) {
        const report = await api.call<{ totali: { copertiSeduti: number } }>('GET', query);
        seated = report.totali.copertiSeduti;
        if (seated >= seatings * 2) break;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      const wall: number[] = [];
      const cpu: number[] = [];
      for (let i = 0; i < TIMED_REQUESTS; i++) {
        const before = proc.cpuSeconds();
        const start = performance.now();
        await api.call('GET', query);
        wall.push(performance.now() - start);
        const after = proc.cpuSeconds();
        if (before !== null && after !== null) cpu.push((after - before) * 1000);
      }
      log(`s11: ${num(size)} bookings: report ${wall.map(ms).join(', ')}; CPU ${cpu.map(ms).join(', ')}`);
      results.push({ size, wall, cpu, seated });
    }
    const [small, large] = results as [(typeof results)[0], (typeof results)[0]];
    for (const [what, pick] of [
      ['report time, median of 5 sequential requests', (r: typeof small) => r.wall],
      ["the process's CPU time per report, median of 5", (r: typeof small) => r.cpu],
    ] as const) {
      const ours = median(pick(large));
      const baseline = median(pick(small));
      ctx.rows.push(
        row({
          scenario,
          what,
          ours: ms(ours),
          baseline: ms(baseline),
          ratio: ratio(ours, baseline),
          notes: `${num(large.size)} vs ${num(small.size)} bookings (${num(large.seated)} vs ${num(small.seated)} covers seated); each: ${pick(large).map(ms).join(', ')} / ${pick(small).map(ms).join(', ')}`,
        }),
      );
    }
    ctx.method.push(
      `**11.** The embedded process (compiled). Two tenants, each with 60 tables in 3 rooms and capacity's zone UTC (default opening hours): one with ${num(SIZES[0])} bookings, one with ${num(SIZES[1])}, uploaded through POST /api/prenotazioni/batch over the ${DAYS} evenings before today (no tables); a seating for every ${SEATED_EVERY}th booking (PUT status occupied, payment_pending with a check of 60, free, on the tables in turn: those events happen now, so they land in today's services). After the consumer caught up, GET /api/report for the ${DAYS} days up to today, once to warm up and ${TIMED_REQUESTS} times in a row; the median of the larger against the smaller (same process, same run).`,
    );
  } finally {
    await proc.stop();
  }
}
