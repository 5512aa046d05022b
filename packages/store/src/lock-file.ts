import { readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';

/**
 * The embedded store's data directory is used by one process at a time. `LOCK` is a directory made with
 * `mkdir` (atomic: of concurrent makers exactly one succeeds) by `proper-lockfile`, whose holder refreshes its
 * mtime every `staleMs / 4`; a `LOCK` not refreshed for `staleMs` belongs to a dead process (SIGKILL, power
 * loss), whatever its pid or hostname, and is taken over. Taking over a stale lock is serialized by a second,
 * short-lived lock (`LOCK.opening`), so two openers racing over a stale `LOCK` never both get it.
 * `LOCK.owner` describes the holder, for error messages only.
 */
export const LOCK_FILE = 'LOCK';
const OPENING_LOCK = 'LOCK.opening';
const OWNER_FILE = 'LOCK.owner';
/** Default: a lock not refreshed for 10 s is stale (refreshed every 2.5 s). */
export const DEFAULT_LOCK_STALE_MS = 10_000;
const RETRY_EVERY_MS = 250;

export interface LockOwner {
  pid: number;
  hostname: string;
  since: string;
}

/** Thrown by `openEmbeddedStore` when another live process (or this one) has the directory open. */
export class StoreLockedError extends Error {
  readonly code = 'STORE_LOCKED';
  readonly owner: LockOwner | null;
  constructor(path: string, owner: LockOwner | null, options?: ErrorOptions) {
    const who = owner ? `process ${owner.pid} on ${owner.hostname} since ${owner.since}` : 'another process';
    super(
      `The embedded store at ${path} is in use by ${who}. Stop it first (a lock of a killed process is taken over once it is stale).`,
      options,
    );
    this.name = 'StoreLockedError';
    this.owner = owner;
  }
}

export interface DirectoryLock {
  readonly path: string;
  release(): Promise<void>;
}

export interface DirectoryLockOptions {
  /** Must be the same for every process opening the directory. Default DEFAULT_LOCK_STALE_MS (min 5000). */
  staleMs?: number;
  /** The lock was lost (not refreshed in time, or removed): the holder must stop writing. */
  onCompromised(error: Error): void;
}

/**
 * Takes the directory's lock, waiting at most about 1.5 × `staleMs` for a lock that may belong to a process that
 * just died; a lock still refreshed after that is a StoreLockedError.
 */
export async function acquireDirectoryLock(
  directory: string,
  options: DirectoryLockOptions,
): Promise<DirectoryLock> {
  const staleMs = Math.max(options.staleMs ?? DEFAULT_LOCK_STALE_MS, 5000);
  const path = join(directory, LOCK_FILE);
  const retries = {
    retries: Math.ceil((1.5 * staleMs) / RETRY_EVERY_MS),
    factor: 1,
    minTimeout: RETRY_EVERY_MS,
    maxTimeout: RETRY_EVERY_MS,
  };
  if (heldHere.has(path)) throw new StoreLockedError(path, await readOwner(directory));
  const deadline = Date.now() + 1.5 * staleMs;
  for (;;) {
    try {
      const release = await lockOnce(directory, staleMs, options.onCompromised);
      heldHere.add(path);
      const owner: LockOwner = { pid: process.pid, hostname: hostname(), since: new Date().toISOString() };
      await writeFile(join(directory, OWNER_FILE), `${JSON.stringify(owner)}\n`).catch(() => {});
      return {
        path,
        release: async () => {
          if (!heldHere.delete(path)) return;
          await rm(join(directory, OWNER_FILE), { force: true });
          await release().catch(() => {}); // compromised meanwhile: nothing left to free
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
      if (Date.now() >= deadline) {
        throw new StoreLockedError(path, await readOwner(directory), { cause: error });
      }
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_EVERY_MS));
  }
}

/**
 * One attempt (ELOCKED when `LOCK` is held and fresh). The stale check and takeover happen under the short-lived
 * `LOCK.opening`, so of two openers that both saw a stale `LOCK` only the first removes it: the second then
 * finds the first's fresh one.
 */
async function lockOnce(
  directory: string,
  staleMs: number,
  onCompromised: (error: Error) => void,
): Promise<() => Promise<void>> {
  const path = join(directory, LOCK_FILE);
  const opening = join(directory, OPENING_LOCK);
  const common = { stale: staleMs, update: staleMs / 4, realpath: false };
  const releaseOpening = await lockfile.lock(opening, {
    ...common,
    lockfilePath: opening,
    retries: {
      retries: Math.ceil((1.5 * staleMs) / RETRY_EVERY_MS),
      factor: 1,
      minTimeout: RETRY_EVERY_MS,
      maxTimeout: RETRY_EVERY_MS,
    },
    onCompromised: () => {}, // held for a moment; the main lock is what counts
  });
  try {
    await removeLegacyLockFile(path, staleMs);
    return await lockfile.lock(path, {
      ...common,
      lockfilePath: path,
      retries: 0,
      onCompromised: (error) => {
        heldHere.delete(path);
        onCompromised(error);
      },
    });
  } finally {
    await releaseOpening().catch(() => {});
  }
}

/** Locks this process holds (a second open here fails at once instead of waiting for staleness). */
const heldHere = new Set<string>();

/** A `LOCK` file (not directory) of an older version: removed once it is older than `staleMs`. */
async function removeLegacyLockFile(path: string, staleMs: number): Promise<void> {
  const info = await stat(path).catch(() => null);
  if (info?.isFile() && info.mtimeMs < Date.now() - staleMs) await unlink(path).catch(() => {});
}

async function readOwner(directory: string): Promise<LockOwner | null> {
  try {
    const parsed = JSON.parse(await readFile(join(directory, OWNER_FILE), 'utf8')) as Partial<LockOwner>;
    if (typeof parsed.pid !== 'number' || typeof parsed.hostname !== 'string') return null;
    return { pid: parsed.pid, hostname: parsed.hostname, since: String(parsed.since ?? '') };
  } catch {
    return null;
  }
}
