/**
 * The bench's own MongoDB-protocol, NATS and Redis servers on free loopback ports, started the way the testkit
 * starts them (packages/testkit/src/servers.ts): mongo-java-server through the project's tiny Java main
 * (installed by scripts/install-test-servers.sh into .cache/mongo-java-server), nats-server with JetStream in a
 * temporary store, redis-server without persistence.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchConfig } from './config.js';
import { freePort } from './ports.js';
import { spawnProcess, tcpOpen, waitUntil, type Proc } from './processes.js';

export interface TestServer {
  proc: Proc;
  port: number;
  url: string;
}

export async function startMongo(config: BenchConfig): Promise<TestServer> {
  const port = await freePort();
  const cache = join(config.repoRoot, '.cache', 'mongo-java-server');
  const proc = spawnProcess(
    'mongo-java-server',
    'java',
    [
      '-Xmx2g',
      '-XX:+UseSerialGC',
      // BENCH_MONGO_JFR=<file>: a Java Flight Recording of the store server (where its CPU goes; bench/README).
      ...(config.mongoJfr
        ? [
            `-XX:StartFlightRecording=filename=${config.mongoJfr},settings=profile,dumponexit=true`,
            '-XX:FlightRecorderOptions=stackdepth=512',
          ]
        : []),
      '-Dorg.slf4j.simpleLogger.defaultLogLevel=warn',
      '-cp',
      `${join(cache, 'classes')}:${join(cache, 'lib', '*')}`,
      'MongoTestServer',
      '127.0.0.1',
      String(port),
    ],
    { cwd: config.tmpDir, env: {} },
  );
  await waitUntil(proc, 'a listening port', tcpOpen(port), 60_000);
  return { proc, port, url: `mongodb://127.0.0.1:${port}/?directConnection=true` };
}

export async function startNats(config: BenchConfig): Promise<TestServer> {
  const port = await freePort();
  const dir = join(config.tmpDir, 'nats');
  mkdirSync(dir, { recursive: true });
  const proc = spawnProcess(
    'nats-server',
    'nats-server',
    ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', dir],
    {
      cwd: config.tmpDir,
      env: {},
    },
  );
  await waitUntil(proc, 'a listening port', tcpOpen(port), 30_000);
  return { proc, port, url: `nats://127.0.0.1:${port}` };
}

export async function startRedis(config: BenchConfig): Promise<TestServer> {
  const port = await freePort();
  const proc = spawnProcess(
    'redis-server',
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      config.tmpDir,
    ],
    { cwd: config.tmpDir, env: {} },
  );
  await waitUntil(proc, 'a listening port', tcpOpen(port), 30_000);
  return { proc, port, url: `redis://127.0.0.1:${port}` };
}
