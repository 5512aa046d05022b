/** What the results were measured on: machine, Node and the versions of the packages that matter. */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem, release } from 'node:os';
import { join } from 'node:path';
import type { BenchConfig } from './config.js';
import { apolloRouterVersion } from './apollo-router.js';
import { hiveRouterVersion } from './hive-router.js';

function packageVersion(fromDir: string, name: string): string {
  const file = join(fromDir, 'node_modules', name, 'package.json');
  if (!existsSync(file)) return '?';
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

function toolVersion(cmd: string, args: string[], pattern: RegExp): string {
  try {
    const out = execFileSync(cmd, args, {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 5000,
    });
    return pattern.exec(out)?.[1] ?? '?';
  } catch {
    return '?';
  }
}

/** The commit measured, and whether the working tree differed from it (others edit the same checkout). */
function gitRevision(repoRoot: string): string {
  try {
    const run = (args: string[]) =>
      execFileSync('git', args, {
        cwd: repoRoot,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
        timeout: 5000,
      }).trim();
    const head = run(['rev-parse', '--short', 'HEAD']);
    const dirty = run(['status', '--porcelain', '--untracked-files=no', '--', '.', ':(exclude)bench']) !== '';
    return dirty ? `${head} + uncommitted changes` : head;
  } catch {
    return '?';
  }
}

export interface MachineInfo {
  cpu: string;
  cores: number;
  memoryGiB: number;
  kernel: string;
  node: string;
  loadAverage: string;
  packages: string;
  revision: string;
}

export function describeMachine(config: BenchConfig): MachineInfo {
  const r = config.repoRoot;
  const packages = [
    `@apollo/gateway ${packageVersion(join(r, 'gateway'), '@apollo/gateway')}`,
    `@apollo/server ${packageVersion(join(r, 'gateway'), '@apollo/server')}`,
    `@apollo/subgraph ${packageVersion(join(r, 'subgraphs', 'tavolo'), '@apollo/subgraph')}`,
    `graphql ${packageVersion(join(r, 'gateway'), 'graphql')}`,
    `graphql-ws ${packageVersion(join(r, 'gateway'), 'graphql-ws')}`,
    `mongodb ${packageVersion(join(r, 'packages', 'store'), 'mongodb')}`,
    `nats ${packageVersion(join(r, 'packages', 'bus'), 'nats')}`,
    `tsx ${packageVersion(r, 'tsx')}`,
    `@graphql-hive/gateway ${packageVersion(config.benchDir, '@graphql-hive/gateway')}`,
    `hive-router ${hiveRouterVersion(config) ?? 'not built'}`,
    `apollo-router ${apolloRouterVersion(config) ?? 'not built'}`,
    `autocannon ${packageVersion(config.benchDir, 'autocannon')}`,
    'mongo-java-server 1.47.0',
    `nats-server ${toolVersion('nats-server', ['--version'], /v?(\d+\.\d+\.\d+)/)}`,
    `redis-server ${toolVersion('redis-server', ['--version'], /v=(\S+)/)}`,
  ].join(', ');
  return {
    cpu: cpus()[0]?.model ?? '?',
    cores: cpus().length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    kernel: release(),
    node: process.version,
    loadAverage: loadavg()
      .map((l) => l.toFixed(2))
      .join(' / '),
    packages,
    revision: gitRevision(config.repoRoot),
  };
}
