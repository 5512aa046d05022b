/**
 * 12. Many restaurants on one deployment (embedded mode): every tenant has its room, tables and bookings, and a
 * waiter app's mix of reads and writes is spread over 1, 100 and 2,000 of them on the same process. Each spread
 * runs against the one-tenant mix in alternating rounds (rounds.ts) after every tenant was seeded, so the two sides
 * share the process, its data and the machine's drift: p50/p99 of the mix, CPU per request and RSS as ratios to the
 * one-tenant run. The cost of an idle tenant: the JS heap and the RSS the process holds more after the 1,999 other
 * tenants were seeded and each answered the mix once, per tenant, read after a pause (garbage included).
 */
import { createApi, mapLimit } from '../api.js';
import { row, type BenchContext, cpuBreakdown, cpuTotal, type Row } from '../context.js';
import { failureNote, mb, ms, num, ratio } from '../format.js';
import type { RequestSpec } from '../load-types.js';
import { log } from '../log.js';
import { readHeapFigures, type HeapFigures } from '../memory.js';
import { renderTable } from '../report.js';
import { compare, type Side, type Summary } from '../rounds.js';
import { startEmbedded, type EmbeddedStack } from '../stack-embedded.js';
import { median } from '../stats.js';
import { mintToken } from '../tokens.js';

/** The tenant counts the mix is spread over (the first is the baseline). */
const SPREADS = [1, 100, 2000] as const;
const TABLES_PER_TENANT = 10;
/** At most 5 (one an hour from 18:00). */
const BOOKINGS_PER_TENANT = 5;
/** The day every seeded booking is on, and the day the mix lists. */
const DAY = '2031-03-14';
const SETTLE_MS = 10_000;
/** Its own section of RESULTS.md, written by a partial run too (`BENCH_ONLY=12`), kept by a full one. */
export const TENANTS_HEADING = '## Scenario 12: many tenants on one deployment';
/** Requests per tenant of the run that makes every tenant active once (≈ 2 per table, of mixed kinds). */
const ACTIVE_ONCE_REQUESTS = 12;

interface Tenant {
  token: string;
  tableIds: string[];
  bookingIds: string[];
}

/** One room, TABLES_PER_TENANT tables and BOOKINGS_PER_TENANT bookings of a new tenant, through the REST API. */
async function seedTenant(baseUrl: string, token: string): Promise<Tenant> {
  const api = createApi(baseUrl, token);
  const room = await api.call<{ id: string }>('POST', '/api/sale', { codice: 'SALA', descrizione: 'Sala' });
  const tableIds: string[] = [];
  for (let i = 0; i < TABLES_PER_TENANT; i++) {
    const table = await api.call<{ id: string }>('POST', '/api/tavoli', {
      name: `T${i + 1}`,
      seats: 4,
      salaId: room.id,
    });
    tableIds.push(table.id);
  }
  const bookingIds: string[] = [];
  for (let i = 0; i < BOOKINGS_PER_TENANT; i++) {
    const booking = await api.call<{ id: string }>('POST', '/api/prenotazioni', {
      covers: 2,
      bookingDate: `${DAY}T${18 + i}:00:00`,
      customerName: `Ospite ${i}`,
    });
    bookingIds.push(booking.id);
  }
  return { token, tableIds, bookingIds };
}

/**
 * The waiter app's mix over `tenants`: the table list, a status change, one table, the day's bookings, the rooms,
 * a booking's notes moved forward. Request n of the run is tenant n mod (tenants × tables)'s: every `{{…}}` of one
 * request reads the same n (http-load.ts), so the token and the ids always belong to one tenant.
 */
function mixOf(tenants: readonly Tenant[]): RequestSpec[] {
  const perTable = tenants.flatMap((t) =>
    t.tableIds.map((id, i) => ({ t, id, booking: t.bookingIds[i % BOOKINGS_PER_TENANT]! })),
  );
  const auth = perTable.map(({ t }) => `Bearer ${t.token}`);
  const tables = perTable.map(({ id }) => id);
  const bookings = perTable.map(({ booking }) => booking);
  const headers = { authorization: '{{auth}}' };
  return [
    { method: 'GET', path: '/api/tavoli', headers, choices: { auth } },
    {
      method: 'PUT',
      path: '/api/tavoli/{{table}}/status',
      headers,
      body: '{"status":"occupied","orderId":"o-{{n}}"}',
      choices: { auth, table: tables },
    },
    { method: 'GET', path: '/api/tavoli/{{table}}', headers, choices: { auth, table: tables } },
    { method: 'GET', path: `/api/prenotazioni?dal=${DAY}&al=${DAY}`, headers, choices: { auth } },
    { method: 'GET', path: '/api/sale', headers, choices: { auth } },
    {
      method: 'PATCH',
      path: '/api/prenotazioni/{{booking}}',
      headers,
      body: '{"notes":"nota {{n}}"}',
      choices: { auth, booking: bookings },
    },
  ];
}

/** RSS, JS heap and external memory, each the median of five readings a second apart. */
async function memoryOf(embedded: EmbeddedStack): Promise<{ rss: number; heap: HeapFigures }> {
  const rss: number[] = [];
  const heaps: HeapFigures[] = [];
  for (let i = 0; i < 5; i++) {
    rss.push(embedded.proc.rssBytes() ?? Number.NaN);
    const heap = await readHeapFigures(embedded.metricsUrl);
    if (heap) heaps.push(heap);
    await new Promise((r) => setTimeout(r, 1000));
  }
  const pick = (key: keyof HeapFigures) => median(heaps.map((h) => h[key]));
  return {
    rss: median(rss),
    heap: { heapUsed: pick('heapUsed'), heapTotal: pick('heapTotal'), external: pick('external') },
  };
}

export async function scenario12(ctx: BenchContext) {
  const { config } = ctx;
  const embedded = await startEmbedded(config, ctx.jwtSecret, { name: 'gateway-tenants' });
  try {
    const most = SPREADS.at(-1)!;
    const tokens = await Promise.all(
      Array.from({ length: most }, (_, i) =>
        mintToken(ctx.jwtSecret, `bench-s12-${String(i).padStart(4, '0')}`),
      ),
    );
    const first = await seedTenant(embedded.baseUrl, tokens[0]!);
    const sideOf = (tenants: readonly Tenant[]): Side => {
      const requests = mixOf(tenants);
      return {
        label: `${num(tenants.length)} tenant${tenants.length === 1 ? '' : 's'}`,
        processes: [embedded.proc],
        run: (seconds) =>
          ctx.load.http({
            baseUrl: embedded.baseUrl,
            requests,
            connections: config.connections,
            seconds,
            maxRequests: seconds * 20_000,
          }),
      };
    };
    // The one tenant warm, then what the process holds before the others exist.
    await sideOf([first]).run(config.warmupSeconds);
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const before = await memoryOf(embedded);
    const seedStarted = performance.now();
    const others = await mapLimit(tokens.slice(1), 16, (token) => seedTenant(embedded.baseUrl, token));
    const tenants = [first, ...others];
    log(`s12: ${num(most)} tenants seeded in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s`);
    // Every tenant answers the mix once (each of its requests at least once), then the process rests.
    await ctx.load.http({
      baseUrl: embedded.baseUrl,
      requests: mixOf(tenants),
      connections: config.connections,
      seconds: 600,
      maxRequests: most * ACTIVE_ONCE_REQUESTS,
    });
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const after = await memoryOf(embedded);

    const baseline = sideOf([first]);
    const results: Array<{ spread: number; ours: Summary; base: Summary; rss: number }> = [];
    for (const spread of SPREADS.slice(1)) {
      const spreadSide = sideOf(tenants.slice(0, spread));
      const rssSamples: number[] = [];
      const sampled: Side = {
        ...spreadSide,
        run: async (seconds) => {
          const result = await spreadSide.run(seconds);
          rssSamples.push(embedded.proc.rssBytes() ?? Number.NaN);
          return result;
        },
      };
      const { a, b } = await compare(config, `s12 ${spread}`, sampled, baseline);
      results.push({ spread, ours: a, base: b, rss: median(rssSamples) });
    }
    const baseRss = before.rss;
    const scenario = '12 many tenants on one deployment (embedded)';
    const rows: Row[] = [];
    for (const { spread, ours, base, rss } of results) {
      const oursCpu = cpuTotal(ours.cpuMsPerRequest);
      const baseCpu = cpuTotal(base.cpuMsPerRequest);
      rows.push(
        row({
          scenario,
          what: `waiter mix p99, ${num(spread)} tenants vs 1 (goal ≤ 1.5×)`,
          ours: ms(ours.p99),
          baseline: ms(base.p99),
          ratio: ratio(ours.p99, base.p99),
          notes: [
            `p50 ${ms(ours.p50)} vs ${ms(base.p50)} (${ratio(ours.p50, base.p50)}); ${num(ours.rps)} vs ${num(base.rps)} req/s`,
            failureNote(ours, `${num(spread)} tenants`),
            failureNote(base, '1 tenant'),
          ]
            .filter(Boolean)
            .join('; '),
        }),
        row({
          scenario,
          what: `CPU per request, ${num(spread)} tenants vs 1 (goal ≤ 1.2×)`,
          ours: `${oursCpu.toFixed(2)} ms`,
          baseline: `${baseCpu.toFixed(2)} ms`,
          ratio: ratio(oursCpu, baseCpu),
          notes: `ms/request: ${cpuBreakdown(ours.cpuMsPerRequest)} | ${cpuBreakdown(base.cpuMsPerRequest)}`,
        }),
        row({
          scenario,
          what: `RSS after the ${num(spread)}-tenant rounds vs before the other tenants existed`,
          ours: mb(rss),
          baseline: mb(baseRss),
          ratio: ratio(rss, baseRss),
        }),
      );
    }
    const added = most - 1;
    const perTenant = (from: number, to: number) => `${num((to - from) / added / 1024, 1)} KB`;
    rows.push(
      row({
        scenario,
        what: `an idle tenant (seeded, active once, then idle): JS heap held per tenant`,
        ours: perTenant(before.heap.heapUsed, after.heap.heapUsed),
        baseline: '',
        ratio: '',
        notes:
          `heap used ${mb(before.heap.heapUsed)} → ${mb(after.heap.heapUsed)} with ${num(added)} more tenants ` +
          `(garbage included); RSS ${mb(before.rss)} → ${mb(after.rss)} = ${perTenant(before.rss, after.rss)} per tenant ` +
          `(with the store's pages of their data); external ${mb(before.heap.external)} → ${mb(after.heap.external)}`,
      }),
    );
    ctx.rows.push(...rows);
    const method =
      `**12.** One embedded process; ${num(most)} tenants, each with a room, ${TABLES_PER_TENANT} tables and ` +
      `${BOOKINGS_PER_TENANT} bookings (seeded through the REST API, 16 in flight). The waiter mix (table list, ` +
      `status PUT, one table, the day's bookings, the rooms, a booking's notes PATCHed) with ${config.connections} ` +
      `connections, request n going to tenant n mod (tenants × tables); the ${SPREADS.slice(1)
        .map((n) => num(n))
        .join(' and ')}-tenant ` +
      `spreads each against the one-tenant mix in alternating rounds (${config.rounds} × ${config.roundSeconds} s, medians), ` +
      `CPU from /proc of the process. Idle tenant: JS heap and RSS (medians of 5 readings, ${SETTLE_MS / 1000} s after ` +
      `the load) before the other tenants were seeded and after each answered the mix once. The machine is shared: ` +
      `read the ratios, not the absolute figures.`;
    ctx.method.push(method);
    ctx.sections.set(
      TENANTS_HEADING,
      `${TENANTS_HEADING}\n\nLast run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC ` +
        `(\`BENCH_ONLY=12\` writes this section; a full run keeps it). ${method.replace('**12.** ', '')}\n\n` +
        `${renderTable(rows)}\n`,
    );
  } finally {
    await embedded.proc.stop();
  }
}
