/**
 * 5. Memory of the all-in-one (embedded) process: RSS idle (after start and seeding), under scenario 1's load,
 * and after a soak of mixed load (every kind of request the waiter app and back office send, 10 minutes by
 * default), against the level after its warm-up, with where the memory sits (JS heap, external, store data).
 *
 * The soak holds the data steady: its booking writes move (PATCH) bookings created before it starts instead of
 * adding new ones. A soak that adds bookings measures data (the store's mapped pages that were read), not leaks
 * (a 2026-11-23 run created ≈ 17,000 in 10 minutes, 4.7× what it held after its first minute); booking creation
 * is scenario 6's, and the memory bookings cost is reported by its own row and, at 200,000, by s5-size.ts.
 */
import { createApi, mapLimit, type Api } from '../api.js';
import { row, type BenchContext } from '../context.js';
import { failureNote, mb, percent, ratio, rps } from '../format.js';
import type { RequestSpec } from '../load-types.js';
import { log } from '../log.js';
import {
  directoryBytes,
  readHeapFigures,
  sampleAt,
  sampleRss,
  type HeapFigures,
  type MemoryRecord,
} from '../memory.js';
import { seedTables } from '../seed.js';
import type { EmbeddedStack } from '../stack-embedded.js';
import { median } from '../stats.js';
import { mintToken } from '../tokens.js';

const SETTLE_MS = 10_000;
/** Bookings created before the soak (spread over 28 days), which its writes then move: the data stays steady. */
const SOAK_BOOKINGS = 3000;
const SAMPLE_MS = 1000;
/** The soak's warm-up: its first minute (a fifth of a short soak), after which the level should stay flat. */
const warmUpSeconds = (soakSeconds: number) => Math.min(60, Math.round(soakSeconds / 5));

interface Level {
  heap: HeapFigures | null;
  dataBytes: number;
  /** Bookings the store holds for the soak's month: the data the soak adds, which memory may grow with. */
  bookings: number;
}

/** Creates SOAK_BOOKINGS bookings without tables over the 28 days of January 2031; returns their ids. */
async function seedSoakBookings(api: Api, days: readonly string[]): Promise<string[]> {
  const plan = Array.from({ length: SOAK_BOOKINGS }, (_, n) => n);
  const created = await mapLimit(plan, 16, (n) =>
    api.call<{ id: string }>('POST', '/api/prenotazioni', {
      covers: 2,
      bookingDate: `2031-01-${days[n % days.length]!}T20:00:00`,
      customerName: `Ospite ${n}`,
      durationMinutes: 90,
    }),
  );
  return created.map((booking) => booking.id);
}

async function readLevel(embedded: EmbeddedStack, api: Api): Promise<Level> {
  const bookings = await api.call<unknown[]>('GET', '/api/prenotazioni?dal=2031-01-01&al=2031-01-28');
  return {
    heap: await readHeapFigures(embedded.metricsUrl),
    dataBytes: directoryBytes(embedded.dataDir),
    bookings: bookings.length,
  };
}

/** "bookings held 3,000→3,000; JS heap used 61 MB→64 MB (committed 80 MB→82 MB), external 9 MB→9 MB, store file …" */
function levelNote(from: Level, to: Level): string {
  const pair = (a: number | undefined, b: number | undefined) =>
    `${mb(a ?? Number.NaN)}→${mb(b ?? Number.NaN)}`;
  const count = (n: number) => n.toLocaleString('en-US');
  return (
    `bookings held ${count(from.bookings)}→${count(to.bookings)}; JS heap used ` +
    `${pair(from.heap?.heapUsed, to.heap?.heapUsed)} (committed ${pair(from.heap?.heapTotal, to.heap?.heapTotal)}), external ${pair(from.heap?.external, to.heap?.external)}, ` +
    `store file (compacted) ${pair(from.dataBytes, to.dataBytes)}`
  );
}

export async function scenario5(ctx: BenchContext, embedded: EmbeddedStack, memory: MemoryRecord) {
  const { config } = ctx;
  const token = await mintToken(ctx.jwtSecret, 'bench-s5');
  const api = createApi(embedded.baseUrl, token);
  const tables = await seedTables(api, { rooms: 3, tables: 60 });
  const tableIds = tables.map((t) => t.id);
  const auth = { authorization: `Bearer ${token}` };
  const days = Array.from({ length: 28 }, (_, i) => String(i + 1).padStart(2, '0'));
  const rssBeforeBookings = embedded.proc.rssBytes() ?? Number.NaN;
  const bookingIds = await seedSoakBookings(api, days);
  const rssAfterBookings = embedded.proc.rssBytes() ?? Number.NaN;
  const requests: RequestSpec[] = [
    { method: 'GET', path: '/api/tavoli', headers: auth },
    {
      method: 'PUT',
      path: '/api/tavoli/{{table}}/status',
      headers: auth,
      body: '{"status":"{{status}}","orderId":"o-{{n}}"}',
      choices: { table: tableIds, status: ['occupied', 'open', 'payment_pending', 'free'] },
    },
    { method: 'GET', path: '/api/tavoli/{{table}}', headers: auth, choices: { table: tableIds } },
    {
      method: 'PATCH',
      path: '/api/prenotazioni/{{booking}}',
      headers: auth,
      body: '{"bookingDate":"2031-01-{{day}}T{{hour}}:00:00","notes":"spostata {{n}}"}',
      choices: { booking: bookingIds, day: days, hour: ['19', '20', '21'] },
    },
    {
      method: 'GET',
      path: '/api/prenotazioni?dal=2031-01-{{day}}&al=2031-01-{{day}}',
      headers: auth,
      choices: { day: days },
    },
    {
      method: 'POST',
      path: '/api/tavoli/verifica-disponibilita',
      headers: auth,
      body: '{"dataOra":"2031-01-{{day}}T20:00:00","numeroPersone":2}',
      choices: { day: days },
    },
    { method: 'GET', path: '/api/sale', headers: auth },
    {
      method: 'POST',
      path: '/graphql',
      headers: auth,
      body: JSON.stringify({ query: '{ sale { name tavoli { name seats status } } }' }),
    },
  ];
  const before = embedded.proc.rssBytes();
  memory.idle ??= before;
  log(`s5: mixed load for ${config.soakSeconds} s (RSS before ${mb(before)})`);
  const sampler = sampleRss(embedded.proc, SAMPLE_MS);
  const warmUp = warmUpSeconds(config.soakSeconds);
  const warmLevel = new Promise<Level>((resolve) =>
    setTimeout(() => resolve(readLevel(embedded, api)), warmUp * 1000),
  );
  const soak = await ctx.load.http({
    baseUrl: embedded.baseUrl,
    requests,
    connections: config.connections,
    seconds: config.soakSeconds,
    maxRequests: config.soakSeconds * 20_000,
  });
  const during = sampler.stop();
  const rightAfter = embedded.proc.rssBytes();
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const settled = embedded.proc.rssBytes();
  const afterWarmUp = sampleAt(during, warmUp, SAMPLE_MS);
  const [warm, end] = [await warmLevel, await readLevel(embedded, api)];
  log(
    `s5: ${soak.rps.toFixed(0)} req/s mixed; RSS right after ${mb(rightAfter)}, after ${SETTLE_MS / 1000} s ${mb(settled)}`,
  );

  const idle = memory.idle ?? Number.NaN;
  const underLoad = memory.underListLoad.length ? Math.max(...memory.underListLoad) : Number.NaN;
  const growth = (value: number | null) => (value === null ? Number.NaN : (value - idle) / idle);
  const scenario = '5 memory (RSS) of the embedded process';
  ctx.rows.push(
    row({ scenario, what: 'idle, after start and seeding', ours: mb(memory.idle), baseline: '', ratio: '' }),
    row({
      scenario,
      what: 'under scenario 1 load (peak; median of samples)',
      ours: `${mb(underLoad)}; ${mb(median(memory.underListLoad))}`,
      baseline: `${mb(memory.idle)} (idle)`,
      ratio: ratio(underLoad, idle),
      notes: `growth ${percent(growth(underLoad))}`,
    }),
    row({
      scenario,
      what: `after ${config.soakSeconds} s mixed load, +${SETTLE_MS / 1000} s settle`,
      ours: mb(settled),
      baseline: `${mb(memory.idle)} (idle)`,
      ratio: ratio(settled ?? Number.NaN, idle),
      notes:
        `growth ${percent(growth(settled))}; peak during ${mb(Math.max(...during))}; ${rps(soak.rps)} mixed, ` +
        `${soak.ok.toLocaleString('en-US')} requests` +
        (failureNote(soak) ? `; ${failureNote(soak)}` : ''),
    }),
    row({
      scenario,
      what: `data: ${SOAK_BOOKINGS.toLocaleString('en-US')} bookings created before the soak`,
      ours: mb(rssAfterBookings),
      baseline: `${mb(rssBeforeBookings)} (before them)`,
      ratio: ratio(rssAfterBookings, rssBeforeBookings),
      notes: `≈ ${((rssAfterBookings - rssBeforeBookings) / SOAK_BOOKINGS / 1024).toFixed(1)} KB of RSS per booking held (one sample each side, garbage included)`,
    }),
    row({
      scenario,
      what: `soak: after ${config.soakSeconds} s vs after its first ${warmUp} s (goal ≤ 1.1×)`,
      ours: mb(settled),
      baseline: `${mb(afterWarmUp)} (after warm-up)`,
      ratio: ratio(settled ?? Number.NaN, afterWarmUp),
      notes: levelNote(warm, end),
    }),
  );
  ctx.method.push(
    `**5.** RSS from /proc/<pid>/status of the embedded process. Idle = after start, seeding of scenario 1 and ` +
      `before any load; under load = samples every 250 ms during scenario 1's rounds; mixed load = ` +
      `${config.soakSeconds} s of ${config.connections} connections cycling ` +
      `through list, status PUT, read one table, move one of ${SOAK_BOOKINGS.toLocaleString('en-US')} bookings created ` +
      `before it (PATCH of its date, hour and notes: the data stays steady), list a day's bookings, ` +
      `availability, rooms and the back-office GraphQL query; RSS read again after a ${SETTLE_MS / 1000} s pause. ` +
      `Soak: RSS at the end against RSS ${warmUp} s into the mixed load; JS heap and external memory read from the ` +
      `process's own /metrics at both points, with the bookings the store holds and the size of its DATA_DIR, ` +
      `to show the data held steady (a soak that adds bookings measures data, not leaks; the data row gives ` +
      `what a booking costs).`,
  );
}
