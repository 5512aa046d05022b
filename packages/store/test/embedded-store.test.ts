import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { trustedTenantId } from '@coperto/auth';
import { describe, expect, it } from 'vitest';
import { describeDocumentStore } from './support/contract.js';
import { LOCK_FILE } from '../src/directory-lock.js';
import { MAX_ID_BYTES } from '../src/lmdb-engine.js';
import {
  DuplicateKeyError,
  StoreLockedError,
  StoreUnavailableError,
  openEmbeddedStore,
  type DocumentStore,
} from '../src/index.js';
import { runFixture, startFixture, temporaryDirectories } from './support/child-process.js';

const newDirectory = temporaryDirectories();

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
  it('refuses to store an id longer than an LMDB key can hold (TypeError), and stores nothing', async () => {
    const store = await openEmbeddedStore({ directory: await newDirectory() });
    const long = 'x'.repeat(MAX_ID_BYTES + 1);
    await expect(rows(store).insertOne({ id: long, n: 1 })).rejects.toThrow(TypeError);
    await expect(
      rows(store).findOneAndUpdate({ id: long }, { $set: { n: 2 } }, { upsert: true }),
    ).rejects.toThrow(TypeError);
    await rows(store).insertOne({ id: 'x'.repeat(MAX_ID_BYTES), n: 3 });
    expect(await rows(store).count()).toBe(1);
    await store.close();
  });

  it('keeps records (in insertion order), indexes and pending events across a restart', async () => {
    const directory = await newDirectory();
    const first = await openEmbeddedStore({ directory });
    await first.ensureIndexes('rows', [{ name: 'code_unique', fields: { code: 1 }, unique: true }]);
    await rows(first).insertOne(
      { id: 'b', n: 2, code: 'B' },
      { events: [{ id: 'e1', subject: 's', body: 1 }] },
    );
    await rows(first).insertOne({ id: 'a', n: 1, code: 'A' });
    await rows(first).insertOne({ id: 'c', n: 3, code: 'C' });
    await rows(first).findOneAndUpdate({ id: 'a' }, { $inc: { n: 10 } });
    await rows(first).deleteOne({ id: 'c' });
    await first.close();

    const second = await openEmbeddedStore({ directory });
    try {
      expect(await rows(second).find()).toEqual([
        { id: 'b', n: 2, code: 'B' },
        { id: 'a', n: 11, code: 'A' },
      ]);
      await expect(rows(second).insertOne({ id: 'd', n: 4, code: 'A' })).rejects.toBeInstanceOf(
        DuplicateKeyError,
      );
      await rows(second).insertOne({ id: 'd', n: 4, code: 'C' }); // the deleted record's value is free
      const [pending] = await second.outbox(['rows']).claimPending(10, 60_000);
      expect(pending).toMatchObject({ tenantId, id: 'b', messages: [{ id: 'e1', subject: 's', body: 1 }] });
      expect(second.info()).toEqual({ kind: 'embedded', database: directory });
    } finally {
      await second.close();
    }
  });

  it('keeps every acknowledged write when the process is killed, and opens at once after', async () => {
    const directory = await newDirectory();
    const { signal, stdout, stderr } = await runFixture('crash-writer.ts', [directory]);
    expect(stderr).toBe('');
    expect(stdout).toBe('acknowledged\n');
    expect(signal).toBe('SIGKILL');

    const started = performance.now();
    const store = await openEmbeddedStore({ directory });
    expect(performance.now() - started).toBeLessThan(1000);
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

  it('no reader and no event ever sees a write before it is durable', async () => {
    // The probe polls findByIds, find and claimPending from the turn its writes start, and dies by SIGKILL the
    // moment one of them shows a write: whatever it saw must be there after the restart. (Run against the
    // append-log engine this replaced, the probe saw 20 inserts, an update and 21 events from memory in its first
    // poll; after the restart only the record written before them was there.)
    for (let attempt = 0; attempt < 3; attempt++) {
      const directory = await newDirectory();
      const { signal, stdout, stderr } = await runFixture('visibility-probe.ts', [directory]);
      expect(stderr).toBe('');
      expect(signal).toBe('SIGKILL');
      const seen = JSON.parse(stdout) as string[];
      expect(seen.length).toBeGreaterThan(0);
      const store = await openEmbeddedStore({ directory });
      try {
        const records = store.forTenant(trustedTenantId('probe')).collection<Row>('records');
        const events = (await store.outbox(['records']).claimPending(100, 60_000)).flatMap((pending) =>
          pending.messages.map((message) => message.id),
        );
        for (const sighting of seen) {
          const [kind, id, n] = sighting.split(':') as [string, string, string | undefined];
          if (kind === 'event') expect(events).toContain(id);
          else
            expect(await records.findById(id)).toMatchObject(n === undefined ? { id } : { id, n: Number(n) });
        }
      } finally {
        await store.close();
      }
    }
  });

  it('keeps its files in the directory, also when the directory name has a dot', async () => {
    const directory = join(await newDirectory(), 'coperto-1.2');
    const store = await openEmbeddedStore({ directory });
    await rows(store).insertOne({ id: 'a', n: 1 });
    await store.close();
    expect((await readdir(directory)).sort()).toEqual(['data.mdb', 'lock.mdb', LOCK_FILE].sort());
  });

  it('acknowledges many concurrent writes (grouped into shared commits) and keeps them all', async () => {
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

describe('embedded store directory lock', () => {
  it('refuses a second open of the same directory while the first is open, and allows it after close', async () => {
    const directory = await newDirectory();
    const first = await openEmbeddedStore({ directory });
    const refused = await openEmbeddedStore({ directory }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StoreLockedError);
    expect((refused as StoreLockedError).owner?.pid).toBe(process.pid);
    expect((refused as Error).message).toContain(join(directory, LOCK_FILE));
    await first.close();
    const second = await openEmbeddedStore({ directory });
    await second.close();
  });

  it('a lock file naming pid 1 on another host does not block: only a live holder does', async () => {
    const directory = await newDirectory();
    await writeFile(
      join(directory, LOCK_FILE),
      JSON.stringify({ pid: 1, hostname: 'elsewhere.invalid', since: 'then' }),
    );
    await mkdir(join(directory, 'LOCK')); // the earlier version's lock directory, as a killed process left it
    const store = await openEmbeddedStore({ directory });
    await rows(store).insertOne({ id: 'a', n: 1 });
    expect(JSON.parse(await readFile(join(directory, LOCK_FILE), 'utf8'))).toMatchObject({
      pid: process.pid,
    });
    await store.close();
  });

  it('a process killed with SIGKILL while holding the directory never keeps the next opener waiting', async () => {
    const directory = await newDirectory();
    const holder = startHolder(directory);
    expect(await holder.output).toBe('open\n');
    await expect(openEmbeddedStore({ directory })).rejects.toBeInstanceOf(StoreLockedError);
    holder.child.kill('SIGKILL');
    await holder.exited;
    const started = performance.now();
    const store = await openEmbeddedStore({ directory });
    expect(performance.now() - started).toBeLessThan(1000);
    await rows(store).insertOne({ id: 'a', n: 1 });
    await store.close();
  });

  it(
    'of 4 processes opening one directory at once, exactly one gets it; the others get StoreLockedError',
    { timeout: 30_000 },
    async () => {
      const directory = await newDirectory();
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

/** Starts the hold-store fixture; `output` is its first line (`open\n` or `locked\n`). */
function startHolder(directory: string) {
  const child = startFixture('hold-store.ts', [directory]);
  child.stderr.pipe(process.stderr);
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
