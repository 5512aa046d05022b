/**
 * Micro-measure of the embedded adapter's query and update path (no HTTP, no disk wait: fsync off).
 * Run from the repository root, on an otherwise quiet machine if you can:
 *
 *   nice -n 10 node --import tsx packages/store/bench/embedded-query-speed.ts
 *
 * STORE_ENTRY=<path to an index.ts> measures another copy of the adapter (e.g. the previous commit's src,
 * checked out next to this one) with the same workload. The collections get non-unique indexes on the fields
 * the filters use, as the services define theirs; INDEXES=0 leaves them out (every filter not on `id` scans). Prints, per operation, the CPU time per operation
 * (user + system: the figure least disturbed by other work on a shared machine) and ops/s, each the median of
 * ROUNDS rounds of ROUND_MS after a warm-up round, and the process's RSS at the end.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { trustedTenantId } from '@coperto/auth';
import type { DocumentStore, TenantCollection } from '../src/index.js';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const ROUND_MS = Number(process.env.ROUND_MS ?? 1000);
const TABLES = 60; // scenario 1 of `pnpm bench`: GET /api/tavoli lists 60 tables
const BOOKINGS = 5000; // a large collection scanned by a filter that is not on `id`

interface Tavolo {
  id: string;
  nome: string;
  salaId: string;
  posti: number;
  stato: string;
  version: number;
}
interface Prenotazione {
  id: string;
  tavoloId: string;
  data: string;
  stato: string;
  coperti: number;
  tags: string[];
}

const entry = process.env.STORE_ENTRY
  ? pathToFileURL(resolve(process.env.STORE_ENTRY)).href
  : new URL('../src/index.ts', import.meta.url).href;
const { openEmbeddedStore } = (await import(entry)) as typeof import('../src/index.js');

const directory = await mkdtemp(join(tmpdir(), 'coperto-store-bench-'));
const store: DocumentStore = await openEmbeddedStore({ directory, fsync: false });
const tenant = store.forTenant(trustedTenantId('bench'));
const tavoli: TenantCollection<Tavolo> = tenant.collection('tavoli');
const prenotazioni: TenantCollection<Prenotazione> = tenant.collection('prenotazioni');
if (process.env.INDEXES !== '0') {
  await store.ensureIndexes('tavoli', [{ name: 'tavoli_sala', fields: { salaId: 1 } }]);
  await store.ensureIndexes('prenotazioni', [
    { name: 'prenotazioni_day', fields: { data: 1, stato: 1 } },
    { name: 'prenotazioni_table', fields: { tavoloId: 1 } },
  ]);
}
for (let i = 0; i < TABLES; i++) {
  await tavoli.insertOne({
    id: `t${i}`,
    nome: `Tavolo ${(i * 37) % TABLES}`,
    salaId: `s${i % 4}`,
    posti: 2 + (i % 5),
    stato: 'libero',
    version: 0,
  });
}
for (let i = 0; i < BOOKINGS; i++) {
  await prenotazioni.insertOne({
    id: `p${i}`,
    tavoloId: `t${i % TABLES}`,
    data: `2026-12-${String(1 + (i % 28)).padStart(2, '0')}`,
    stato: ['confermata', 'in_attesa', 'annullata'][i % 3]!,
    coperti: 1 + (i % 8),
    tags: i % 5 === 0 ? ['finestra'] : [],
  });
}

let counter = 0;
const operations: Record<string, () => Promise<unknown>> = {
  'find 60 tables, sorted by name (scenario 1)': () => tavoli.find({}, { sort: { nome: 1, id: 1 } }),
  'find tables of 2 rooms ($in), sorted': () =>
    tavoli.find({ salaId: { $in: ['s1', 's2'] } }, { sort: { nome: 1, id: 1 } }),
  'findOneAndUpdate by id, compare-and-set on version': async () => {
    const id = `t${counter++ % TABLES}`;
    const current = await tavoli.findById(id);
    return tavoli.findOneAndUpdate(
      { id, version: current!.version },
      { $set: { stato: counter % 2 ? 'occupato' : 'libero' }, $inc: { version: 1 } },
    );
  },
  'find one day of 5,000 bookings (a range, as the day list), sorted': () =>
    prenotazioni.find({ data: { $gte: '2026-12-07', $lte: '2026-12-07' } }, { sort: { data: 1, id: 1 } }),
  'count 5,000 bookings by day and state': () =>
    prenotazioni.count({ data: '2026-12-07', stato: { $ne: 'annullata' }, coperti: { $gte: 2 } }),
  'find 5,000 bookings: $or with array equality, limit 20': () =>
    prenotazioni.find({ $or: [{ tags: 'finestra' }, { coperti: { $gt: 7 } }] }, { limit: 20 }),
  'findOneAndUpdate on a scan filter': () =>
    prenotazioni.findOneAndUpdate(
      { tavoloId: `t${counter++ % TABLES}`, data: '2026-12-28' },
      { $set: { nota: `n${counter}` }, $inc: { coperti: 0 } },
    ),
};

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
console.log(`${'operation'.padEnd(64)} ${'CPU µs/op'.padStart(10)} ${'ops/s'.padStart(8)}`);
for (const [name, operation] of Object.entries(operations)) {
  const cpuPerOp: number[] = [];
  const rates: number[] = [];
  for (let round = 0; round < ROUNDS + 1; round++) {
    let done = 0;
    const cpu = process.cpuUsage();
    const start = performance.now();
    while (performance.now() - start < ROUND_MS) {
      await operation();
      done++;
    }
    const elapsed = performance.now() - start;
    const used = process.cpuUsage(cpu);
    if (round === 0) continue; // warm-up
    cpuPerOp.push((used.user + used.system) / done);
    rates.push((done * 1000) / elapsed);
  }
  const cpuFigure = median(cpuPerOp).toFixed(1).padStart(10);
  console.log(`${name.padEnd(64)} ${cpuFigure} ${String(Math.round(median(rates))).padStart(8)}`);
}
console.log(`RSS at the end: ${Math.round(process.memoryUsage().rss / 2 ** 20)} MiB`);
await store.close();
await rm(directory, { recursive: true, force: true });
