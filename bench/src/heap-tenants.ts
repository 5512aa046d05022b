/**
 * Where an idle tenant's bytes sit in the embedded process (every subgraph in one process, so every per-tenant
 * structure): a heap snapshot after one tenant's warm-up, another once N more tenants (BENCH_HEAP_TENANTS, default
 * 500) were seeded and answered scenario 12's mix once and the process rested, and heap-diff.ts between them.
 * Prints the new bytes per tenant and the holders that hold them. Run after `pnpm build`:
 *
 * `node --import tsx bench/src/heap-tenants.ts`
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, installSignalHandlers } from './cleanup.js';
import { readConfig } from './config.js';
import { startLoadGenerator } from './load.js';
import { log } from './log.js';
import { mixOf, seedChain, seedTenants } from './scenarios/s12-restaurants.js';
import { startEmbedded } from './stack-embedded.js';
import { mintToken, newJwtSecret } from './tokens.js';

const TENANTS = Number(process.env.BENCH_HEAP_TENANTS ?? 500);
const SETTLE_MS = 10_000;

const config = readConfig();
installSignalHandlers();
try {
  const jwtSecret = newJwtSecret();
  const dir = join(config.tmpDir, 'snapshots');
  mkdirSync(dir, { recursive: true }); // node writes no snapshot into a directory that does not exist
  const embedded = await startEmbedded(config, jwtSecret, {
    name: 'gateway-heap',
    nodeArgs: ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${dir}`],
  });
  const load = await startLoadGenerator(config);
  const tokens = await Promise.all(
    Array.from({ length: TENANTS + 1 }, (_, i) => mintToken(jwtSecret, `heap-${String(i).padStart(4, '0')}`)),
  );
  const run = (restaurants: Parameters<typeof mixOf>[0], maxRequests: number) =>
    load.http({
      baseUrl: embedded.baseUrl,
      requests: mixOf(restaurants),
      connections: 10,
      seconds: 600,
      maxRequests,
    });
  /** Writes a snapshot (the process blocks while it does: its metrics answer again once it is written). */
  const snapshot = async (): Promise<string> => {
    const known = new Set(safeList(dir));
    process.kill(embedded.proc.pid, 'SIGUSR2');
    for (let waited = 0; ; waited++) {
      if (waited > 600) throw new Error(`no heap snapshot in ${dir} after 10 min`);
      await new Promise((r) => setTimeout(r, 1000));
      const fresh = safeList(dir).filter((f) => !known.has(f));
      const answering = await fetch(embedded.metricsUrl)
        .then((r) => r.ok)
        .catch(() => false);
      if (fresh.length > 0 && answering) return join(dir, fresh[0]!);
    }
  };
  const chain = await seedChain(embedded.baseUrl, tokens[TENANTS]!, 20);
  await run(chain, 2000);
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const before = await snapshot();
  log(`heap: snapshot after one tenant: ${before}`);
  const tenants = await seedTenants(embedded.baseUrl, tokens.slice(0, TENANTS));
  await run(tenants, TENANTS * 12);
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const after = await snapshot();
  log(`heap: snapshot after ${TENANTS} more tenants: ${after}`);
  const diff = spawnSync(
    process.execPath,
    [
      '--max-old-space-size=8192',
      '--import',
      'tsx',
      join(config.benchDir, 'src', 'heap-diff.ts'),
      before,
      after,
      '30',
    ],
    { cwd: config.repoRoot, encoding: 'utf8', maxBuffer: 64 * 2 ** 20 },
  );
  if (diff.status !== 0) throw new Error(`heap-diff failed: ${diff.stderr}`);
  const result = JSON.parse(diff.stdout) as {
    total: number;
    by: Array<{ holder: string; bytes: number; objects: number }>;
  };
  console.log(`new bytes: ${result.total} = ${(result.total / TENANTS / 1024).toFixed(1)} KB per tenant`);
  for (const { holder, bytes, objects } of result.by) {
    console.log(
      `${(bytes / TENANTS).toFixed(0).padStart(8)} B/tenant ${String(objects).padStart(8)} objects  ${holder}`,
    );
  }
} finally {
  await cleanup();
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir).filter((f) => f.endsWith('.heapsnapshot'));
  } catch {
    return [];
  }
}
