import { spawnSync } from 'node:child_process';
import { closeSync, constants, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/**
 * The embedded store's data directory is used by one process at a time, held by an OS lock (`flock(2)`,
 * exclusive, non-blocking) on `owner.lock`. The kernel releases it when the holder's last descriptor closes:
 * at `release()`, and at once when the process dies however it dies (SIGKILL, OOM kill), so the next opener
 * never waits, whatever its pid or hostname; of two live openers exactly one gets it.
 *
 * Node has no flock binding, so the lock is taken by a short-lived child on the store's own open descriptor
 * (passed as the child's fd 3): the lock belongs to the open file description, which stays open in this
 * process after the child exits. The child is util-linux `flock` (Debian and most Linux images), else `perl`
 * (macOS, Debian's perl-base); the descriptor is close-on-exec, so no later child inherits the lock.
 * The file's contents name the holder, for error messages only.
 */
export const LOCK_FILE = 'owner.lock';

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
    super(`The embedded store at ${path} is in use by ${who}. Stop it first.`, options);
    this.name = 'StoreLockedError';
    this.owner = owner;
  }
}

export interface DirectoryLock {
  readonly path: string;
  release(): void;
}

/** The lock helpers, tried in order: [command, args]; each exits 0 (locked), 1 (held elsewhere). */
const LOCKERS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['flock', ['--nonblock', '--exclusive', '3']],
  [
    'perl',
    [
      '-MFcntl=:flock',
      '-e',
      'open(my $f, "+<&=", 3) or exit 2; flock($f, LOCK_EX | LOCK_NB) or exit 1; exit 0',
    ],
  ],
];

/** Takes the directory's lock now, or throws StoreLockedError (never waits). */
export function acquireDirectoryLock(directory: string): DirectoryLock {
  const path = join(directory, LOCK_FILE);
  const fd = openSync(path, constants.O_RDWR | constants.O_CREAT, 0o644);
  try {
    if (!lockDescriptor(fd)) throw new StoreLockedError(path, readOwner(path));
    const owner: LockOwner = { pid: process.pid, hostname: hostname(), since: new Date().toISOString() };
    ftruncateSync(fd, 0);
    writeSync(fd, `${JSON.stringify(owner)}\n`, 0);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  let held = true;
  return {
    path,
    release: () => {
      if (!held) return;
      held = false;
      closeSync(fd); // releases the flock
    },
  };
}

/** True when `fd` now holds the exclusive lock; false when another open file description holds it. */
function lockDescriptor(fd: number): boolean {
  for (const [command, args] of LOCKERS) {
    const result = spawnSync(command, args, { stdio: ['ignore', 'ignore', 'pipe', fd], timeout: 10_000 });
    if ((result.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') continue;
    if (result.status === 0) return true;
    if (result.status === 1) return false;
    throw new Error(
      `${command} could not lock the embedded store: ${result.stderr?.toString().trim() ?? ''}`,
      {
        cause: result.error,
      },
    );
  }
  throw new Error(
    'The embedded store needs `flock` (util-linux) or `perl` on the PATH to lock its directory',
  );
}

function readOwner(path: string): LockOwner | null {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockOwner>;
    if (typeof parsed.pid !== 'number' || typeof parsed.hostname !== 'string') return null;
    return { pid: parsed.pid, hostname: parsed.hostname, since: String(parsed.since ?? '') };
  } catch {
    return null;
  }
}
