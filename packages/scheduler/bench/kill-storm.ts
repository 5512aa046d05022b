// The reminder storm under kill -9 (docs: packages/scheduler/README.md, "Done once in effect"). Not part of the
// test suite: `node --import tsx packages/scheduler/bench/kill-storm.ts [jobs] [kills]`.
// Schedules `jobs` jobs all due at once, then runs scheduler processes that are killed with SIGKILL at random
// moments and started again, until every job is done: embedded (one process owns the store directory) and MongoDB
// (the test server, two processes at a time, one killed). Reports jobs lost (not done, or done with no effect)
// and effects repeated, and whether each repeat shows in the job's history as a claim that never ended.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trustedTenantId } from '@coperto/auth';
import { connectMongoStore, openEmbeddedStore, type DocumentStore } from '@coperto/store';
import { startMongoServer } from '@coperto/testkit';
import { Scheduler } from '../src/index.js';
import type { JobRecord } from '../src/types.js';

const JOBS = Number(process.argv[2] ?? 3000);
const KILLS = Number(process.argv[3] ?? 8);
const worker = new URL('./storm-worker.ts', import.meta.url).pathname;
const tenant = trustedTenantId('storm');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const KEYS = Array.from({ length: JOBS }, (_, i) => `b${i}/24`);

/** Every job of the storm (`list` stops at 1000: read by keys, 500 at a time). */
async function allJobs(store: DocumentStore): Promise<JobRecord[]> {
  const probe = new Scheduler({
    store,
    collection: 'storm_jobs',
    handler: () => Promise.reject(new Error('no')),
  });
  const jobs: JobRecord[] = [];
  for (let i = 0; i < KEYS.length; i += 500)
    jobs.push(...(await probe.getMany(tenant, KEYS.slice(i, i + 500))));
  return jobs;
}
const effectLines = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean);

function start(args: string[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', worker, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve) => child.stdout!.once('data', () => resolve(child)));
}
const kill = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });

async function schedule(store: DocumentStore): Promise<Scheduler> {
  const scheduler = new Scheduler({
    store,
    collection: 'storm_jobs',
    handler: () => Promise.reject(new Error('no')),
  });
  await scheduler.init();
  const due = new Date(Date.now() - 1000);
  for (const key of KEYS) await scheduler.schedule({ tenantId: tenant, key, dueAt: due });
  return scheduler;
}

async function report(
  name: string,
  store: DocumentStore,
  effectsFile: string,
  elapsedMs: number,
  kills: number,
) {
  const jobs = await allJobs(store);
  const effects = new Map<string, number>();
  for (const line of effectLines(effectsFile)) {
    const key = line.split(' ')[1]!;
    effects.set(key, (effects.get(key) ?? 0) + 1);
  }
  const lost = jobs.filter((j) => j.state !== 'done' || !effects.has(j.key)).length + (JOBS - jobs.length);
  const repeated = jobs.filter((j) => (effects.get(j.key) ?? 0) > 1);
  const ended = (j: JobRecord) =>
    new Set(j.history.filter((h) => h.event !== 'claimed').map((h) => h.claimId));
  const explained = repeated.filter((j) => {
    const e = ended(j);
    return j.history.some((h) => h.event === 'claimed' && !e.has(h.claimId));
  }).length;
  const doneTwice = jobs.filter((j) => j.history.filter((h) => h.event === 'done').length > 1).length;
  console.log(
    `${name}: ${JOBS} jobs, ${kills} kills, ${(elapsedMs / 1000).toFixed(1)} s: lost ${lost}, effects repeated ${repeated.length} ` +
      `(${explained} with a dead claim in their history), marked done twice ${doneTwice}`,
  );
}

async function runUntilDone(
  spawnOne: (n: number) => Promise<ChildProcess>,
  parallel: number,
  effectsFile: string,
) {
  const started = Date.now();
  let n = 0;
  const running: ChildProcess[] = [];
  let kills = 0;
  for (let i = 0; i < parallel; i++) running.push(await spawnOne(n++));
  // Killed at random moments while effects are being written (each runs 0.3–1.5 s after the previous kill).
  while (kills < KILLS && new Set(effectLines(effectsFile).map((l) => l.split(' ')[1])).size < JOBS) {
    await sleep(300 + Math.random() * 1200);
    const victim = running.splice(Math.floor(Math.random() * running.length), 1)[0]!;
    await kill(victim);
    kills++;
    running.push(await spawnOne(n++));
  }
  // The processes left finish the rest (every job has had its effect at least once).
  for (let i = 0; i < 600 && new Set(effectLines(effectsFile).map((l) => l.split(' ')[1])).size < JOBS; i++)
    await sleep(100);
  await sleep(1000);
  for (const child of running) await kill(child);
  return { started, kills };
}

// Embedded: one process owns the directory; it is killed and started again.
{
  const dir = mkdtempSync(join(tmpdir(), 'storm-'));
  const effects = join(dir, 'effects.log');
  writeFileSync(effects, '');
  let store = await openEmbeddedStore({ directory: join(dir, 'data') });
  await schedule(store);
  await store.close();
  const { started, kills } = await runUntilDone(
    (n) => start(['embedded', join(dir, 'data'), '', effects, `e${n}`]),
    1,
    effects,
  );
  store = await openEmbeddedStore({ directory: join(dir, 'data') });
  await report('embedded', store, effects, Date.now() - started, kills);
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}

// MongoDB: two processes at a time, one of them killed each round.
{
  const mongo = await startMongoServer();
  const dir = mkdtempSync(join(tmpdir(), 'storm-'));
  const effects = join(dir, 'effects.log');
  writeFileSync(effects, '');
  const database = 'storm';
  const store = await connectMongoStore({ url: mongo.url, database });
  await schedule(store);
  const { started, kills } = await runUntilDone(
    (n) => start(['mongo', mongo.url, database, effects, `m${n}`]),
    2,
    effects,
  );
  await report('mongodb (2 instances)', store, effects, Date.now() - started, kills);
  await store.close();
  await mongo.stop();
  rmSync(dir, { recursive: true, force: true });
}
