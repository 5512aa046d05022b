/**
 * 3. POST /api/tavoli/verifica-disponibilita on a tenant with 500 tables and 5,000 bookings that day, against
 * the same on a tenant with 50 tables and 500 bookings (distributed mode, real MongoDB-protocol server). The
 * store operations per request come from the counting proxy in front of MongoDB: they must not grow with size.
 */
import { createApi, type Api } from '../api.js';
import { row, type BenchContext } from '../context.js';
import { failureNote, ms, num, ratio, rps } from '../format.js';
import { log } from '../log.js';
import { diffCounts, type MongoProxy } from '../mongo-proxy-client.js';
import { compare } from '../rounds.js';
import { BOOKING_DAY, seedDayBookings, seedTables } from '../seed.js';
import type { DistributedStack } from '../stack-distributed.js';
import { mintToken } from '../tokens.js';

const QUERY = { dataOra: `${BOOKING_DAY}T20:00:00`, numeroPersone: 2, durataMediaPasto: 60 };
const SAMPLE = 30;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Ops {
  perRequest: number;
  byCommand: Record<string, number>;
}

/** Commands per request: SAMPLE sequential requests, minus the background rate measured just before. */
async function operationsPerRequest(api: Api, proxy: MongoProxy): Promise<Ops> {
  const s0 = await proxy.snapshot();
  const idleStart = performance.now();
  await sleep(2000);
  const s1 = await proxy.snapshot();
  const idleSeconds = (performance.now() - idleStart) / 1000;
  const busyStart = performance.now();
  for (let i = 0; i < SAMPLE; i++) await api.call('POST', '/api/tavoli/verifica-disponibilita', QUERY);
  const busySeconds = (performance.now() - busyStart) / 1000;
  const s2 = await proxy.snapshot();
  const background = diffCounts(s0.commands, s1.commands);
  const busy = diffCounts(s1.commands, s2.commands);
  const byCommand: Record<string, number> = {};
  for (const command of new Set([...Object.keys(busy), ...Object.keys(background)])) {
    const net = ((busy[command] ?? 0) - ((background[command] ?? 0) / idleSeconds) * busySeconds) / SAMPLE;
    if (Math.abs(net) >= 0.05) byCommand[command] = Math.round(net * 100) / 100;
  }
  const perRequest = Object.values(byCommand).reduce((a, b) => a + b, 0);
  return { perRequest, byCommand };
}

const describeOps = (ops: Ops) =>
  Object.entries(ops.byCommand)
    .sort((a, b) => b[1] - a[1])
    .map(([command, n]) => `${command} ${n}`)
    .join(', ');

export async function scenario3(ctx: BenchContext, stack: DistributedStack, proxy: MongoProxy) {
  const { config } = ctx;
  const sizes = [
    { tables: 50, tenant: 'bench-s3-50' },
    { tables: 500, tenant: 'bench-s3-500' },
  ];
  const began = Date.now();
  const seeded = await Promise.all(
    sizes.map(async ({ tables, tenant }) => {
      const api = createApi(stack.baseUrl, await mintToken(ctx.jwtSecret, tenant));
      const created = await seedTables(api, { rooms: 0, tables });
      const bookings = await seedDayBookings(api, created, 10);
      const answer = await api.call<{ availableTables: unknown[] }>(
        'POST',
        '/api/tavoli/verifica-disponibilita',
        QUERY,
      );
      return { api, tables, bookings, available: answer.availableTables.length };
    }),
  );
  const [small, large] = seeded as [(typeof seeded)[0], (typeof seeded)[0]];
  log(
    `s3: seeded ${small.tables}+${large.tables} tables, ${small.bookings}+${large.bookings} bookings in ` +
      `${((Date.now() - began) / 1000).toFixed(0)} s; available at 20:00: ${small.available} / ${large.available}`,
  );

  const job = (api: Api, seconds: number) => ({
    baseUrl: stack.baseUrl,
    requests: [
      {
        method: 'POST',
        path: '/api/tavoli/verifica-disponibilita',
        headers: { authorization: `Bearer ${api.token}` },
        body: JSON.stringify(QUERY),
      },
    ],
    connections: config.connections,
    seconds,
    maxRequests: seconds * 20_000,
  });
  const { a, b } = await compare(
    config,
    's3',
    { label: '500 tables', run: (seconds) => ctx.load.http(job(large.api, seconds)) },
    { label: '50 tables', run: (seconds) => ctx.load.http(job(small.api, seconds)) },
  );
  const opsSmall = await operationsPerRequest(small.api, proxy);
  const opsLarge = await operationsPerRequest(large.api, proxy);
  log(`s3: store ops/request 50 tables: ${describeOps(opsSmall)}; 500 tables: ${describeOps(opsLarge)}`);

  const scenario = '3 POST /api/tavoli/verifica-disponibilita: 500 tables + 5,000 bookings vs 50 + 500';
  ctx.rows.push(
    row({
      scenario,
      what: 'throughput',
      ours: rps(a.rps),
      baseline: `${rps(b.rps)} (50 tables)`,
      ratio: ratio(a.rps, b.rps),
      notes: [
        `${large.available} / ${small.available} tables available in the answer`,
        failureNote(a, '500'),
        failureNote(b, '50'),
      ]
        .filter(Boolean)
        .join('; '),
    }),
    row({ scenario, what: 'latency p50', ours: ms(a.p50), baseline: ms(b.p50), ratio: ratio(a.p50, b.p50) }),
    row({ scenario, what: 'latency p99', ours: ms(a.p99), baseline: ms(b.p99), ratio: ratio(a.p99, b.p99) }),
    row({
      scenario,
      what: 'store operations per request',
      ours: num(opsLarge.perRequest, 2),
      baseline: `${num(opsSmall.perRequest, 2)} (50 tables)`,
      ratio: ratio(opsLarge.perRequest, opsSmall.perRequest),
      notes: `500: ${describeOps(opsLarge)} / 50: ${describeOps(opsSmall)}`,
    }),
  );
  ctx.method.push(
    `**3.** Tables and bookings created through the REST API (16 in flight per tenant): 10 one-hour bookings per ` +
      `table on ${BOOKING_DAY} (each with tableIds, so it holds its table), 3 of 13 hourly slots left free per table. ` +
      `The query asks for 2 people at 20:00 for 60 minutes. Store operations are wire-protocol messages counted by ` +
      `a TCP proxy between every distributed process and MongoDB, by command name, over ${SAMPLE} sequential ` +
      `requests, minus the background rate (outbox relay polls, heartbeats) measured in the 2 s before.`,
  );
}
