/**
 * What booking events cost the embedded process (`pnpm build` first; from the repository root:
 * `N=10000 node --import tsx bench/src/event-cost.ts`). Starts the compiled embedded process on a fresh DATA_DIR,
 * uploads N bookings through `POST /api/prenotazioni/batch` (500 a batch, two in flight), then polls the
 * `outbox_backlog` metric until every event was handed to the durable consumers. Prints the wall time and the
 * process's CPU (user + system, /proc) until the uploads were answered and until the outbox was empty.
 * `PROF=1` adds `--cpu-prof` (profiles in bench/profiles/event-cost; `node --import tsx bench/src/profile-summary.ts
 * <file>` summarises one); `ENTRY=gateway/dist/unbundled.js` runs the per-file build.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts } from './ports.js';
import { mintToken, newJwtSecret } from './tokens.js';

const N = Number(process.env.N ?? 3000);
const BATCH = 500;
const [port, health, metrics] = (await freePorts(3)) as [number, number, number];
const secret = newJwtSecret();
const dataDir = mkdtempSync(join(tmpdir(), 'coperto-event-cost-'));
const profile = process.env.PROF ? ['--cpu-prof', '--cpu-prof-dir=bench/profiles/event-cost'] : [];
const child = spawn(
  process.execPath,
  [...profile, '--conditions=compiled', process.env.ENTRY ?? 'gateway/dist/index.js'],
  {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'error',
      APOLLO_TELEMETRY_DISABLED: '1',
      COPERTO_MODE: 'embedded',
      HOST: '127.0.0.1',
      PORT: String(port),
      HEALTH_PORT: String(health),
      METRICS_PORT: String(metrics),
      DATA_DIR: dataDir,
      JWT_SECRET: secret,
      RATE_LIMIT_TENANT_RPS: '0',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  },
);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const cpuMs = () => {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
const backlog = async () => {
  const text = await (await fetch(`http://127.0.0.1:${metrics}/metrics`)).text();
  return Number(/^outbox_backlog(?:\{[^}]*\})? (\d+)/m.exec(text)?.[1] ?? Number.NaN);
};

try {
  for (;;) {
    if (child.exitCode !== null) throw new Error('the embedded process exited before it was ready');
    const ready = await fetch(`http://127.0.0.1:${health}/public/health/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    await sleep(100);
  }
  const token = await mintToken(secret, 'bench-event-cost');
  const upload = async (items: number) => {
    const body = {
      items: Array.from({ length: items }, (_, i) => ({
        covers: 2,
        bookingDate: `2031-02-${String(1 + (i % 28)).padStart(2, '0')}T20:00`,
        customerName: `Ospite ${i}`,
      })),
    };
    const response = await fetch(`http://127.0.0.1:${port}/api/prenotazioni/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status !== 200) throw new Error(`batch: ${response.status} ${await response.text()}`);
    await response.arrayBuffer();
  };
  const batches = Array.from({ length: Math.ceil(N / BATCH) }, (_, b) => Math.min(BATCH, N - b * BATCH));
  const cpu0 = cpuMs();
  const t0 = performance.now();
  let next = 0;
  const uploader = async () => {
    while (next < batches.length) await upload(batches[next++]!);
  };
  await Promise.all([uploader(), uploader()]);
  const [tWritten, cpuWritten] = [performance.now(), cpuMs()];
  while ((await backlog()) !== 0) await sleep(200);
  const [tDrained, cpuDrained] = [performance.now(), cpuMs()];
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  process.stdout.write(
    `${N} bookings: uploads answered after ${s(tWritten - t0)} (CPU ${s(cpuWritten - cpu0)}), outbox empty after ` +
      `${s(tDrained - t0)} (CPU ${s(cpuDrained - cpu0)}, ${((cpuDrained - cpu0) / N).toFixed(2)} ms per booking)\n`,
  );
} finally {
  child.kill('SIGINT');
  await new Promise((r) => child.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}
