import { mkdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { trustedTenantId } from '@coperto/auth';
import { describe, expect, it } from 'vitest';
import { encodeEntry, headerEntry, type LogEntry } from '../src/embedded-log-entries.js';
import { DuplicateKeyError, openEmbeddedStore } from '../src/index.js';
import { IMPORTED_LOG_FILE, LEGACY_LOG_FILE } from '../src/legacy-import.js';
import { booking } from './fixtures/booking.js';
import { startFixture, temporaryDirectories } from './support/child-process.js';

const newDirectory = temporaryDirectories();
const tenant = trustedTenantId('t1');

function logOf(entries: LogEntry[]): string {
  return [headerEntry(), ...entries].map((entry) => `${encodeEntry(entry)}\n`).join('');
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

describe('import of a data directory of the earlier append-log format', () => {
  it('imports records (in their order), unique indexes and pending events on the first open, then keeps the log as a backup', async () => {
    const directory = await newDirectory();
    const log = logOf([
      {
        op: 'indexes',
        collection: 'tavoli',
        indexes: [{ name: 'codice', fields: { codice: 1 }, unique: true }],
      },
      { op: 'put', collection: 'tavoli', tenantId: 't1', id: 'z', doc: { id: 'z', codice: 'Z', n: 1 } },
      {
        op: 'put',
        collection: 'tavoli',
        tenantId: 't1',
        id: 'a',
        doc: { id: 'a', codice: 'A', n: 1 },
        outbox: [{ id: 'e1', subject: 'tavoli.created', body: { id: 'a' } }],
        outboxAt: '2026-01-01T00:00:00.000Z',
      },
      { op: 'put', collection: 'tavoli', tenantId: 't1', id: 'gone', doc: { id: 'gone', codice: 'G', n: 0 } },
      { op: 'put', collection: 'tavoli', tenantId: 't1', id: 'z', doc: { id: 'z', codice: 'Z', n: 2 } },
      { op: 'delete', collection: 'tavoli', tenantId: 't1', id: 'gone' },
    ]);
    await writeFile(join(directory, LEGACY_LOG_FILE), `${log}{"op":"put","coll`); // a torn last line
    await mkdir(join(directory, 'LOCK')); // the earlier version's lock, left by a process killed a minute ago
    const aMinuteAgo = new Date(Date.now() - 60_000);
    await utimes(join(directory, 'LOCK'), aMinuteAgo, aMinuteAgo);
    await writeFile(join(directory, 'LOCK.owner'), '{"pid":1,"hostname":"old","since":"then"}');

    const store = await openEmbeddedStore({ directory });
    try {
      const tavoli = store.forTenant(tenant).collection<{ id: string; codice: string; n: number }>('tavoli');
      expect(await tavoli.find()).toEqual([
        { id: 'z', codice: 'Z', n: 2 },
        { id: 'a', codice: 'A', n: 1 },
      ]);
      await expect(tavoli.insertOne({ id: 'b', codice: 'A', n: 0 })).rejects.toBeInstanceOf(
        DuplicateKeyError,
      );
      await tavoli.insertOne({ id: 'g', codice: 'G', n: 0 });
      const [pending] = await store.outbox(['tavoli']).claimPending(10, 60_000);
      expect(pending).toMatchObject({ id: 'a', messages: [{ id: 'e1', subject: 'tavoli.created' }] });
      expect(await readFile(join(directory, IMPORTED_LOG_FILE), 'utf8')).toContain(log);
      expect(await exists(join(directory, LEGACY_LOG_FILE))).toBe(false);
      expect(await exists(join(directory, 'LOCK'))).toBe(false);
      expect(await exists(join(directory, 'LOCK.owner'))).toBe(false);
    } finally {
      await store.close();
    }
    const reopened = await openEmbeddedStore({ directory }); // imported once: nothing to redo
    try {
      expect(await reopened.forTenant(tenant).collection('tavoli').count()).toBe(3);
    } finally {
      await reopened.close();
    }
  });

  it('a log still there (the import did not finish) is imported anew over whatever the last attempt wrote', async () => {
    const directory = await newDirectory();
    const partial = await openEmbeddedStore({ directory });
    await partial.ensureIndexes('tavoli', [{ name: 'codice', fields: { codice: 1 }, unique: true }]);
    const tavoli = partial.forTenant(tenant).collection<{ id: string; codice: string }>('tavoli');
    await tavoli.insertOne({ id: 'half', codice: 'A' });
    await partial.close();
    await writeFile(
      join(directory, LEGACY_LOG_FILE),
      logOf([{ op: 'put', collection: 'tavoli', tenantId: 't1', id: 'a', doc: { id: 'a', codice: 'A' } }]),
    );
    const store = await openEmbeddedStore({ directory });
    try {
      expect(await store.forTenant(tenant).collection('tavoli').find()).toEqual([{ id: 'a', codice: 'A' }]);
    } finally {
      await store.close();
    }
  });

  it(
    'a process killed during the import loses nothing: the next start imports it all',
    { timeout: 120_000 },
    async () => {
      const directory = await newDirectory();
      const total = 60_000;
      const entries: LogEntry[] = [];
      for (let n = 0; n < total; n++) {
        const doc = booking(n);
        entries.push({ op: 'put', collection: 'bookings', tenantId: 't1', id: doc.id, doc });
      }
      await writeFile(join(directory, LEGACY_LOG_FILE), logOf(entries));

      const child = startFixture('hold-store.ts', [directory]);
      let killedMidImport = false;
      await new Promise<void>((resolve) => {
        const poll = setInterval(() => {
          void stat(join(directory, 'data.mdb')).then(
            (info) => {
              if (info.size < 4 * 1024 * 1024) return;
              clearInterval(poll);
              child.kill('SIGKILL');
              void exists(join(directory, LEGACY_LOG_FILE)).then((still) => {
                killedMidImport = still;
              });
            },
            () => {},
          );
        }, 5);
        child.once('close', () => {
          clearInterval(poll);
          resolve();
        });
      });
      expect(killedMidImport).toBe(true);
      expect(await exists(join(directory, LEGACY_LOG_FILE))).toBe(true);

      const store = await openEmbeddedStore({ directory });
      try {
        const bookings = store.forTenant(tenant).collection('bookings');
        expect(await bookings.count()).toBe(total);
        expect(await bookings.findById(`b${total - 1}`)).toEqual(booking(total - 1));
        expect(await exists(join(directory, LEGACY_LOG_FILE))).toBe(false);
      } finally {
        await store.close();
      }
    },
  );
});
