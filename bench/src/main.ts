/**
 * `pnpm bench` (bench/run.sh runs this from the repository root with `node --import tsx`): starts what each
 * scenario needs, runs the scenarios bounded in time, prints one table, writes bench/RESULTS.md and stops
 * everything it started, also on failure and on Ctrl-C.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { cleanup, installSignalHandlers, onCleanup, stopping } from './cleanup.js';
import { readConfig, runs } from './config.js';
import { row, type BenchContext, type Row } from './context.js';
import { startLoadGenerator } from './load.js';
import { elapsedSeconds, log } from './log.js';
import { describeMachine } from './machine.js';
import type { MemoryRecord } from './memory.js';
import { startMongoProxy } from './mongo-proxy-client.js';
import { collectProfiles } from './profile-summary.js';
import { renderTable, replaceSection, replaceTimeSection, writeResults } from './report.js';
import { scenario1 } from './scenarios/s1-rest-list.js';
import { scenario2 } from './scenarios/s2-federation.js';
import { scenario3 } from './scenarios/s3-availability.js';
import { scenario4 } from './scenarios/s4-push.js';
import { scenario5 } from './scenarios/s5-memory.js';
import { scenario5Size } from './scenarios/s5-size.js';
import { scenario6 } from './scenarios/s6-booking-create.js';
import { scenario7 } from './scenarios/s7-fairness.js';
import { scenario8, SEATING_HEADING, SEATING_TIMES_HEADING } from './scenarios/s8-seating.js';
import { scenario9 } from './scenarios/s9-startup.js';
import { scenario10 } from './scenarios/s10-google.js';
import { scenario11 } from './scenarios/s11-reports.js';
import { scenario12, TENANTS_HEADING } from './scenarios/s12-tenants.js';
import { scenario13 } from './scenarios/s13-guest-search.js';
import { scenario14 } from './scenarios/s14-rush.js';
import { scenario15 } from './scenarios/s15-webhook-fanout.js';
import { scenario16 } from './scenarios/s16-webhook-outage.js';
import { scenario17 } from './scenarios/s17-reminder-storm.js';
import { scenario18 } from './scenarios/s18-day-times.js';
import { startMongo, startNats, startRedis } from './servers.js';
import { startDistributed } from './stack-distributed.js';
import { startEmbedded } from './stack-embedded.js';
import { newJwtSecret } from './tokens.js';

const config = readConfig();
installSignalHandlers();
onCleanup('remove temporary files', () => rmSync(config.tmpDir, { recursive: true, force: true }));
const startedAt = new Date();
const machine = describeMachine(config);
const rows: Row[] = [];
const method: string[] = [];
const sections = new Map<string, string>();
let failures = 0;

/** Runs one scenario; a failure becomes a row of the table and the run goes on. */
async function attempt(scenario: number, name: string, fn: () => Promise<void>) {
  if (!runs(config, scenario) || stopping()) return;
  log(`scenario ${name}`);
  try {
    await fn();
  } catch (error) {
    failures++;
    const message = (error as Error).message;
    log(`scenario ${name} FAILED: ${(error as Error).stack ?? message}`);
    rows.push(
      row({
        scenario: name,
        what: 'FAILED',
        ours: '—',
        baseline: '—',
        ratio: '',
        notes: message.split('\n')[0]!,
      }),
    );
  }
}

try {
  mkdirSync(config.profileDir, { recursive: true });
  log(
    `${machine.cores} cores, ${machine.memoryGiB} GiB, Node ${machine.node}; ${config.rounds} rounds × ` +
      `${config.roundSeconds} s after ${config.warmupSeconds} s warm-up, ${config.connections} connections`,
  );
  const load = await startLoadGenerator(config);
  const ctx: BenchContext = {
    config,
    load,
    jwtSecret: newJwtSecret(),
    rows,
    method,
    sections,
  };

  if (!stopping() && (runs(config, 1) || runs(config, 4) || runs(config, 5))) {
    log('starting the embedded process');
    const embedded = await startEmbedded(config, ctx.jwtSecret);
    const memory: MemoryRecord = { idle: null, underListLoad: [] };
    // 5 follows 1 on the same process: idle → scenario 1's load → the mixed load.
    await attempt(1, '1 GET /api/tavoli', () => scenario1(ctx, embedded, memory));
    await attempt(5, '5 memory', () => scenario5(ctx, embedded, memory));
    await attempt(4, '4 push latency (embedded)', () => scenario4(ctx, 'embedded', embedded));
    await embedded.proc.stop();
  }
  await attempt(5, '5 restart and memory at size', () => scenario5Size(ctx));

  await attempt(7, '7 per-tenant fairness', () => scenario7(ctx));
  await attempt(8, '8 seating simulator', () => scenario8(ctx));
  await attempt(9, '9 start-up', () => scenario9(ctx));
  await attempt(10, '10 Reserve with Google', () => scenario10(ctx));
  await attempt(11, '11 reports', () => scenario11(ctx));
  await attempt(12, '12 many tenants', () => scenario12(ctx));
  await attempt(13, '13 guest search', () => scenario13(ctx));
  await attempt(14, '14 Friday rush', () => scenario14(ctx));
  await attempt(15, '15 webhook fan-out', () => scenario15(ctx));
  await attempt(16, '16 webhook outage', () => scenario16(ctx));
  await attempt(17, '17 reminder storm, kill -9', () => scenario17(ctx));
  await attempt(18, "18 the whole day's times (embedded)", async () => {
    const embedded = await startEmbedded(config, ctx.jwtSecret, { name: 'gateway-s18' });
    try {
      await scenario18(ctx, { mode: 'embedded', baseUrl: embedded.baseUrl, processes: [embedded.proc] });
    } finally {
      await embedded.proc.stop();
    }
  });

  if (
    !stopping() &&
    (runs(config, 2) || runs(config, 3) || runs(config, 4) || runs(config, 6) || runs(config, 18))
  ) {
    log('starting mongo-java-server, nats-server, redis-server and the counting proxy');
    const [mongo, nats, redis] = await Promise.all([
      startMongo(config),
      startNats(config),
      startRedis(config),
    ]);
    const proxy = await startMongoProxy(config, mongo.port);
    const database = 'coperto_bench';
    log('starting the distributed stack (every subgraph + gateway)');
    const stack = await startDistributed(config, {
      jwtSecret: ctx.jwtSecret,
      mongoUrl: proxy.url,
      natsUrl: nats.url,
      redisUrl: redis.url,
      database,
    });
    await attempt(2, '2 our gateway vs Hive Gateway and hive-router', () => scenario2(ctx, stack));
    await attempt(3, '3 verifica-disponibilita', () => scenario3(ctx, stack, proxy, mongo.proc));
    await attempt(4, '4 push latency (distributed)', () => scenario4(ctx, 'distributed', stack));
    await attempt(6, '6 booking creation', () =>
      scenario6(ctx, stack, { url: proxy.url, database, proxy, server: mongo.proc }),
    );
    await attempt(18, "18 the whole day's times (distributed)", () =>
      scenario18(ctx, {
        mode: 'distributed',
        baseUrl: stack.baseUrl,
        processes: [...stack.instances.map((i) => i.proc), mongo.proc],
      }),
    );
  }
} catch (error) {
  failures++;
  log(`run FAILED: ${(error as Error).stack ?? String(error)}`);
  rows.push(
    row({
      scenario: 'setup',
      what: 'FAILED',
      ours: '—',
      baseline: '—',
      ratio: '',
      notes: (error as Error).message.split('\n')[0]!,
    }),
  );
} finally {
  log('stopping everything the bench started');
  await cleanup();
}

// Profiles are written when the profiled process exits, i.e. during cleanup: one file per thread in
// bench/profiles/<process>/; the busiest one (the main thread) is summarised.
const profiles = config.cpuProf.flatMap((name) => collectProfiles(join(config.profileDir, name), startedAt));

rows.sort((a, b) => (parseInt(a.scenario, 10) || 99) - (parseInt(b.scenario, 10) || 99));
const table = renderTable(rows);
process.stdout.write(`\n${table}\n\n`);
const resultsFile = join(config.benchDir, 'RESULTS.md');
method.sort((a, b) => (parseInt(a.slice(2), 10) || 99) - (parseInt(b.slice(2), 10) || 99));
if (config.only.size === 0) {
  writeResults({
    file: resultsFile,
    date: startedAt,
    machine,
    command: 'pnpm bench',
    settings:
      `BENCH_ROUNDS=${config.rounds} BENCH_ROUND_S=${config.roundSeconds} BENCH_WARMUP_S=${config.warmupSeconds} ` +
      `BENCH_CONNECTIONS=${config.connections} BENCH_SOAK_S=${config.soakSeconds} BENCH_SOCKETS=${config.sockets.join(',')} ` +
      `BENCH_PUSH_RATE=${config.pushRate}`,
    durationSeconds: elapsedSeconds(),
    loadAverageAfter: loadavg()
      .map((l) => l.toFixed(2))
      .join(' / '),
    table,
    method,
    profiles,
    keptSections: [SEATING_HEADING, SEATING_TIMES_HEADING, TENANTS_HEADING],
  });
  log(`wrote ${resultsFile}`);
} else if (profiles.length > 0) {
  replaceTimeSection(resultsFile, startedAt, profiles);
  log(`partial run (BENCH_ONLY): table not written; profile summary written to ${resultsFile}`);
} else {
  log('partial run (BENCH_ONLY): RESULTS.md left as it was (except the sections of its own this run wrote)');
}
for (const [heading, section] of sections) {
  replaceSection(resultsFile, heading, section);
  process.stdout.write(`\n${section}\n`);
  log(`wrote ${heading.replace(/^#+ /, '')} to ${resultsFile}`);
}
for (const p of profiles) process.stdout.write(`${p}\n\n`);
log(`done in ${(elapsedSeconds() / 60).toFixed(1)} min${failures ? `, ${failures} failure(s)` : ''}`);
process.exit(failures ? 1 : 0);
