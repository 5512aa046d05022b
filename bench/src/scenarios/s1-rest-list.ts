/**
 * 1. GET /api/tavoli for a tenant with 60 tables, embedded mode, the whole path (HTTP, JWT, REST facade,
 * gateway, subgraph, store) against a bare node:http server answering the same JSON from memory (the floor).
 * During our rounds a probe repeatedly PUTs a table status and at once GETs the list with the same token,
 * counting stale reads.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApi, type Api } from '../api.js';
import { row, type BenchContext } from '../context.js';
import { loadRows } from '../load-rows.js';
import { log } from '../log.js';
import { sampleRss, type MemoryRecord } from '../memory.js';
import { freePort } from '../ports.js';
import { spawnProcess, tcpOpen, waitUntil } from '../processes.js';
import { compare } from '../rounds.js';
import { seedTables, type Table } from '../seed.js';
import type { EmbeddedStack } from '../stack-embedded.js';
import { mintToken } from '../tokens.js';

const STATUSES = ['occupied', 'open', 'payment_pending', 'dirty', 'reserved', 'free'] as const;
const PROBES_PER_SECOND = 20;

interface ProbeCounts {
  probes: number;
  stale: number;
  errors: number;
}

/** PUT status → GET list, again and again, until stopped; counts lists that do not show the acknowledged status. */
function startProbe(api: Api, tables: readonly Table[], counts: ProbeCounts) {
  let running = true;
  const done = (async () => {
    for (let k = counts.probes; running; k++) {
      const began = Date.now();
      const table = tables[k % tables.length]!;
      const status = STATUSES[k % STATUSES.length]!;
      try {
        const ack = await api.call<{ status: string }>('PUT', `/api/tavoli/${table.id}/status`, { status });
        const list = await api.call<Array<{ id: string; status: string }>>('GET', '/api/tavoli');
        counts.probes++;
        if (list.find((t) => t.id === table.id)?.status !== ack.status) counts.stale++;
      } catch {
        counts.errors++;
      }
      await new Promise((r) => setTimeout(r, Math.max(0, 1000 / PROBES_PER_SECOND - (Date.now() - began))));
    }
  })();
  return async () => {
    running = false;
    await done;
  };
}

export async function scenario1(ctx: BenchContext, embedded: EmbeddedStack, memory: MemoryRecord) {
  const { config, load } = ctx;
  const token = await mintToken(ctx.jwtSecret, 'bench-s1');
  const api = createApi(embedded.baseUrl, token);
  const tables = await seedTables(api, { rooms: 3, tables: 60 });
  memory.idle = embedded.proc.rssBytes();

  const body = await fetch(`${embedded.baseUrl}/api/tavoli`, {
    headers: { authorization: `Bearer ${token}` },
  }).then((r) => r.text());
  const bodyFile = join(config.tmpDir, 'tavoli.json');
  writeFileSync(bodyFile, body);
  const floorPort = await freePort();
  const floor = spawnProcess(
    'floor-server',
    process.execPath,
    ['--import', 'tsx', join(config.benchDir, 'src', 'floor-server.ts'), String(floorPort), bodyFile],
    { cwd: config.repoRoot, env: { NODE_ENV: 'production' } },
  );
  await waitUntil(floor, 'a listening port', tcpOpen(floorPort));
  log(`s1: 60 tables seeded; list is ${body.length} bytes; floor server on :${floorPort}`);

  const request = [{ method: 'GET', path: '/api/tavoli', headers: { authorization: `Bearer ${token}` } }];
  const counts: ProbeCounts = { probes: 0, stale: 0, errors: 0 };
  const job = (baseUrl: string, seconds: number) => ({
    baseUrl,
    requests: request,
    connections: config.connections,
    seconds,
    maxRequests: seconds * 50_000,
  });
  const result = await compare(
    config,
    's1',
    {
      label: 'ours',
      processes: [embedded.proc],
      run: async (seconds) => {
        const rss = sampleRss(embedded.proc);
        const stopProbe = startProbe(api, tables, counts);
        try {
          return await load.http(job(embedded.baseUrl, seconds));
        } finally {
          await stopProbe();
          memory.underListLoad.push(...rss.stop());
        }
      },
    },
    {
      label: 'floor',
      processes: [floor],
      run: (seconds) => load.http(job(`http://127.0.0.1:${floorPort}`, seconds)),
    },
  );
  await floor.stop();

  const { a: ours, b: base } = result;
  const scenario = '1 GET /api/tavoli, 60 tables, embedded vs bare node:http';
  ctx.rows.push(
    ...loadRows(scenario, ours, base, { baselineLabel: 'floor', notes: [`${body.length} B body`] }),
    row({
      scenario,
      what: 'stale reads (PUT status → GET list, same token, under load)',
      ours: `${counts.stale} of ${counts.probes}`,
      baseline: 'goal 0',
      ratio: '',
      notes: `${PROBES_PER_SECOND} probes/s during our rounds${counts.errors ? `; ${counts.errors} probe errors` : ''}`,
    }),
  );
  ctx.method.push(
    `**1.** ${config.connections} autocannon connections, GET /api/tavoli (60 tables in 3 rooms, ${body.length} bytes) on ` +
      `the embedded process vs a bare node:http process answering the same bytes from memory. The stale-read ` +
      `probe runs in the bench process during our rounds only (PUT a status, read the acknowledged status, GET ` +
      `the list with the same token, compare).`,
  );
}
