import { spawn } from 'node:child_process';
import { appendFile, mkdir, mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { trustedTenantId } from '@coperto/auth';
import { afterAll, describe, expect, it } from 'vitest';
import { describeDocumentStore } from '../src/contract.js';
import { LOG_FILE } from '../src/embedded-engine.js';
import { LOCK_FILE } from '../src/lock-file.js';
import {
  DuplicateKeyError,
  StoreLockedError,
  StoreUnavailableError,
  openEmbeddedStore,
  type DocumentStore,
} from '../src/index.js';

const directories: string[] = [];
afterAll(async () => {
  await Promise.all(directories.map((directory) => rm(directory, { recursive: true, force: true })));
});

async function newDirectory(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'coperto-store-'));
  directories.push(directory);
  return directory;
}

describeDocumentStore('embedded', async () => openEmbeddedStore({ directory: await newDirectory() }));

interface Row {
  id: string;
  n: number;
  [field: string]: unknown;
}

const tenantId = trustedTenantId('tenant-a');
const rows = (store: DocumentStore, collection = 'rows') =>
  store.forTenant(tenantId).collection<Row>(collection);

describe('embedded store on disk', () => {
  it('keeps records, indexes and pending events across a restart', async () => {
    const directory = await newDirectory();
    const first = await openEmbeddedStore({ directory });
    await first.ensureIndexes('rows', [{ name: 'code_unique', fields: { code: 1 }, unique: true }]);
    await rows(first).insertOne({ id: 'a', n: 1, code: 'A' });
    await rows(first).insertOne(
      { id: 'b', n: 2, code: 'B' },
      { events: [{ id: 'e1', subject: 's', body: 1 }] },
    );
    await rows(first).insertOne({ id: 'c', n: 3, code: 'C' });
    await rows(first).findOneAndUpdate({ id: 'a' }, { $inc: { n: 10 } });
    await rows(first).deleteOne({ id: 'c' });
    await first.close();

    const second = await openEmbeddedStore({ directory });
    try {
      expect(await rows(second).find({}, { sort: { id: 1 } })).toEqual([
        { id: 'a', n: 11, code: 'A' },
        { id: 'b', n: 2, code: 'B' },
      ]);
      await expect(rows(second).insertOne({ id: 'd', n: 4, code: 'A' })).rejects.toBeInstanceOf(
        DuplicateKeyError,
      );
      const [pending] = await second.outbox(['rows']).claimPending(10, 60_000);
      expect(pending).toMatchObject({ tenantId, id: 'b', messages: [{ id: 'e1', subject: 's', body: 1 }] });
      expect(second.info()).toEqual({ kind: 'embedded', database: directory });
    } finally {
      await second.close();
    }
  });

  it('keeps every acknowledged write when the process is killed, and takes over its stale lock', async () => {
    const directory = await newDirectory();
    const fixture = fileURLToPath(new URL('./fixtures/crash-writer.ts', import.meta.url));
    const { signal, stdout, stderr } = await runChild(['--import', 'tsx', fixture, directory]);
    expect(stderr).toBe('');
    expect(stdout).toBe('acknowledged\n');
    expect(signal).toBe('SIGKILL');

    const store = await openEmbeddedStore({ directory, lockStaleMs: TEST_LOCK_STALE_MS });
    try {
      const records = store.forTenant(trustedTenantId('crash')).collection<Row>('records');
      const acknowledged = await records.find(
        { id: { $not: { $gte: 'unacknowledged' } } },
        { sort: { n: 1 } },
      );
      expect(acknowledged).toHaveLength(49);
      expect(await records.findById('r0')).toEqual({ id: 'r0', n: 100 });
      expect(await records.findById('r49')).toBeNull();
      const [pending] = await store.outbox(['records']).claimPending(10, 60_000);
      expect(pending?.messages.map((message) => message.id)).toEqual(['ev-1']);
    } finally {
      await store.close();
    }
  });

  it('drops a torn last line (a crash mid-append) and keeps working', async () => {
    const directory = await newDirectory();
    const first = await openEmbeddedStore({ directory });
    await rows(first).insertOne({ id: 'a', n: 1 });
    await rows(first).insertOne({ id: 'b', n: 2 });
    await first.close();
    const path = join(directory, LOG_FILE);
    const intactSize = (await stat(path)).size;
    await appendFile(
      path,
      '{"op":"put","collection":"rows","tenantId":"tenant-a","id":"c","doc":{"id":"c","n"',
    );

    const second = await openEmbeddedStore({ directory });
    expect(await rows(second).count()).toBe(2);
    expect((await stat(path)).size).toBe(intactSize);
    await rows(second).insertOne({ id: 'c', n: 3 });
    await second.close();

    await appendFile(path, Buffer.alloc(64)); // zero-filled tail, as some file systems leave after a crash
    const third = await openEmbeddedStore({ directory });
    try {
      expect(await rows(third).find({}, { sort: { id: 1 } })).toEqual([
        { id: 'a', n: 1 },
        { id: 'b', n: 2 },
        { id: 'c', n: 3 },
      ]);
    } finally {
      await third.close();
    }
  });

  it('refuses to open a log corrupted before its last line, and leaves no lock behind', async () => {
    const directory = await newDirectory();
    const first = await openEmbeddedStore({ directory });
    await rows(first).insertOne({ id: 'a', n: 1 });
    await first.close();
    const path = join(directory, LOG_FILE);
    const [header, ...rest] = (await readFile(path, 'utf8')).split('\n');
    await writeFile(path, [header, 'garbage', ...rest].join('\n'));
    await expect(openEmbeddedStore({ directory })).rejects.toThrow(/corrupt at line 2/);
    await expect(stat(join(directory, LOCK_FILE))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('compacts a log that is mostly overwritten history, on open and while running', async () => {
    const directory = await newDirectory();
    const path = join(directory, LOG_FILE);
    const growing = await openEmbeddedStore({
      directory,
      fsync: false,
      compactMinBytes: Number.POSITIVE_INFINITY,
    });
    await rows(growing).insertOne({ id: 'hot', n: 0, padding: 'x'.repeat(200) });
    await rows(growing).insertOne({ id: 'cold', n: -1 });
    for (let n = 1; n <= 300; n++) await rows(growing).findOneAndUpdate({ id: 'hot' }, { $set: { n } });
    await growing.close();
    const grown = (await stat(path)).size;
    expect(grown).toBeGreaterThan(300 * 200);

    const reopened = await openEmbeddedStore({ directory, fsync: false, compactMinBytes: 1024 });
    const compacted = (await stat(path)).size;
    expect(compacted).toBeLessThan(2048);
    expect(await rows(reopened).findById('hot')).toMatchObject({ n: 300 });
    for (let n = 301; n <= 600; n++) await rows(reopened).findOneAndUpdate({ id: 'hot' }, { $set: { n } });
    await reopened.close();
    expect((await stat(path)).size).toBeLessThan(4 * 1024);

    const last = await openEmbeddedStore({ directory });
    try {
      expect(await rows(last).find({}, { sort: { n: 1 } })).toEqual([
        { id: 'cold', n: -1 },
        { id: 'hot', n: 600, padding: 'x'.repeat(200) },
      ]);
    } finally {
      await last.close();
    }
  });

  it('acknowledges many concurrent writes (grouped into shared fsyncs) and keeps them all', async () => {
    const directory = await newDirectory();
    const store = await openEmbeddedStore({ directory });
    await Promise.all(Array.from({ length: 200 }, (_, n) => rows(store).insertOne({ id: `r${n}`, n })));
    await store.close();
    const reopened = await openEmbeddedStore({ directory });
    try {
      expect(await rows(reopened).count()).toBe(200);
    } finally {
      await reopened.close();
    }
  });
});

describe('embedded store lock file', () => {
  it('refuses a second open of the same directory while the first is open, and allows it after close', async () => {
    const directory = await newDirectory();
    const first = await openEmbeddedStore({ directory });
    const refused = await openEmbeddedStore({ directory }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StoreLockedError);
    expect((refused as StoreLockedError).owner?.pid).toBe(process.pid);
    expect((refused as Error).message).toContain(join(directory, LOCK_FILE));
    await first.close();
    await expect(stat(join(directory, LOCK_FILE))).rejects.toMatchObject({ code: 'ENOENT' });
    const second = await openEmbeddedStore({ directory });
    await second.close();
  });

  it('a stale lock left by pid 1 on another host does not block', async () => {
    const directory = await newDirectory();
    const lock = join(directory, LOCK_FILE);
    await mkdir(lock);
    await writeFile(
      `${lock}.owner`,
      JSON.stringify({ pid: 1, hostname: 'elsewhere.invalid', since: 'then' }),
    );
    const longAgo = new Date(Date.now() - 60_000);
    await utimes(lock, longAgo, longAgo);
    const store = await openEmbeddedStore({ directory, lockStaleMs: TEST_LOCK_STALE_MS });
    await rows(store).insertOne({ id: 'a', n: 1 });
    await store.close();
  });

  it('a process killed with SIGKILL while holding the directory never keeps the next opener out', async () => {
    const directory = await newDirectory();
    const holder = startHolder(directory);
    expect(await holder.output).toBe('open\n');
    holder.child.kill('SIGKILL');
    await holder.exited;
    // Waits (bounded: about 1.5 × lockStaleMs) for the dead holder's lock to go stale, then takes it.
    const store = await openEmbeddedStore({ directory, lockStaleMs: TEST_LOCK_STALE_MS });
    await rows(store).insertOne({ id: 'a', n: 1 });
    await store.close();
  });

  // Losers wait about 1.5 × lockStaleMs (the winner might have just died) before giving up, after 4 tsx startups.
  it(
    'of 4 processes opening one directory at once, exactly one gets it; the others get StoreLockedError',
    { timeout: 45_000 },
    async () => {
      const directory = await newDirectory();
      // An old stale lock makes them race over a takeover too.
      await mkdir(join(directory, LOCK_FILE));
      const longAgo = new Date(Date.now() - 60_000);
      await utimes(join(directory, LOCK_FILE), longAgo, longAgo);
      const holders = Array.from({ length: 4 }, () => startHolder(directory));
      try {
        const outputs = await Promise.all(holders.map((holder) => holder.output));
        expect(outputs.filter((output) => output === 'open\n')).toHaveLength(1);
        expect(outputs.filter((output) => output === 'locked\n')).toHaveLength(3);
      } finally {
        for (const holder of holders) holder.child.kill('SIGKILL');
      }
    },
  );

  it('after close, operations fail with StoreUnavailableError', async () => {
    const store = await openEmbeddedStore({ directory: await newDirectory() });
    await store.close();
    await store.close();
    await expect(rows(store).findById('a')).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(rows(store).insertOne({ id: 'a', n: 1 })).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(store.ping()).rejects.toBeInstanceOf(StoreUnavailableError);
  });
});

const TEST_LOCK_STALE_MS = 5000;

/** Starts the hold-store fixture; `output` is its first line (`open\n` or `locked\n`). */
function startHolder(directory: string) {
  const fixture = fileURLToPath(new URL('./fixtures/hold-store.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, directory], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const output = new Promise<string>((resolve) => {
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) resolve(text);
    });
    child.once('close', () => resolve(text));
  });
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  return { child, output, exited };
}

/** Runs `node <args>` to completion (bounded by the test timeout). */
function runChild(
  args: string[],
): Promise<{ pid: number; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (_code, signal) => resolve({ pid: child.pid!, signal, stdout, stderr }));
  });
}
