/**
 * 15. Webhook fan-out (issue 40): ENDPOINTS endpoints of one tenant × RATE events/s for SECONDS, in embedded mode
 * (the compiled process, WEBHOOKS_ALLOW_PRIVATE=true so that loopback endpoints are allowed). The endpoints are
 * real HTTP servers in the bench process that verify every request with the `standardwebhooks` package; the
 * events are table status changes made through the REST API (PUT /api/tavoli/:id/status). Measured: deliveries/s
 * while the events come and overall, latency from the event's own `time` to its receipt (p50/p99), the backlog when
 * the events stop and how long it takes to drain (bounded by DRAIN_S), the process's CPU per delivery (its CPU per
 * status change without endpoints, measured first in the same process, taken out), the bench's own CPU per delivery
 * (receiving and verifying) and the process's RSS. BENCH_S15_PROFILE=1 profiles the process and summarises it here.
 */
import { join } from 'node:path';
import { createApi } from '../api.js';
import { row, type BenchContext } from '../context.js';
import { mb, ms, num } from '../format.js';
import { log } from '../log.js';
import { freePorts } from '../ports.js';
import { httpOk, spawnService, waitUntil, type Proc } from '../processes.js';
import { collectProfiles } from '../profile-summary.js';
import { seedTables } from '../seed.js';
import { percentile, sortedCopy } from '../stats.js';
import { mintToken } from '../tokens.js';
import { registerEndpoints, startReceiver, startStatusChanges, type Receiver } from './s15-receivers.js';

export const FANOUT_HEADING = '## Scenario 15: webhook fan-out';

/** A positive integer from the environment, else `fallback`. */
export function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer`);
  return value;
}

const sleep = (msToWait: number) => new Promise((resolve) => setTimeout(resolve, msToWait));

/** The embedded process as production runs it, allowed to deliver to loopback, without a tenant rate limit. */
export async function startWebhooksProcess(
  ctx: BenchContext,
  name: string,
  dataDir: string,
  nodeArgs: readonly string[] = [],
): Promise<{ proc: Proc; baseUrl: string }> {
  const [port, health, metrics] = (await freePorts(3)) as [number, number, number];
  const proc = spawnService(
    ctx.config,
    name,
    'gateway/src/index.ts',
    {
      COPERTO_MODE: 'embedded',
      PORT: String(port),
      HEALTH_PORT: String(health),
      METRICS_PORT: String(metrics),
      DATA_DIR: dataDir,
      JWT_SECRET: ctx.jwtSecret,
      WEBHOOKS_ALLOW_PRIVATE: 'true',
      RATE_LIMIT_TENANT_RPS: '0',
    },
    nodeArgs,
  );
  await waitUntil(proc, 'readiness', httpOk(`http://127.0.0.1:${health}/public/health/ready`), 90_000);
  return { proc, baseUrl: `http://127.0.0.1:${port}` };
}

export async function scenario15(ctx: BenchContext): Promise<void> {
  const endpoints = envInt('BENCH_S15_ENDPOINTS', 50);
  const rate = envInt('BENCH_S15_RATE', 200);
  // A second pass at a rate the machine keeps up with: latency and cost when nothing queues.
  const keptUpRate = envInt('BENCH_S15_KEPT_UP_RATE', 4);
  const seconds = envInt('BENCH_S15_SECONDS', 60);
  const drainCap = envInt('BENCH_S15_DRAIN_S', 240);
  const profiling = process.env.BENCH_S15_PROFILE === '1';
  const passes = [
    await fanOutPass(ctx, { endpoints, rate, seconds, drainCap, profiling, name: 'gateway-s15' }),
    await fanOutPass(ctx, {
      endpoints,
      rate: keptUpRate,
      seconds,
      drainCap,
      profiling: false,
      name: 'gateway-s15-kept-up',
    }),
  ];
  const method = `**15.** The embedded process (compiled) with WEBHOOKS_ALLOW_PRIVATE=true and no tenant rate limit; one tenant with 60 tables. First 15 s of the pass's status changes/s with no endpoint (the process's CPU per change). Then ${endpoints} endpoints registered through POST /api/webhooks (\`tables.status\`), each a node:http server in the bench process verifying every request with \`standardwebhooks\` and answering 204, and the status changes for ${seconds} s (PUT /api/tavoli/:id/status, at most one in flight per table), then draining for at most ${drainCap} s. Latency is receipt time − the event's \`time\`. Two passes, each on a fresh process: ${rate} events/s as asked, and ${keptUpRate} events/s.`;
  ctx.method.push(method);
  ctx.sections.set(
    FANOUT_HEADING,
    [
      FANOUT_HEADING,
      '',
      `Run of ${new Date().toISOString()} (\`BENCH_ONLY=15\`): ${endpoints} endpoints × ${rate} events/s × ${seconds} s as asked, then the same at ${keptUpRate} events/s (${num(endpoints * keptUpRate)} deliveries/s), each on a fresh process, drain bounded at ${drainCap} s${profiling ? '; the first pass profiled (BENCH_S15_PROFILE=1: its figures include the profiler’s overhead)' : ''}. The machine is shared by other work: absolute figures move by tens of percent between runs.`,
      '',
      method,
      '',
      ...passes.flatMap((pass) => [pass, '']),
    ].join('\n'),
  );
}

interface Pass {
  endpoints: number;
  rate: number;
  seconds: number;
  drainCap: number;
  profiling: boolean;
  /** The process's name (BENCH_CPU_PROF-style), and its data directory's. */
  name: string;
}

/** One pass on a fresh process; returns its part of the section (a sub-heading, a table, a profile). */
async function fanOutPass(ctx: BenchContext, pass: Pass): Promise<string> {
  const { endpoints, rate, seconds, drainCap, profiling } = pass;
  const baselineSeconds = 15;
  const profileDir = join(ctx.config.tmpDir, `${pass.name}-profile`);
  const scenario = `15 webhook fan-out: ${endpoints} endpoints × ${rate} events/s × ${seconds} s (embedded)`;

  const { proc, baseUrl } = await startWebhooksProcess(
    ctx,
    pass.name,
    join(ctx.config.tmpDir, `${pass.name}-data`),
    profiling ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [],
  );
  const receivers: Receiver[] = [];
  try {
    const token = await mintToken(ctx.jwtSecret, 'bench-s15', { admin: true });
    const admin = createApi(baseUrl, token);
    const tableIds = (await seedTables(admin, { rooms: 0, tables: 60 })).map((t) => t.id);

    // The writes alone: the same status changes with no endpoint, for the process's CPU per change.
    log(`s15: ${baselineSeconds} s of ${rate} status changes/s with no endpoint`);
    const cpu0 = proc.cpuSeconds()!;
    const alone = startStatusChanges({ baseUrl: () => baseUrl, token, tableIds, rate, prefix: 'alone' });
    await sleep(baselineSeconds * 1000);
    await alone.stop();
    await sleep(1000);
    const cpuPerChange = (proc.cpuSeconds()! - cpu0) / Math.max(1, alone.acked.size);

    const latencies: number[] = [];
    const duringLatencies: number[] = [];
    let publishing = true;
    let received = 0;
    for (let i = 0; i < endpoints; i++)
      receivers.push(
        await startReceiver(`e${i}`, (event, receivedAt) => {
          if (!event.data.orderId?.startsWith('run-')) return;
          received++;
          const latency = receivedAt - Date.parse(event.time);
          latencies.push(latency);
          if (publishing) duringLatencies.push(latency);
        }),
      );
    await registerEndpoints(admin, receivers);

    log(`s15: ${endpoints} endpoints, ${rate} status changes/s for ${seconds} s`);
    const benchCpu0 = process.cpuUsage();
    const cpu1 = proc.cpuSeconds()!;
    let rssMax = 0;
    const perSecond: number[] = [];
    let lastCount = 0;
    const sampler = setInterval(() => {
      rssMax = Math.max(rssMax, proc.rssBytes() ?? 0);
      perSecond.push(received - lastCount);
      lastCount = received;
    }, 1000);
    const began = performance.now();
    const changes = startStatusChanges({ baseUrl: () => baseUrl, token, tableIds, rate, prefix: 'run' });
    await sleep(seconds * 1000);
    await changes.stop();
    publishing = false;
    const publishedFor = (performance.now() - began) / 1000;
    const expected = changes.acked.size * endpoints;
    const receivedWhilePublishing = received;
    const backlogAtEnd = expected - received;
    log(`s15: ${changes.acked.size} changes acknowledged; ${received} of ${expected} delivered; draining`);
    const drainStart = performance.now();
    while (received < expected && performance.now() - drainStart < drainCap * 1000) await sleep(250);
    const drainSeconds = (performance.now() - drainStart) / 1000;
    clearInterval(sampler);
    const drained = received >= expected;
    const cpuRun = proc.cpuSeconds()! - cpu1;
    const benchCpu = process.cpuUsage(benchCpu0);
    const rssEnd = proc.rssBytes();
    const total = (performance.now() - began) / 1000;
    const writesCpu = cpuPerChange * changes.acked.size;
    const cpuPerDelivery = ((cpuRun - writesCpu) * 1000) / Math.max(1, received);
    const benchCpuPerDelivery = (benchCpu.user + benchCpu.system) / 1000 / Math.max(1, received);
    const requests = receivers.reduce((s, r) => s + r.counts.requests, 0);
    const bad = receivers.reduce((s, r) => s + r.counts.badSignatures, 0);
    const duplicates = receivers.reduce((s, r) => s + r.counts.duplicates, 0);
    const sorted = sortedCopy(latencies);
    const sortedDuring = sortedCopy(duringLatencies);
    const drainRate = (received - receivedWhilePublishing) / Math.max(0.001, drainSeconds);
    const steady = perSecond.slice(5, Math.max(6, Math.floor(publishedFor) - 1));
    const steadyRate = steady.reduce((a, b) => a + b, 0) / Math.max(1, steady.length);
    log(
      `s15: ${received}/${expected} delivered (${requests} requests, ${duplicates} duplicates, ${bad} bad signatures); ` +
        `${num(receivedWhilePublishing / publishedFor)}/s while publishing, drain ${drainSeconds.toFixed(0)} s at ${num(drainRate)}/s; ` +
        `p50 ${ms(percentile(sorted, 50))} p99 ${ms(percentile(sorted, 99))}; CPU/delivery ${cpuPerDelivery.toFixed(3)} ms (process), ` +
        `${benchCpuPerDelivery.toFixed(3)} ms (bench); RSS max ${mb(rssMax)}`,
    );

    const figures: Array<[string, string, string]> = [
      [
        'events (status changes acknowledged) / s',
        `${num(changes.acked.size)} in ${publishedFor.toFixed(0)} s = ${num(changes.acked.size / publishedFor)}/s`,
        `${changes.failed} not acknowledged; PUT p50 / p99 ${ms(percentile(sortedCopy(changes.putMs), 50))} / ${ms(percentile(sortedCopy(changes.putMs), 99))}`,
      ],
      [
        'deliveries owed',
        num(expected),
        `${endpoints} endpoints × the acknowledged events (goal ${num(rate * endpoints)}/s)`,
      ],
      [
        'deliveries/s while the events came',
        num(receivedWhilePublishing / publishedFor),
        `steady (seconds 5 to the end): ${num(steadyRate)}/s`,
      ],
      [
        'backlog when the events stopped',
        num(backlogAtEnd),
        `${((backlogAtEnd / Math.max(1, expected)) * 100).toFixed(1)} % of those owed`,
      ],
      [
        drained ? 'time to drain the backlog' : `backlog left after ${drainCap} s of draining`,
        drained ? `${drainSeconds.toFixed(1)} s` : num(expected - received),
        `drained at ${num(drainRate)} deliveries/s; ${num(received / total)}/s over the whole run`,
      ],
      [
        'latency, event time → receipt, p50 / p99 (all deliveries)',
        `${ms(percentile(sorted, 50))} / ${ms(percentile(sorted, 99))}`,
        `${num(latencies.length)} deliveries`,
      ],
      [
        'latency p50 / p99 of those received while the events came',
        `${ms(percentile(sortedDuring, 50))} / ${ms(percentile(sortedDuring, 99))}`,
        `${num(duringLatencies.length)} deliveries`,
      ],
      [
        'process CPU per delivery',
        ms(cpuPerDelivery),
        `${num(cpuRun, 1)} s CPU in the run, less ${num(writesCpu, 1)} s for the status changes themselves (${ms(cpuPerChange * 1000)} each with no endpoint, measured first)${drained ? '' : `; an upper bound: it took in all ${num(expected)} owed, delivered ${num(received)}`}`,
      ],
      [
        'bench CPU per delivery (receiving, standardwebhooks verify, publishing)',
        ms(benchCpuPerDelivery),
        '',
      ],
      ['process RSS, largest / at the end', `${mb(rssMax)} / ${mb(rssEnd)}`, ''],
      [
        'requests / duplicates / bad signatures',
        `${num(requests)} / ${num(duplicates)} / ${bad}`,
        'a duplicate is an event id an endpoint had already received',
      ],
    ];
    for (const [what, ours, notes] of figures)
      ctx.rows.push(row({ scenario, what, ours, baseline: '', ratio: '', notes }));
    await proc.stop();
    // Written when the process exits: the busiest thread's (the main thread).
    const profile = profiling
      ? (collectProfiles(profileDir, new Date(0), ctx.config.repoRoot)[0] ?? null)
      : null;
    return [
      `### ${endpoints} endpoints × ${rate} events/s`,
      '',
      '| figure | value | notes |',
      '| --- | --- | --- |',
      ...figures.map(([what, ours, notes]) => `| ${what} | ${ours} | ${notes} |`),
      ...(profile ? ['', profile] : []),
    ].join('\n');
  } finally {
    await proc.stop();
    await Promise.all(receivers.map((r) => r.close()));
  }
}
