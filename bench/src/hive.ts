/**
 * Hive Gateway (`@graphql-hive/gateway`, installed only in bench/) as a peer of our gateway over the SAME
 * subgraph processes: the committed supergraph with its routing URLs patched to the running subgraphs and the
 * Authorization header (the subgraphs verify it) propagated; with its default JavaScript runtime or with the
 * Hive Router runtime (`--hive-router-runtime`). Two configurations: equal work (the per-request
 * x-bench-request header propagated too and in-flight deduplication of identical subgraph requests turned off,
 * so it cannot skip subgraph calls) and its defaults (deduplication on).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchConfig } from './config.js';
import { freePort } from './ports.js';
import { httpOk, spawnProcess, waitUntil, type Proc } from './processes.js';

export interface HiveGateway {
  proc: Proc;
  baseUrl: string;
  version: string;
}

/** The gateway.config.mjs of one start: equal work (`dedupe: false`) or Hive Gateway's defaults. */
export function hiveGatewayConfig(options: { dedupe: boolean }): string {
  const headers = options.dedupe ? "['authorization']" : "['authorization', 'x-bench-request']";
  const transport = options.dedupe
    ? ''
    : `
  transportEntries: {
    '*.http': { options: { deduplicateInflightRequests: false } },
  },`;
  return `// Written by bench/src/hive.ts for one run.
export const gatewayConfig = {
  propagateHeaders: {
    fromClientToSubgraphs({ request }) {
      const headers = {};
      for (const name of ${headers}) {
        const value = request.headers.get(name);
        if (value) headers[name] = value;
      }
      return headers;
    },
  },${transport}
};
`;
}

/** The supergraph with each `@join__graph(name: "x", url: "…")` pointing at the running subgraph x. */
export function patchSupergraph(sdl: string, urls: Record<string, string>): string {
  return sdl.replace(/@join__graph\(name: "([^"]+)", url: "[^"]*"\)/g, (whole, name: string) => {
    const url = urls[name];
    if (!url) throw new Error(`no URL for subgraph ${name}`);
    return `@join__graph(name: "${name}", url: "${url}")`;
  });
}

export function hiveBin(config: BenchConfig): string | null {
  const bin = join(config.benchDir, 'node_modules', '@graphql-hive', 'gateway', 'dist', 'bin.js');
  return existsSync(bin) ? bin : null;
}

export interface HiveOptions {
  dedupe: boolean;
  /**
   * Query planning and execution by `@graphql-hive/router-runtime` (hive-router's Rust query planner, compiled to
   * a native addon) instead of the default JavaScript runtime: `--hive-router-runtime`.
   */
  routerRuntime?: boolean;
}

/** The process name of a Hive Gateway start (the CPU figures name it). */
export const hiveProcessName = (options: HiveOptions) =>
  options.routerRuntime ? 'hive-gateway-router-runtime' : 'hive-gateway';

export async function startHive(
  config: BenchConfig,
  urls: Record<string, string>,
  options: HiveOptions,
): Promise<HiveGateway> {
  const bin = hiveBin(config);
  if (!bin) throw new Error('@graphql-hive/gateway is not installed in bench/node_modules');
  const supergraph = join(config.tmpDir, 'supergraph.graphql');
  writeFileSync(
    supergraph,
    patchSupergraph(readFileSync(join(config.repoRoot, 'supergraph.graphql'), 'utf8'), urls),
  );
  const configFile = join(config.tmpDir, `gateway.config.${options.dedupe ? 'defaults' : 'no-dedupe'}.mjs`);
  writeFileSync(configFile, hiveGatewayConfig(options));
  const port = await freePort();
  const profile = config.cpuProf.includes('hive')
    ? ['--cpu-prof', '--cpu-prof-dir', join(config.profileDir, 'hive')]
    : [];
  const proc = spawnProcess(
    hiveProcessName(options),
    process.execPath,
    [
      ...profile,
      bin,
      'supergraph',
      supergraph,
      '--port',
      String(port),
      '--host',
      '127.0.0.1',
      '-c',
      configFile,
      '--polling',
      '1h',
      ...(options.routerRuntime ? ['--hive-router-runtime'] : []),
    ],
    { cwd: config.tmpDir, env: { NODE_ENV: 'production' } },
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntil(proc, 'readiness', httpOk(`${baseUrl}/readiness`), 90_000);
  const version = packageVersion(config, 'gateway');
  return {
    proc,
    baseUrl,
    version: options.routerRuntime
      ? `${version} + router-runtime ${packageVersion(config, 'router-runtime')}`
      : version,
  };
}

function packageVersion(config: BenchConfig, name: string): string {
  const file = join(config.benchDir, 'node_modules', '@graphql-hive', name, 'package.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}
