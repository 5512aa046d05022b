import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { onCleanup, onExitKill } from './cleanup.js';
import type { BenchConfig } from './config.js';

/** A child process the bench started: its own process group, stopped at cleanup at the latest. */
export interface Proc {
  readonly name: string;
  readonly pid: number;
  /** For IPC (`ipc: true`): `child.send` / `child.on('message')`. */
  readonly child: ChildProcess;
  output(): string;
  /** Resident set size from /proc (Linux), or null once it exited. */
  rssBytes(): number | null;
  /** CPU time used so far (user + system, all threads) from /proc, or null once it exited. */
  cpuSeconds(): number | null;
  running(): boolean;
  /** SIGTERM to the group, SIGKILL after `graceMs`. Idempotent. */
  stop(graceMs?: number): Promise<void>;
}

/** Linux's USER_HZ, the unit of /proc/<pid>/stat times (100 on every common build). */
const CLOCK_TICKS = 100;

export interface SpawnOptions {
  cwd: string;
  env: Record<string, string>;
  /** Opens an IPC channel (the child is a Node script using process.send). */
  ipc?: boolean;
}

export function spawnProcess(name: string, cmd: string, args: string[], options: SpawnOptions): Proc {
  const child: ChildProcess = spawn(cmd, args, {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...options.env },
    stdio: options.ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${name}: could not start ${cmd}`);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const running = () => child.exitCode === null && child.signalCode === null;
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-pid, signal);
    } catch {
      // already gone
    }
  };
  const forget = onExitKill(() => signalGroup('SIGKILL'));
  let stopping: Promise<void> | null = null;
  const proc: Proc = {
    name,
    pid,
    child,
    output: () => output,
    rssBytes() {
      if (!running()) return null;
      try {
        const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
        return match ? Number(match[1]) * 1024 : null;
      } catch {
        return null;
      }
    },
    cpuSeconds() {
      if (!running()) return null;
      try {
        // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
      } catch {
        return null;
      }
    },
    running,
    stop(graceMs = 15_000) {
      stopping ??= (async () => {
        if (running()) {
          signalGroup('SIGTERM');
          const timer = setTimeout(() => signalGroup('SIGKILL'), graceMs);
          await exited;
          clearTimeout(timer);
        }
        signalGroup('SIGKILL'); // grandchildren, if any
        forget();
      })();
      return stopping;
    },
  };
  onCleanup(`stop ${name}`, () => proc.stop());
  return proc;
}

/**
 * A Coperto entry point (`gateway/src/index.ts`, `subgraphs/x/src/index.ts`) run as production runs it: its
 * compiled file (`pnpm build`, which bench/run.sh runs first) with `node --conditions=compiled`, from the
 * repository root (a path under dist/ is run as it is). BENCH_CPU_PROF=<name> profiles it. `nodeArgs` go before the entry (scenario 8's virtual clock).
 */
export function spawnService(
  config: BenchConfig,
  name: string,
  entry: string,
  env: Record<string, string>,
  nodeArgs: readonly string[] = [],
): Proc {
  const profile = config.cpuProf.includes(name)
    ? ['--cpu-prof', '--cpu-prof-dir', join(config.profileDir, name)]
    : [];
  const compiled = entry.replace('/src/', '/dist/').replace(/\.ts$/, '.js');
  return spawnProcess(name, process.execPath, [...profile, ...nodeArgs, '--conditions=compiled', compiled], {
    cwd: config.repoRoot,
    env: {
      NODE_ENV: 'production',
      // The images' runtime flags (Dockerfile, runtime stage; scripts/start.sh).
      NODE_OPTIONS: process.env.NODE_OPTIONS ?? '--max-semi-space-size=4 --max-old-space-size=1024',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      APOLLO_TELEMETRY_DISABLED: '1',
      RESTAURANT_TIMEZONE: 'Europe/Rome',
      // Scenarios 1–6 measure what one tenant gets at full speed: no per-tenant limit (scenario 7 sets its own).
      RATE_LIMIT_TENANT_RPS: '0',
      // Scenario 4's 1,000 sockets are one tenant's: no per-tenant socket cap (default 200).
      SUBSCRIPTION_MAX_SOCKETS_PER_TENANT: '0',
      ...env,
    },
  });
}

/** Polls `probe` every `pollMs` until it is true; fails early when the process exits. */
export async function waitUntil(
  proc: Proc,
  what: string,
  probe: () => Promise<boolean>,
  timeoutMs = 90_000,
  pollMs = 100,
) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!proc.running()) throw new Error(`${proc.name} exited before ${what}:\n${proc.output()}`);
    if (await probe().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, pollMs));
  }
  throw new Error(`${proc.name}: no ${what} within ${timeoutMs} ms:\n${proc.output()}`);
}

export const httpOk = (url: string) => async () => {
  const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
  await response.arrayBuffer();
  return response.ok;
};

export const tcpOpen = (port: number) => () =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
