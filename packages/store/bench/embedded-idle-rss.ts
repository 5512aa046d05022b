/**
 * RSS of a process holding the embedded store with many bookings, idle after start, and after a scan of them
 * all. Run from the repository root:
 *
 *   node --import tsx packages/store/bench/embedded-idle-rss.ts [bookings=200000] [directory]
 *
 * Fills the directory (a new temporary one unless given; an existing one is reused as it is) in a first child
 * process, then opens it in a fresh one and prints its RSS and heap after 2 s idle, and after `count()`.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { trustedTenantId } from '@coperto/auth';
import { openEmbeddedStore } from '../src/index.js';
import { booking, BOOKING_INDEXES } from '../test/fixtures/booking.js';

const [mode, ...rest] = process.argv.slice(2);
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

/** RSS split (Linux): anonymous memory (heap, native) and file-backed pages (LMDB's map, code). */
function rss(): string {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN) * 1024;
  const { heapUsed } = process.memoryUsage();
  return `RSS ${mib(kib('VmRSS'))} (anonymous ${mib(kib('RssAnon'))}, file-backed ${mib(kib('RssFile'))}, JS heap ${mib(heapUsed)})`;
}

if (mode === 'fill') {
  const [directory, total] = [rest[0]!, Number(rest[1])];
  const store = await openEmbeddedStore({ directory });
  await store.ensureIndexes('bookings', BOOKING_INDEXES);
  const bookings = store.forTenant(trustedTenantId('bench')).collection('bookings');
  if ((await bookings.count()) === 0) {
    for (let start = 0; start < total; start += 2000) {
      const size = Math.min(2000, total - start);
      await Promise.all(Array.from({ length: size }, (_, n) => bookings.insertOne(booking(start + n))));
    }
  }
  await store.close();
} else if (mode === 'measure') {
  const store = await openEmbeddedStore({ directory: rest[0]! });
  const bookings = store.forTenant(trustedTenantId('bench')).collection('bookings');
  await bookings.findById('b0');
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const idle = rss();
  const count = await bookings.count();
  global.gc?.();
  console.log(`${count} bookings: idle ${idle}; after a full scan ${rss()}`);
  await store.close();
} else {
  const total = Number(mode ?? 200_000);
  const directory = rest[0] ?? (await mkdtemp(join(tmpdir(), 'coperto-rss-')));
  const self = fileURLToPath(import.meta.url);
  for (const args of [
    ['fill', directory, String(total)],
    ['measure', directory],
  ]) {
    const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', self, ...args], {
      stdio: 'inherit',
    });
    if (run.status !== 0) process.exit(run.status ?? 1);
  }
  console.log(`data directory: ${directory}`);
}
