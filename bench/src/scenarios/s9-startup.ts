/**
 * 9, start-up: the embedded process (`pnpm start`'s entry) from spawn to its first 200 on /public/health/ready,
 * on a fresh DATA_DIR each time: the CPU time it used until then (user + system, all threads, /proc) and the
 * wall time. Ours is the bundled entry `pnpm build` writes (gateway/dist/index.js: one file and a few chunks);
 * the baseline is the per-file build of the same code beside it (gateway/dist/unbundled.js, which imports the
 * workspace's dist/ modules and node_modules one file at a time). The two alternate start by start.
 */
import { row, type BenchContext } from '../context.js';
import { ms, ratio } from '../format.js';
import { log } from '../log.js';
import { startEmbedded } from '../stack-embedded.js';
import { median } from '../stats.js';

const BUNDLED = 'gateway/dist/index.js';
const PER_FILE = 'gateway/dist/unbundled.js';
/** Starts of each side (at least 3; BENCH_ROUNDS when larger). */
const MIN_STARTS = 3;
/** Readiness polled this often while a start is timed. */
const READY_POLL_MS = 10;

interface Starts {
  cpuMs: number[];
  wallMs: number[];
}

async function timedStart(ctx: BenchContext, entry: string, name: string, into: Starts): Promise<void> {
  const spawned = performance.now();
  const stack = await startEmbedded(ctx.config, ctx.jwtSecret, { name, entry, readyPollMs: READY_POLL_MS });
  into.wallMs.push(performance.now() - spawned);
  into.cpuMs.push((stack.proc.cpuSeconds() ?? Number.NaN) * 1000);
  await stack.proc.stop();
}

const list = (values: readonly number[]) => values.map((v) => ms(v)).join(', ');

export async function scenario9(ctx: BenchContext): Promise<void> {
  const scenario = '9';
  const starts = Math.max(MIN_STARTS, ctx.config.rounds);
  const bundled: Starts = { cpuMs: [], wallMs: [] };
  const perFile: Starts = { cpuMs: [], wallMs: [] };
  for (let i = 0; i < starts; i++) {
    // A B, B A, …: neither side always goes first.
    const sides: Array<[string, Starts, string]> = [
      [BUNDLED, bundled, `startup-bundled-${i}`],
      [PER_FILE, perFile, `startup-per-file-${i}`],
    ];
    if (i % 2 === 1) sides.reverse();
    for (const [entry, into, name] of sides) await timedStart(ctx, entry, name, into);
    log(
      `s9: start ${i + 1}/${starts}: bundled ${ms(bundled.cpuMs.at(-1)!)} CPU, ` +
        `per-file ${ms(perFile.cpuMs.at(-1)!)} CPU`,
    );
  }
  const [cpu, cpuBase] = [median(bundled.cpuMs), median(perFile.cpuMs)];
  const [wall, wallBase] = [median(bundled.wallMs), median(perFile.wallMs)];
  ctx.rows.push(
    row({
      scenario,
      what: 'embedded process, spawn → ready: CPU time until ready (goal: ready < 2 s)',
      ours: ms(cpu),
      baseline: `${ms(cpuBase)} (per-file modules)`,
      ratio: ratio(cpu, cpuBase),
      notes: `median of ${starts} starts each: ${list(bundled.cpuMs)} (per-file: ${list(perFile.cpuMs)}); user + system, all threads`,
    }),
    row({
      scenario,
      what: 'the same starts: wall time spawn → ready',
      ours: ms(wall),
      baseline: `${ms(wallBase)} (per-file modules)`,
      ratio: ratio(wall, wallBase),
      notes: `${list(bundled.wallMs)} (per-file: ${list(perFile.wallMs)})`,
    }),
  );
  ctx.method.push(
    `**9.** The embedded process as \`pnpm start\` runs it (\`node --conditions=compiled ${BUNDLED}\`, the bundle ` +
      `scripts/bundle-entries.ts writes) against the per-file build of the same code (${PER_FILE}, what ` +
      `\`pnpm build\` produced before entry points were bundled), ${starts} starts each, alternating, each on a fresh ` +
      `DATA_DIR: spawn → first 200 from /public/health/ready (polled every ${READY_POLL_MS} ms), the CPU time ` +
      `(user + system from /proc/<pid>/stat) read at that moment, then SIGTERM. Medians.`,
  );
}
