/**
 * 7. Per-tenant fairness, embedded mode: one tenant floods GET /api/tavoli (closed loop, every connection of
 * the load generator) while another, quiet tenant reads its own list at a steady pace from the bench process.
 * The quiet tenant's p99 alone and under the flood, on a gateway with the per-tenant limit
 * (RATE_LIMIT_TENANT_RPS) and on one without it (0): what the limit buys the tenants that do not flood.
 */
import { join } from 'node:path';
import { createApi } from '../api.js';
import { row, type BenchContext } from '../context.js';
import { ms, num, ratio, rps } from '../format.js';
import type { LoadResult } from '../load-types.js';
import { log } from '../log.js';
import { freePorts } from '../ports.js';
import { httpOk, spawnService, waitUntil, type Proc } from '../processes.js';
import { seedTables } from '../seed.js';
import { percentile, sortedCopy } from '../stats.js';
import { mintToken } from '../tokens.js';

/** The limit of the limited gateway: well above the quiet tenant's pace, far below what a flood sends. */
const TENANT_RPS = 500;
const TENANT_BURST = 500;
/** The quiet tenant's steady pace (requests per second, one at a time). */
const QUIET_PER_SECOND = 20;

interface QuietResult {
  p50: number;
  p99: number;
  ok: number;
  failed: number;
}

/** GET /api/tavoli with the quiet tenant's token at a steady pace for `seconds`; latencies of 200s only. */
async function quietReads(baseUrl: string, token: string, seconds: number): Promise<QuietResult> {
  const latencies: number[] = [];
  let failed = 0;
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    const began = performance.now();
    try {
      const response = await fetch(`${baseUrl}/api/tavoli`, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(30_000),
      });
      await response.arrayBuffer();
      if (response.status === 200) latencies.push(performance.now() - began);
      else failed++;
    } catch {
      failed++;
    }
    const elapsed = performance.now() - began;
    await new Promise((r) => setTimeout(r, Math.max(0, 1000 / QUIET_PER_SECOND - elapsed)));
  }
  const sorted = sortedCopy(latencies);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), ok: latencies.length, failed };
}

async function startGateway(
  ctx: BenchContext,
  name: string,
  tenantRps: number,
): Promise<{ proc: Proc; baseUrl: string }> {
  const [port, health, metrics] = (await freePorts(3)) as [number, number, number];
  const proc = spawnService(ctx.config, name, 'gateway/src/index.ts', {
    COPERTO_MODE: 'embedded',
    PORT: String(port),
    HEALTH_PORT: String(health),
    METRICS_PORT: String(metrics),
    DATA_DIR: join(ctx.config.tmpDir, `${name}-data`),
    JWT_SECRET: ctx.jwtSecret,
    RATE_LIMIT_TENANT_RPS: String(tenantRps),
    RATE_LIMIT_TENANT_BURST: String(TENANT_BURST),
  });
  await waitUntil(proc, 'readiness', httpOk(`http://127.0.0.1:${health}/public/health/ready`));
  return { proc, baseUrl: `http://127.0.0.1:${port}` };
}

interface Measured {
  alone: QuietResult;
  flooded: QuietResult;
  flood: LoadResult;
}

async function measure(ctx: BenchContext, name: string, tenantRps: number): Promise<Measured> {
  const { config, load } = ctx;
  const gateway = await startGateway(ctx, name, tenantRps);
  try {
    const [floodToken, quietToken] = await Promise.all([
      mintToken(ctx.jwtSecret, `bench-s7-flood-${name}`),
      mintToken(ctx.jwtSecret, `bench-s7-quiet-${name}`),
    ]);
    await seedTables(createApi(gateway.baseUrl, floodToken), { rooms: 3, tables: 60 });
    await seedTables(createApi(gateway.baseUrl, quietToken), { rooms: 3, tables: 60 });
    const seconds = config.roundSeconds;
    await quietReads(gateway.baseUrl, quietToken, config.warmupSeconds);
    const alone = await quietReads(gateway.baseUrl, quietToken, seconds);
    const floodRun = load.http({
      baseUrl: gateway.baseUrl,
      requests: [{ method: 'GET', path: '/api/tavoli', headers: { authorization: `Bearer ${floodToken}` } }],
      connections: config.connections,
      seconds: seconds + 1,
      maxRequests: (seconds + 1) * 50_000,
    });
    // The flood is under way before the quiet tenant's measured reads start.
    await new Promise((r) => setTimeout(r, 500));
    const flooded = await quietReads(gateway.baseUrl, quietToken, seconds);
    const flood = await floodRun;
    log(
      `s7 ${name}: quiet p99 ${ms(alone.p99)} alone, ${ms(flooded.p99)} flooded; flood ${rps(flood.rps)} answered 200, ` +
        `${flood.failures['429'] ?? 0} × 429`,
    );
    return { alone, flooded, flood };
  } finally {
    await gateway.proc.stop();
  }
}

export async function scenario7(ctx: BenchContext) {
  const limited = await measure(ctx, 'gateway-s7-limited', TENANT_RPS);
  const unlimited = await measure(ctx, 'gateway-s7-unlimited', 0);
  const scenario = '7 fairness: one tenant floods, another reads (embedded)';
  const quietRow = (label: string, m: Measured) =>
    row({
      scenario,
      what: `quiet tenant GET /api/tavoli p99, flooded vs alone (${label})`,
      ours: ms(m.flooded.p99),
      baseline: ms(m.alone.p99),
      ratio: ratio(m.flooded.p99, m.alone.p99),
      notes:
        `p50 ${ms(m.flooded.p50)} vs ${ms(m.alone.p50)}; ${m.flooded.ok} reads` +
        (m.flooded.failed + m.alone.failed > 0 ? `; ${m.flooded.failed + m.alone.failed} not 200` : ''),
    });
  ctx.rows.push(
    quietRow(`limit ${num(TENANT_RPS)}/s + burst ${num(TENANT_BURST)}`, limited),
    quietRow('no limit', unlimited),
    row({
      scenario,
      what: 'flooding tenant answered 200, limited vs unlimited',
      ours: rps(limited.flood.rps),
      baseline: rps(unlimited.flood.rps),
      ratio: ratio(limited.flood.rps, unlimited.flood.rps),
      notes: `${num(limited.flood.failures['429'] ?? 0)} × 429 with the limit`,
    }),
  );
  ctx.method.push(
    `**7.** Embedded gateway started twice, with RATE_LIMIT_TENANT_RPS=${TENANT_RPS} (burst ${TENANT_BURST}) and ` +
      `with 0 (no limit). On each, two tenants with 60 tables; the quiet one GETs /api/tavoli ${QUIET_PER_SECOND} ` +
      `times a second from the bench process, one at a time, for ${ctx.config.roundSeconds} s alone and ` +
      `${ctx.config.roundSeconds} s while the other floods the same route with ${ctx.config.connections} ` +
      `autocannon connections. p99 of the quiet tenant's 200s; one round each.`,
  );
}
