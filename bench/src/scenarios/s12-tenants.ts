/**
 * 12. Many restaurants on one deployment, in both modes (distributed: two instances of the gateway and of every
 * subgraph). A restaurant is a room with 10 tables and 5 bookings (s12-restaurants.ts). The same 2,000 restaurants
 * exist twice: each under a tenant of its own, and all under one tenant (a chain's rooms). The waiter mix spread over
 * N restaurants of N tenants runs against the mix over N restaurants of the one tenant, at the same fixed request
 * rate, in alternating rounds (rounds.ts): every request reads or writes the same rows of one restaurant on both
 * sides, so the ratio is the cost of the tenants alone (caches, views, tokens, per-tenant state), not of a hot spot.
 * RSS of every process against its reading after the one-tenant run, before the other tenants existed; an idle
 * tenant's cost is what every process holds more once the 2,000 tenants were seeded and each answered the mix once.
 */
import { loadavg } from 'node:os';
import { row, type BenchContext, cpuBreakdown, cpuTotal, type Row } from '../context.js';
import { failureNote, mb, ms, num, ratio } from '../format.js';
import { log } from '../log.js';
import type { Proc } from '../processes.js';
import { renderTable } from '../report.js';
import { compare, type Side } from '../rounds.js';
import { startMongo, startNats, startRedis } from '../servers.js';
import { everySubgraph, startDistributed, type Instance } from '../stack-distributed.js';
import { startEmbedded } from '../stack-embedded.js';
import { mintToken } from '../tokens.js';
import { boundedGrowth, readMemory, type ProcessMemory } from './s12-memory.js';
import { mixOf, seedChain, seedTenants, type Restaurant } from './s12-restaurants.js';

/** The tenant counts the mix is spread over, against one tenant (BENCH_S12_TENANTS, e.g. "10,50" for a try). */
const SPREADS = (process.env.BENCH_S12_TENANTS ?? '100,2000').split(',').map((raw) => {
  const n = Number(raw.trim());
  if (!Number.isInteger(n) || n < 1)
    throw new Error('BENCH_S12_TENANTS must be positive integers separated by commas');
  return n;
});
const SETTLE_MS = 10_000;
/** The fixed rate of the compared rounds: this share of the slower side's closed-loop throughput. */
const RATE_SHARE = 0.6;
/** Its own section of RESULTS.md, written by a partial run too (`BENCH_ONLY=12`), kept by a full one. */
export const TENANTS_HEADING = '## Scenario 12: many tenants on one deployment';
/** Requests per tenant of the run that makes every tenant active once (≈ 2 per table, of mixed kinds). */
const ACTIVE_ONCE_REQUESTS = 12;

interface Deployment {
  mode: 'embedded' | 'distributed';
  baseUrls: string[];
  instances: Instance[];
  /** The MongoDB-protocol server (distributed): its CPU is reported apart. */
  store: Proc | null;
  stop(): Promise<void>;
}

const loadText = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');

async function embeddedDeployment(ctx: BenchContext): Promise<Deployment> {
  const embedded = await startEmbedded(ctx.config, ctx.jwtSecret, { name: 'gateway-tenants' });
  return {
    mode: 'embedded',
    baseUrls: [embedded.baseUrl],
    instances: [{ proc: embedded.proc, metricsUrl: embedded.metricsUrl }],
    store: null,
    stop: () => embedded.proc.stop(),
  };
}

async function distributedDeployment(ctx: BenchContext): Promise<Deployment> {
  const [mongo, nats, redis] = await Promise.all([
    startMongo(ctx.config),
    startNats(ctx.config),
    startRedis(ctx.config),
  ]);
  const stack = await startDistributed(ctx.config, {
    jwtSecret: ctx.jwtSecret,
    mongoUrl: mongo.url,
    natsUrl: nats.url,
    redisUrl: redis.url,
    database: 'coperto_s12',
    instances: 2,
    subgraphs: everySubgraph(ctx.config),
  });
  return {
    mode: 'distributed',
    baseUrls: stack.baseUrls,
    instances: stack.instances,
    store: mongo.proc,
    stop: async () => {
      await Promise.all(stack.instances.map((i) => i.proc.stop()));
      await Promise.all([mongo.proc.stop(), nats.proc.stop(), redis.proc.stop()]);
    },
  };
}

const STARTS = { embedded: embeddedDeployment, distributed: distributedDeployment };
/** The modes to run (BENCH_S12_MODES, default both). */
const MODES = (process.env.BENCH_S12_MODES ?? 'embedded,distributed').split(',').map((raw) => {
  const mode = raw.trim();
  if (!(mode in STARTS))
    throw new Error('BENCH_S12_MODES must be embedded, distributed or both (comma-separated)');
  return mode as keyof typeof STARTS;
});

export async function scenario12(ctx: BenchContext) {
  const rows: Row[] = [];
  const notes: string[] = [];
  for (const start of MODES.map((mode) => STARTS[mode])) {
    const deployment = await start(ctx);
    try {
      const measured = await measure(ctx, deployment);
      rows.push(...measured.rows);
      notes.push(measured.note);
    } finally {
      await deployment.stop();
    }
  }
  ctx.rows.push(...rows);
  const most = Math.max(...SPREADS);
  const method =
    `**12.** Both modes (distributed: two instances of the gateway and of every subgraph, copy i calling copy i, ` +
    `the load spread over both gateways, on mongo-java-server, NATS and Redis). ${num(most)} restaurants (a room, ` +
    `10 tables, 5 bookings on a day of its own), seeded twice through the public API (a room by REST, its tables in ` +
    `one /graphql document, the bookings by the batch endpoint): each restaurant under a tenant of its own, and ` +
    `all of them as rooms of one tenant. The waiter mix per request touches one restaurant: its room's tables ` +
    `(\`GET /api/tavoli?salaId=\`), a status PUT, one table, its day's bookings, its room, a booking's notes ` +
    `PATCHed; request n goes to table n mod (restaurants × 10). The ${SPREADS.map((n) => num(n)).join(' and ')}-` +
    `tenant spreads each against the same number of restaurants of the one tenant, at one fixed rate for both ` +
    `sides (${RATE_SHARE * 100} % of the slower side's closed-loop throughput, measured just before), ` +
    `${ctx.config.connections} connections, alternating rounds (${ctx.config.rounds} × ${ctx.config.roundSeconds} s, ` +
    `medians); CPU from /proc of every process of ours (the store's apart). RSS of every process against its ` +
    `reading after the one-tenant warm-up, before the other tenants existed. Idle tenant: what each process holds ` +
    `more (RSS the median of 5 readings a second apart, heap used the least of them, ${SETTLE_MS / 1000} s after the load) once the ${num(most)} tenants were seeded ` +
    `and each answered the mix once, per tenant, garbage included; the bounded structures' entries from the ` +
    `process's metrics. Load average (1 / 5 / 15 min) next to the figures: the machine is shared.\n\n` +
    `Why this baseline: the earlier one-tenant side put the whole mix on one tenant's 10 tables, a hot spot ` +
    `(compare-and-set retries, 500s from exhausted ones, every write invalidating the lists every request read), ` +
    `so its ratio measured concentration, not tenancy. Here both sides read and write the same rows of one ` +
    `restaurant per request, the same mix, at the same rate, over as many restaurants; the only difference is ` +
    `whether the restaurants are N tenants or one tenant's rooms, so the ratio is what the tenants themselves cost ` +
    `(per-tenant caches, views, tokens, directories, settings). One difference stays by construction: the one ` +
    `tenant's every status change replaces its one table read scope (the cached lists of all its rooms), each of N ` +
    `tenants has its own; at these rates a restaurant's list is read less often than its 5 s cache lasts on both ` +
    `sides, so the lists are read from tavolo on both.`;
  ctx.method.push(method);
  ctx.sections.set(
    TENANTS_HEADING,
    `${TENANTS_HEADING}\n\nLast run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC ` +
      `(\`BENCH_ONLY=12\` writes this section; a full run keeps it). ${method.replace('**12.** ', '')}\n\n` +
      `${renderTable(rows)}\n\n${notes.join('\n\n')}\n`,
  );
}

async function measure(ctx: BenchContext, deployment: Deployment): Promise<{ rows: Row[]; note: string }> {
  const { config } = ctx;
  const { mode, baseUrls, instances } = deployment;
  const most = Math.max(...SPREADS);
  const tag = `s12 ${mode}`;
  const tokens = await Promise.all(
    Array.from({ length: most + 1 }, (_, i) =>
      mintToken(ctx.jwtSecret, `bench-s12-${String(i).padStart(4, '0')}`),
    ),
  );
  const ours = instances.map((i) => i.proc);
  const watched = deployment.store ? [...ours, deployment.store] : ours;
  const oursNames = ours.map((p) => p.name);
  const sideOf = (label: string, restaurants: readonly Restaurant[], rate?: number): Side => {
    const requests = mixOf(restaurants);
    return {
      label,
      processes: watched,
      run: (seconds) =>
        ctx.load.http({
          baseUrl: baseUrls,
          requests,
          connections: config.connections,
          seconds,
          maxRequests: seconds * 20_000,
          ...(rate === undefined ? {} : { overallRate: rate }),
        }),
    };
  };

  let started = performance.now();
  const chain = await seedChain(baseUrls[0]!, tokens[most]!, most);
  log(
    `${tag}: one tenant with ${num(most)} restaurants seeded in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  await sideOf('warm-up', chain).run(config.warmupSeconds * 3);
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const oneTenant = await readMemory(instances);

  started = performance.now();
  const tenants = await seedTenants(baseUrls[0]!, tokens.slice(0, most));
  const seedSeconds = (performance.now() - started) / 1000;
  log(`${tag}: ${num(most)} tenants seeded in ${seedSeconds.toFixed(0)} s`);
  // Every tenant answers the mix once (each of its requests at least once), then the processes rest.
  await ctx.load.http({
    baseUrl: baseUrls,
    requests: mixOf(tenants),
    connections: config.connections,
    seconds: 900,
    maxRequests: most * ACTIVE_ONCE_REQUESTS,
  });
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const idle = await readMemory(instances);

  const rows: Row[] = [];
  const scenario = `12 many tenants (${mode})`;
  for (const spread of SPREADS) {
    const many = tenants.slice(0, spread);
    const one = chain.slice(0, spread);
    const calibration: number[] = [];
    for (const r of [many, one])
      calibration.push((await sideOf('calibration', r).run(config.warmupSeconds)).rps);
    const rate = Math.max(20, Math.floor(RATE_SHARE * Math.min(...calibration)));
    const rss = new Map<string, number[]>();
    const sampled = (side: Side): Side => ({
      ...side,
      run: async (seconds) => {
        const result = await side.run(seconds);
        for (const proc of ours) rss.set(proc.name, [...(rss.get(proc.name) ?? []), proc.rssBytes() ?? NaN]);
        return result;
      },
    });
    const loadBefore = loadText();
    const { a, b } = await compare(
      config,
      `${tag} ${spread}`,
      sampled(sideOf(`${num(spread)} tenants`, many, rate)),
      sideOf(`1 tenant, ${num(spread)} restaurants`, one, rate),
    );
    const loadAfter = loadText();
    const cpuA = cpuTotal(a.cpuMsPerRequest, oursNames);
    const cpuB = cpuTotal(b.cpuMsPerRequest, oursNames);
    const storeName = deployment.store?.name;
    const storeCpu = storeName
      ? `; the store ${(a.cpuMsPerRequest[storeName] ?? NaN).toFixed(2)} vs ${(b.cpuMsPerRequest[storeName] ?? NaN).toFixed(2)} ms`
      : '';
    const rssRatios = ours.map((p) => {
      const now = rss.get(p.name)?.at(-1) ?? NaN;
      return { name: p.name, now, before: oneTenant.get(p.name)?.rss ?? NaN };
    });
    const sum = (key: 'now' | 'before') => rssRatios.reduce((s, r) => s + r[key], 0);
    rows.push(
      row({
        scenario,
        what: `waiter mix p99, ${num(spread)} tenants vs 1 (goal ≤ 1.5×)`,
        ours: ms(a.p99),
        baseline: ms(b.p99),
        ratio: ratio(a.p99, b.p99),
        notes: [
          `p50 ${ms(a.p50)} vs ${ms(b.p50)} (${ratio(a.p50, b.p50)}); both sides at ${num(rate)} req/s ` +
            `(got ${num(a.rps)} vs ${num(b.rps)}); load average ${loadBefore} before, ${loadAfter} after`,
          failureNote(a, `${num(spread)} tenants`),
          failureNote(b, '1 tenant'),
        ]
          .filter(Boolean)
          .join('; '),
      }),
      row({
        scenario,
        what: `CPU per request, ${num(spread)} tenants vs 1 (goal ≤ 1.2×)`,
        ours: `${cpuA.toFixed(2)} ms`,
        baseline: `${cpuB.toFixed(2)} ms`,
        ratio: ratio(cpuA, cpuB),
        notes: `ms/request, ours: ${cpuBreakdown(pick(a.cpuMsPerRequest, oursNames))} | one tenant: ${cpuBreakdown(pick(b.cpuMsPerRequest, oursNames))}${storeCpu}`,
      }),
      row({
        scenario,
        what: `RSS after the ${num(spread)}-tenant rounds vs after the one-tenant run${ours.length > 1 ? ' (all processes)' : ''}`,
        ours: mb(sum('now')),
        baseline: mb(sum('before')),
        ratio: ratio(sum('now'), sum('before')),
        notes:
          ours.length > 1
            ? 'each: ' +
              rssRatios.map((r) => `${r.name} ${mb(r.before)} → ${ratio(r.now, r.before)}`).join(', ')
            : '',
      }),
    );
  }
  rows.push(idleRow(scenario, most, instances, oneTenant, idle));
  const note =
    `${mode}: ${num(most)} tenants seeded in ${seedSeconds.toFixed(0)} s. Bounded structures' entries added by the ` +
    `idle tenants, by process: ` +
    instances
      .map(({ proc }) => {
        const growth = boundedGrowth(oneTenant.get(proc.name)!, idle.get(proc.name)!);
        return `${proc.name} ${growth.length ? growth.map(([n, g]) => `${n} +${num(g)}`).join(', ') : 'none'}`;
      })
      .join('; ') +
    '.';
  return { rows, note };
}

const pick = (cpu: Record<string, number>, names: readonly string[]) =>
  Object.fromEntries(Object.entries(cpu).filter(([name]) => names.includes(name)));

function idleRow(
  scenario: string,
  most: number,
  instances: readonly Instance[],
  before: Map<string, ProcessMemory>,
  after: Map<string, ProcessMemory>,
): Row {
  const per = (bytes: number) => `${num(bytes / most / 1024, 1)} KB`;
  const delta = (name: string, get: (m: ProcessMemory) => number) =>
    get(after.get(name)!) - get(before.get(name)!);
  const heapSum = instances.reduce((s, { proc }) => s + delta(proc.name, (m) => m.heap.heapUsed), 0);
  const rssSum = instances.reduce((s, { proc }) => s + delta(proc.name, (m) => m.rss), 0);
  return row({
    scenario,
    what: `an idle tenant (seeded, active once, then idle): JS heap held per tenant${instances.length > 1 ? ', all processes' : ''}`,
    ours: per(heapSum),
    baseline: '',
    ratio: '',
    notes:
      `RSS ${per(rssSum)} per tenant; each process, heap / RSS per tenant: ` +
      instances
        .map(
          ({ proc }) =>
            `${proc.name} ${per(delta(proc.name, (m) => m.heap.heapUsed))} / ${per(delta(proc.name, (m) => m.rss))}`,
        )
        .join(', '),
  });
}
