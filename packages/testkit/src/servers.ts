/**
 * Real test servers (docs/testing.md): mongo-java-server, nats-server with JetStream and redis-server,
 * each a child process on a free loopback port. Fault tests use `kill`, `pause`/`resume` and `restart`
 * (same port) to show what the service does when a dependency disappears and comes back.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface TestServer {
  readonly kind: 'mongo' | 'nats' | 'redis' | 'stripe-mock';
  readonly url: string;
  readonly port: number;
  /** SIGKILL, as a crash would; the server stays down until `restart()`. */
  kill(): Promise<void>;
  /** SIGSTOP: the port stays open but nothing answers. */
  pause(): void;
  resume(): void;
  /**
   * Starts the server again on the same port (after `kill`). State is empty for redis and for mongo on its
   * in-memory backend; mongo started `persistent` (H2 file) and NATS (JetStream store dir) keep theirs.
   */
  restart(): Promise<void>;
  /** Stops for good and removes temporary files. */
  stop(): Promise<void>;
}

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const mongoCache = join(repoRoot, '.cache', 'mongo-java-server');

const liveChildren = new Set<ChildProcess>();
let exitHookInstalled = false;

/** A test runner that dies must not leave servers or service processes behind: one exit hook kills them all. */
export function killOnExit(child: ChildProcess): void {
  liveChildren.add(child);
  child.once('exit', () => liveChildren.delete(child));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const running of liveChildren) running.kill('SIGKILL');
  });
}

export async function freePort(): Promise<number> {
  return await new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolvePort(port));
    });
  });
}

/** `count` distinct free ports, all held open until every one is known (no two callers get the same one). */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<import('node:net').Server>((resolveServer, reject) => {
          const srv = createServer();
          srv.on('error', reject);
          srv.listen(0, '127.0.0.1', () => resolveServer(srv));
        }),
    ),
  );
  const ports = servers.map((srv) => {
    const address = srv.address();
    return typeof address === 'object' && address ? address.port : 0;
  });
  await Promise.all(servers.map((srv) => new Promise((r) => srv.close(r))));
  return ports;
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ host: '127.0.0.1', port });
    const finish = (ok: boolean) => {
      socket.destroy();
      done(ok);
    };
    socket.setTimeout(500, () => finish(false));
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}

async function waitUntil(
  what: string,
  child: ChildProcess,
  probe: () => Promise<boolean>,
  timeoutMs = 30_000,
) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${what} exited early (code ${child.exitCode}, signal ${child.signalCode})`);
    }
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${what} did not answer within ${timeoutMs} ms`);
}

/**
 * A SIGSTOP takes effect a moment after kill(2) returns: a thread running on another core may still answer a request
 * sent meanwhile (a test saw a ping answered right after `pause()`). Waits, at most 1 s, until /proc says every thread
 * is stopped (state T); returns at once where there is no /proc.
 */
function waitUntilStopped(pid: number | undefined): void {
  if (pid === undefined) return;
  const deadline = Date.now() + 1000;
  while (Date.now() < deadline) {
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      return;
    }
    if (tids.every((tid) => threadState(pid, tid) === 'T')) return;
  }
}

/** A thread's state letter from /proc (`T` also for one that is gone or traced-stopped). */
function threadState(pid: number, tid: string): string {
  try {
    const state = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1]?.[0];
    return state === undefined || state === 't' ? 'T' : state;
  } catch {
    return 'T';
  }
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((r) => child.once('exit', () => r()));
}

interface Spec {
  kind: TestServer['kind'];
  url: (port: number) => string;
  command: (port: number, dataDir: string) => { cmd: string; args: string[] };
}

async function startServer(spec: Spec, fixedPort?: number): Promise<TestServer> {
  const port = fixedPort ?? (await freePort());
  const dataDir = mkdtempSync(join(tmpdir(), `coperto-${spec.kind}-`));
  let child: ChildProcess;
  let stderr = '';

  const launch = async () => {
    const { cmd, args } = spec.command(port, dataDir);
    stderr = '';
    child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    killOnExit(child);
    try {
      await waitUntil(`${spec.kind} server on port ${port}`, child, () => canConnect(port));
    } catch (error) {
      child.kill('SIGKILL');
      throw new Error(`${(error as Error).message}\n${stderr}`);
    }
  };
  await launch();

  const kill = async () => {
    child.kill('SIGCONT');
    child.kill('SIGKILL');
    await exited(child);
  };
  return {
    kind: spec.kind,
    port,
    url: spec.url(port),
    kill,
    pause() {
      child.kill('SIGSTOP');
      waitUntilStopped(child.pid);
    },
    resume() {
      child.kill('SIGCONT');
    },
    async restart() {
      await kill();
      // The kernel may keep the port for a moment after the kill.
      for (let attempt = 0; ; attempt++) {
        try {
          await launch();
          return;
        } catch (error) {
          if (attempt >= 20) throw error;
          await new Promise((r) => setTimeout(r, 250));
        }
      }
    },
    async stop() {
      child.kill('SIGCONT');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited(child);
      clearTimeout(timer);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface MongoServerOptions {
  /**
   * Run on mongo-java-server's H2 backend, an MVStore file in the server's temp dir, so that `restart()` after
   * `kill()` keeps the data as a real server's journal would (fault tests). Default: the in-memory backend.
   */
  persistent?: boolean;
}

export function startMongoServer(port?: number, options: MongoServerOptions = {}): Promise<TestServer> {
  return startServer(
    {
      kind: 'mongo',
      url: (p) => `mongodb://127.0.0.1:${p}/?directConnection=true`,
      command: (p, dataDir) => ({
        cmd: 'java',
        args: [
          '-Xmx512m',
          '-XX:+UseSerialGC',
          '-XX:TieredStopAtLevel=1',
          '-Dorg.slf4j.simpleLogger.defaultLogLevel=warn',
          '-cp',
          `${join(mongoCache, 'classes')}:${join(mongoCache, 'lib', '*')}`,
          'MongoTestServer',
          '127.0.0.1',
          String(p),
          ...(options.persistent ? [join(dataDir, 'mongo.mv.db')] : []),
        ],
      }),
    },
    port,
  );
}

/** Who nats-server lets in: a user and password (`--user/--pass`) or a token (`--auth`). Default anyone. */
export type NatsServerAuth = { user: string; password: string } | { token: string };

/**
 * nats-server with JetStream. `auth` makes it require credentials; `url` never carries them (clients pass
 * them as they choose, e.g. `nats://user:pass@host:port`).
 */
export function startNatsServer(
  options?: number | { port?: number; auth?: NatsServerAuth },
): Promise<TestServer> {
  const { port, auth } = typeof options === 'number' ? { port: options, auth: undefined } : (options ?? {});
  const authArgs =
    auth === undefined
      ? []
      : 'token' in auth
        ? ['--auth', auth.token]
        : ['--user', auth.user, '--pass', auth.password];
  return startServer(
    {
      kind: 'nats',
      url: (p) => `nats://127.0.0.1:${p}`,
      command: (p, dataDir) => ({
        cmd: 'nats-server',
        args: ['-a', '127.0.0.1', '-p', String(p), '-js', '-sd', dataDir, ...authArgs],
      }),
    },
    port,
  );
}

export function startRedisServer(port?: number): Promise<TestServer> {
  return startServer(
    {
      kind: 'redis',
      url: (p) => `redis://127.0.0.1:${p}`,
      command: (p, dataDir) => ({
        cmd: 'redis-server',
        args: [
          '--port',
          String(p),
          '--bind',
          '127.0.0.1',
          '--save',
          '',
          '--appendonly',
          'no',
          '--dir',
          dataDir,
        ],
      }),
    },
    port,
  );
}

/**
 * stripe-mock (Stripe's own API mock, canned fixtures, stateless), installed by scripts/install-test-servers.sh
 * into .cache/go-bin: HTTP on a free loopback port; its HTTPS listener on a socket in its temp dir (no second port).
 */
export function startStripeMock(port?: number): Promise<TestServer> {
  return startServer(
    {
      kind: 'stripe-mock',
      url: (p) => `http://127.0.0.1:${p}`,
      command: (p, dataDir) => ({
        cmd: join(repoRoot, '.cache', 'go-bin', 'stripe-mock'),
        args: ['-http-addr', `127.0.0.1:${p}`, '-https-unix', join(dataDir, 'https.sock')],
      }),
    },
    port,
  );
}
