import { randomUUID } from 'node:crypto';
import { open, readFile, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';

/** The embedded store's data directory is used by one process at a time; this file says which. */
export const LOCK_FILE = 'LOCK';

export interface LockOwner {
  pid: number;
  hostname: string;
  token: string;
  since: string;
}

/** Thrown by `openEmbeddedStore` when another live process (or this one) already has the directory open. */
export class StoreLockedError extends Error {
  readonly owner: LockOwner | null;
  constructor(path: string, owner: LockOwner | null) {
    const who = owner ? `process ${owner.pid} on ${owner.hostname} since ${owner.since}` : 'another process';
    super(
      `The embedded store at ${path} is in use by ${who}. Stop it first; if no such process runs, delete ${path}.`,
    );
    this.name = 'StoreLockedError';
    this.owner = owner;
  }
}

export interface DirectoryLock {
  readonly path: string;
  release(): Promise<void>;
}

/**
 * Takes the directory's lock file (created exclusively). A lock left by a dead process on this host is taken
 * over; a live one (or one from another host, which cannot be checked) is a StoreLockedError.
 */
export async function acquireDirectoryLock(directory: string): Promise<DirectoryLock> {
  const path = join(directory, LOCK_FILE);
  const owner: LockOwner = {
    pid: process.pid,
    hostname: hostname(),
    token: randomUUID(),
    since: new Date().toISOString(),
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(path, 'wx');
      try {
        await handle.writeFile(`${JSON.stringify(owner)}\n`);
        await handle.datasync();
      } catch (error) {
        await handle.close();
        await unlink(path).catch(() => {});
        throw error;
      }
      await handle.close();
      return { path, release: () => releaseIfOwned(path, owner.token) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = await readOwner(path);
    if (holder === undefined) continue; // removed meanwhile: try again
    if (holder !== null && isStale(holder)) {
      await unlink(path).catch(ignoreMissing);
      continue;
    }
    throw new StoreLockedError(path, holder);
  }
  throw new StoreLockedError(path, (await readOwner(path)) ?? null);
}

/** The recorded owner; null when the file is unreadable as a lock; undefined when it no longer exists. */
async function readOwner(path: string): Promise<LockOwner | null | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as Partial<LockOwner>;
    if (typeof parsed.pid !== 'number' || typeof parsed.hostname !== 'string') return null;
    return {
      pid: parsed.pid,
      hostname: parsed.hostname,
      token: String(parsed.token ?? ''),
      since: String(parsed.since ?? ''),
    };
  } catch {
    return null;
  }
}

/** Stale: recorded by this host for a process that no longer exists. */
export function isStale(owner: LockOwner): boolean {
  if (owner.hostname !== hostname()) return false;
  return !processExists(owner.pid);
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function releaseIfOwned(path: string, token: string): Promise<void> {
  const holder = await readOwner(path);
  if (holder && holder.token === token) await unlink(path).catch(ignoreMissing);
}

function ignoreMissing(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
}
