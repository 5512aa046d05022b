/**
 * Apollo Router (Apollo's federation router in Rust, crate `apollo-router` 2.17.0) as the fourth peer of our
 * gateway in scenario 2, over the SAME subgraph processes: the committed supergraph with its routing URLs patched
 * to the running subgraphs, and a router.yaml written into a temporary directory for each start. It runs without
 * a GraphOS key or license (no enterprise feature is configured). It is not an npm package: `pnpm
 * bench:apollo-router` builds it once into .cache/apollo-router/ (cargo, ≈36 min on 2 cores); when the binary is
 * missing the bench says so in one line and skips it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchConfig } from './config.js';
import { binaryCrateVersion, cachedBinary, writePatchedSupergraph } from './cargo-binary.js';
import { freePort } from './ports.js';
import { httpOk, spawnProcess, waitUntil, type Proc } from './processes.js';

export const APOLLO_ROUTER_INSTALL = 'pnpm bench:apollo-router';

export interface ApolloRouter {
  proc: Proc;
  baseUrl: string;
  version: string;
  /** The config file it was started with (for the method notes and the log). */
  configText: string;
}

export interface ApolloRouterConfigOptions {
  port: number;
  healthPort: number;
  /**
   * false: `traffic_shaping.all.deduplicate_query: false` written out (equal work); true: the router's default,
   * which is the same (Apollo Router does not deduplicate subgraph queries unless told to), so its two rows differ
   * only in our side.
   */
  dedupe: boolean;
}

/**
 * The router.yaml of one start (keys of apollo-router 2.17.0, checked against `router config schema`). Only what
 * the comparison needs is set: the GraphQL endpoint at /graphql on loopback, the health check on its own port,
 * Authorization propagated to every subgraph; everything else stays at the router's defaults.
 */
export function apolloRouterConfigYaml(options: ApolloRouterConfigOptions): string {
  const lines = [
    '# Written by bench/src/apollo-router.ts for one run.',
    'supergraph:',
    `  listen: "127.0.0.1:${options.port}"`,
    '  path: "/graphql"',
    'health_check:',
    `  listen: "127.0.0.1:${options.healthPort}"`,
    '  enabled: true',
    'headers:',
    '  all:',
    '    request:',
    '      - propagate:',
    '          named: authorization',
  ];
  if (!options.dedupe) lines.push('traffic_shaping:', '  all:', '    deduplicate_query: false');
  return `${lines.join('\n')}\n`;
}

/** Where `pnpm bench:apollo-router` installs the binary. */
export const apolloRouterBin = (config: BenchConfig): string | null =>
  cachedBinary(config, 'apollo-router', 'router');

export const apolloRouterVersion = (config: BenchConfig): string | null =>
  binaryCrateVersion(apolloRouterBin(config), 'apollo-router');

export async function startApolloRouter(
  config: BenchConfig,
  urls: Record<string, string>,
  options: { dedupe: boolean },
): Promise<ApolloRouter> {
  const bin = apolloRouterBin(config);
  if (!bin) throw new Error(`Apollo Router is not built (${APOLLO_ROUTER_INSTALL})`);
  const dir = join(config.tmpDir, `apollo-router-${options.dedupe ? 'defaults' : 'no-dedupe'}`);
  const supergraphPath = writePatchedSupergraph(config, dir, urls);
  const port = await freePort();
  const healthPort = await freePort();
  const configText = apolloRouterConfigYaml({ port, healthPort, dedupe: options.dedupe });
  const configFile = join(dir, 'router.yaml');
  writeFileSync(configFile, configText);
  const proc = spawnProcess(
    'apollo-router',
    bin,
    [
      '--config',
      configFile,
      '--supergraph',
      supergraphPath,
      '--log',
      'warn',
      '--anonymous-telemetry-disabled',
    ],
    { cwd: dir, env: {} },
  );
  await waitUntil(proc, 'health', httpOk(`http://127.0.0.1:${healthPort}/health`), 60_000);
  return {
    proc,
    baseUrl: `http://127.0.0.1:${port}`,
    version: apolloRouterVersion(config) ?? '?',
    configText,
  };
}
