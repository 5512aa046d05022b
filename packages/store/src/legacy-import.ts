import { readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { StoreLockedError } from './directory-lock.js';
import { splitLog, type LogEntry } from './embedded-log-entries.js';
import type { LmdbEngine } from './lmdb-engine.js';
import type { JsonObject } from './json-values.js';
import type { IndexSpec, OutboxMessage } from './types.js';

/**
 * Imports a data directory of the store's earlier format (the append log `data.jsonl`, see
 * embedded-log-entries.ts) into LMDB on the first start. The log stays the source of truth until the import
 * has committed everything: only then is it renamed to `data.jsonl.imported` (kept as a backup; delete it at
 * will). A crash during the import loses nothing: the next start finds `data.jsonl` again, clears what was
 * imported and imports it all anew. Runs under the directory lock, before the store serves anything.
 */
export const LEGACY_LOG_FILE = 'data.jsonl';
export const IMPORTED_LOG_FILE = 'data.jsonl.imported';
/** Files of the earlier format's lock (proper-lockfile) and compaction, removed after the import. */
const LEGACY_LEFTOVERS = ['LOCK', 'LOCK.owner', 'LOCK.opening', 'data.jsonl.compact'];
/** An earlier version refreshed its `LOCK` every 2.5 s and took it over after 10 s without refresh. */
const LEGACY_LOCK_STALE_MS = 10_000;
/** Records per LMDB transaction while importing. */
const BATCH = 5_000;

/** Returns how many records were imported, or null when there is no earlier-format log. */
export async function importLegacyLog(directory: string, engine: LmdbEngine): Promise<number | null> {
  const path = join(directory, LEGACY_LOG_FILE);
  const contents = await readFile(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (contents === null) return null;
  await waitForLegacyOwner(directory);
  const { records, indexes } = replay(splitLog(contents).entries, path);
  await engine.write(() => engine.clearAll());
  for (let start = 0; start < records.length; start += BATCH) {
    const batch = records.slice(start, start + BATCH);
    await engine.write(() => {
      for (const record of batch) engine.put(record.collection, record.tenantId, record, undefined);
    });
  }
  await engine.write(() => {
    for (const [collection, specs] of indexes) engine.defineIndexes(collection, specs);
  });
  await rename(path, join(directory, IMPORTED_LOG_FILE));
  await Promise.all(
    LEGACY_LEFTOVERS.map((name) => rm(join(directory, name), { recursive: true, force: true })),
  );
  return records.length;
}

interface ImportedRecord {
  collection: string;
  tenantId: string;
  doc: JsonObject;
  outbox: OutboxMessage[];
  outboxAt: string | null;
}

/** The state the log describes: records in the order the earlier engine held them, indexes per collection. */
function replay(
  entries: readonly LogEntry[],
  path: string,
): { records: ImportedRecord[]; indexes: Map<string, IndexSpec[]> } {
  if (entries[0] && entries[0].op !== 'header')
    throw new Error(`${path} is not a Coperto embedded store log`);
  const records = new Map<string, ImportedRecord>();
  const indexes = new Map<string, IndexSpec[]>();
  for (const entry of entries) {
    if (entry.op === 'indexes') indexes.set(entry.collection, entry.indexes);
    if (entry.op !== 'put' && entry.op !== 'delete') continue;
    const key = `${entry.collection}\u0000${entry.tenantId}\u0000${entry.id}`;
    if (entry.op === 'delete') {
      records.delete(key);
      continue;
    }
    const outbox = entry.outbox ?? [];
    records.set(key, {
      collection: entry.collection,
      tenantId: entry.tenantId,
      doc: { tenantId: entry.tenantId, ...entry.doc },
      outbox,
      outboxAt: outbox.length > 0 ? (entry.outboxAt ?? new Date(0).toISOString()) : null,
    });
  }
  return { records: [...records.values()], indexes };
}

/**
 * A process of the earlier version may still own the directory (a rolling upgrade on one volume): its `LOCK`
 * was refreshed every 2.5 s. Waits until the `LOCK` is stale (its owner gone) before importing, at most
 * 1.5 × 10 s (as that version did); still fresh then: StoreLockedError.
 */
async function waitForLegacyOwner(directory: string): Promise<void> {
  const path = join(directory, 'LOCK');
  const deadline = Date.now() + 1.5 * LEGACY_LOCK_STALE_MS;
  for (;;) {
    const info = await stat(path).catch(() => null);
    const age = info ? Date.now() - info.mtimeMs : Infinity;
    if (age >= LEGACY_LOCK_STALE_MS) return;
    if (Date.now() >= deadline) throw new StoreLockedError(path, null);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
